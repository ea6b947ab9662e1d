import { randomBytes } from 'node:crypto';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server';
import { expectEvery } from '../../support/lists';

/**
 * MQTT_URL: the platform reads device data from an external broker (Mosquitto runs on this project's machines; the
 * suite is skipped with a message where it does not). Processes of one deployment share the subscription.
 */
const EXTERNAL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

/** A broker this suite can use: it lets an anonymous client in and grants a shared subscription. */
const reachable = await (async () => {
  try {
    const client = await mqtt.connectAsync(EXTERNAL, { connectTimeout: 2000, reconnectPeriod: 0 });
    const granted = await client.subscribeAsync('$share/vigil-probe/vigil-probe/#', { qos: 1 });
    await client.endAsync();
    if (granted[0]?.qos === 1) return true;
  } catch {
    // refused or unreachable: skipped below
  }
  console.warn(`No usable MQTT broker at ${EXTERNAL} (anonymous, shared subscriptions): the external-broker suite is skipped.`);
  return false;
})();

describe.skipIf(!reachable)('an external broker (MQTT_URL)', () => {
  const group = `vigil-test-${randomBytes(4).toString('hex')}`;
  const servers: TestServer[] = [];
  let device: mqtt.MqttClient;

  beforeAll(async () => {
    for (const name of ['a', 'b']) servers.push(await startServer('sqlite', { mqttUrl: EXTERNAL, mqttClientId: `${group}-${name}`, mqttShareGroup: group }));
    device = await mqtt.connectAsync(EXTERNAL, { clientId: `${group}-device`, reconnectPeriod: 0 });
  });
  afterAll(async () => {
    await device?.endAsync();
    await Promise.all(servers.map((s) => s.stop()));
    // The platform keeps a persistent session (clean: false); a clean connection under its id ends it on the broker.
    for (const name of ['a', 'b']) await (await mqtt.connectAsync(EXTERNAL, { clientId: `${group}-${name}-ingest`, clean: true, reconnectPeriod: 0 })).endAsync();
  });

  const storedIn = async (server: TestServer, from: number) =>
    Number((await server.app.platform.db.selectFrom('wit_device_log').select((eb) => eb.fn.countAll().as('n')).where('ts', '>=', from).executeTakeFirstOrThrow()).n);

  it('stores what devices publish there, each message once across the processes that share the subscription', async () => {
    const from = Date.UTC(2026, 6, 1);
    const messages = 40;
    for (let i = 0; i < messages; i += 1) {
      await device.publishAsync('vigil/100001/device/QJ-TH-01/data', JSON.stringify({ ts: from + i * 60_000, values: { humidity: 50 + i, temperature: 20 } }), { qos: 1 });
    }
    const deadline = Date.now() + 10_000;
    let counts: number[] = [];
    while (Date.now() < deadline) {
      counts = await Promise.all(servers.map((s) => storedIn(s, from)));
      if (counts[0] + counts[1] >= messages * 2) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Two values per message; every message went to exactly one of the two processes, and both took some.
    expect(counts[0] + counts[1]).toBe(messages * 2);
    expectEvery(counts, (n) => n > 0);
    const [server] = servers.filter((_, i) => counts[i] > 0);
    const raw = await server.app.platform.db.selectFrom('wit_collect_data').select(['topic', 'readings']).where('topic', '=', 'vigil/100001/device/QJ-TH-01/data').execute();
    expect(raw.length).toBeGreaterThan(0);
    expectEvery(raw, (r) => Number(r.readings) === 2);
  });
});
