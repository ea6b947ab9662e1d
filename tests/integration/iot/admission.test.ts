import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerClients } from '../../support/mqtt';
import { startServer, type TestServer } from '../../support/server';
import { until } from '../../support/wait';
import { figure, scrape } from '../ops/support';

const RATE = 20;
const DEVICES = ['QJ-CRACK-01', 'QJ-CRACK-02', 'QJ-TILT-01', 'QJ-TILT-02', 'QJ-HLS-01', 'QJ-HLS-02', 'QJ-RAIN-01', 'QJ-TH-01'];

/**
 * MQTT_CONNECT_RATE (docs/mqtt.md "Reconnect storms"): connections beyond the rate wait their turn, accepted and
 * unread, and are let in evenly; none is refused for it. The broker keeps its state in memory, so one store is enough.
 */
describe('the embedded broker under MQTT_CONNECT_RATE', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite', { mqttConnectRate: RATE });
  });
  afterAll(async () => {
    await server?.stop();
  });
  const { connect } = brokerClients(() => server.app.broker?.port);
  const waiting = async () => figure((await scrape(server.url, server.app.platform.config.metricsToken)).text, 'vigil_mqtt_connections_waiting');

  it('lets a burst of devices in one by one at the rate, every one of them, and shows the ones waiting', async () => {
    const started = performance.now();
    const connackAt: number[] = [];
    const all = Promise.all(DEVICES.map(async (code) => {
      const client = await connect(code);
      connackAt.push(performance.now() - started);
      return client;
    }));
    await until(async () => (await waiting()) > 0, 5000, 'devices waiting for their turn');
    const clients = await all;
    expect(clients.every((client) => client.connected)).toBe(true);
    // One let in per 1/RATE s: the last CONNACK came at least the rate's intervals after the first, less one for the
    // clients' own jitter in reading them (all at once, 8 take a few milliseconds).
    connackAt.sort((a, b) => a - b);
    expect(connackAt[DEVICES.length - 1] - connackAt[0]).toBeGreaterThanOrEqual(((DEVICES.length - 2) * 1000) / RATE);
    expect(await waiting()).toBe(0);
  });
});
