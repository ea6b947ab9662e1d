import { connect as connectTcp, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEHIND_ROWS } from '../../../server/ingest/store';
import { brokerClients } from '../../support/mqtt';
import { startServer, type TestServer } from '../../support/server';
import { inTimeWait } from '../../support/tcp';
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
  const metric = async (name: string) => figure((await scrape(server.url, server.app.platform.config.metricsToken)).text, name);
  const waiting = () => metric('vigil_mqtt_connections_waiting');
  const held = () => metric('vigil_mqtt_admission_held_seconds_total');

  it('lets a burst of devices in one by one at the rate, every one of them, and shows the ones waiting', async () => {
    // Each device's first CONNECT checks its password by scrypt (~200 ms here, varying by tens): connected once, the
    // burst's CONNACKs are spaced by the rate alone.
    for (const client of await Promise.all(DEVICES.map((code) => connect(code)))) await client.endAsync();
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
    // They waited for the rate, not for ingestion.
    expect(await held()).toBe(0);
  });

  it('lets nobody in while ingestion is behind with its commits, and the waiting device once it caught up', async () => {
    const native = server.app.platform.native;
    if (native.dialect !== 'sqlite') throw new Error('the test holds the SQLite writer');
    const ts = Date.now() - 10_000_000;
    // More series rows than the writer is allowed behind (server/ingest/store.ts), kept from committing by the lock.
    const readings = Array.from({ length: BEHIND_ROWS + 100 }, (_, i) => ({ ts: ts + i, values: { crack: i / 100 } }));
    const topic = 'vigil/100001/device/QJ-CRACK-01/data';
    // One reading first, so the device is in the directory's cache: while the lock is held, a read may wait behind a
    // background write that waits for the lock.
    await server.app.ingest.pipeline.accept(topic, Buffer.from(JSON.stringify({ ts: ts - 1, values: { crack: 0 } })));
    await native.writeLock.acquire();
    const events: string[] = [];
    let stored: Promise<void> = Promise.resolve();
    let admitted: Promise<void> = Promise.resolve();
    try {
      stored = server.app.ingest.pipeline.accept(topic, Buffer.from(JSON.stringify(readings))).then(() => void events.push('stored'));
      await until(() => server.app.ingest.writer.behind, 10_000, 'the writer behind');
      admitted = connect('QJ-TH-01').then(() => void events.push('connack'));
      // The broker's own count: the metrics endpoint may wait for the lock the test holds.
      await until(() => server.app.broker?.waiting === 1, 5000, 'the device waiting');
    } finally {
      native.writeLock.release();
    }
    await Promise.all([stored, admitted]);
    // Held while the commit waited (at 20 a second it would have been let in within 50 ms), let in after it.
    expect(events).toEqual(['stored', 'connack']);
    expect(await waiting()).toBe(0);
    expect(await held()).toBeGreaterThan(0);
  });
});

describe('connections waiting for their turn when the broker closes', () => {
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it('are reset at once, as the connected ones are: nothing of theirs stays in TIME_WAIT', async () => {
    // One a second: the first is let in, the others wait, held by the admission as the listener's bare handles.
    server = await startServer('sqlite', { mqttConnectRate: 1 });
    const port = server.app.broker?.port as number;
    const sockets = await Promise.all(
      [0, 1, 2].map(() => new Promise<Socket>((resolve, reject) => {
        const socket = connectTcp(port, '127.0.0.1', () => resolve(socket)).once('error', reject);
      })),
    );
    const ends = sockets.map((socket) => new Promise<string | undefined>((resolve) => {
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code));
      socket.once('close', () => resolve(undefined));
    }));
    await until(() => server?.app.broker?.waiting === 2, 5000, 'two connections waiting');
    // Open connections, the waiting ones included (the metric vigil_mqtt_connections).
    expect(server.app.broker?.connections).toBe(3);
    const peers = sockets.map((socket) => socket.localPort as number);
    await server.stop();
    server = undefined;
    expect(await Promise.all(ends)).toEqual(['ECONNRESET', 'ECONNRESET', 'ECONNRESET']);
    expect(inTimeWait(port, peers)).toBe(0);
  });
});
