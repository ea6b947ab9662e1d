import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEVICE_PASSWORD } from '../../../server/db/seed/monitoring';
import { startServer, type TestServer } from '../../support/server';
import { until } from '../../support/wait';

const CODE = 'QJ-CRACK-01';
const COMMANDS = `vigil/100001/device/${CODE}/command`;

/** The part of the broker's persistence that holds a session (server/ingest/broker.ts). */
interface Sessions {
  subscriptionsByClient(client: { id: string }): Promise<unknown[]>;
  outgoingStream(client: { id: string }): AsyncIterable<unknown>;
}

/**
 * Persistent sessions of the embedded broker expire (docs/mqtt.md "Connections"): a device gone longer than
 * MQTT_SESSION_EXPIRY loses its subscriptions and the messages queued for it. Sessions live in the broker's memory, not
 * in the store, so one store is enough.
 */
describe('persistent sessions of the embedded broker', () => {
  let server: TestServer;
  const clients: MqttClient[] = [];
  beforeAll(async () => {
    server = await startServer('sqlite', { mqttSessionExpiryMs: 1000 });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true)));
    await server?.stop();
  });

  const broker = () => {
    const found = server.app.broker;
    if (!found) throw new Error('no embedded broker');
    return found;
  };
  const sessions = () => (broker().aedes as unknown as { persistence: Sessions }).persistence;
  const queued = async () => {
    let count = 0;
    for await (const _ of sessions().outgoingStream({ id: CODE })) count += 1;
    return count;
  };
  const connect = async () => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker().port}`, { username: CODE, password: DEMO_DEVICE_PASSWORD, clientId: CODE, clean: false, protocolVersion: 4, reconnectPeriod: 0 });
    clients.push(client);
    return client;
  };

  it('keeps a session while its device is away, and drops it with its queued messages once the device stays away longer', async () => {
    const device = await connect();
    await device.subscribeAsync(COMMANDS, { qos: 1 });
    await device.endAsync();
    // A command sent while the device is away waits in its session.
    await new Promise<void>((resolve, reject) =>
      broker().aedes.publish({ cmd: 'publish', topic: COMMANDS, payload: Buffer.from('{"cmd":"reset"}'), qos: 1, retain: false, dup: false }, (error) => (error ? reject(error) : resolve())),
    );
    expect(await queued()).toBe(1);
    expect(await sessions().subscriptionsByClient({ id: CODE })).toHaveLength(1);

    await until(async () => (await sessions().subscriptionsByClient({ id: CODE })).length === 0 && (await queued()) === 0, 5000, 'the session dropped');
    // Back, the device is told it has no session (and subscribes again, as a device must then).
    const back = await connect();
    expect((back as unknown as { connackPacket?: { sessionPresent: boolean } }).connackPacket?.sessionPresent).toBe(false);
  });
});
