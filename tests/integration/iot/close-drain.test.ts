import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerClients } from '../../support/mqtt';
import { startServer, type TestServer } from '../../support/server';
import { until } from '../../support/wait';
import { demoId } from '../monitoring/support';

/**
 * The embedded broker's close (server/ingest/broker.ts, docs/mqtt.md): data in flight when it begins is committed and
 * acknowledged before the connections go (a batch that commits after another's included), and data sent after it
 * began is refused unacknowledged, for the device to send again to the process it reconnects to — nothing stored
 * twice, nothing lost. SQLite: the test holds the write lock, so the commit of a reading is seen waiting (its turn
 * queued) while the close begins. Other writers may queue for the lock meanwhile (the periodic jobs' claims every few
 * seconds): the test watches the series writer, not the lock's queue, and nothing the readings need on their way to
 * it may wait for the lock — the lookups of their devices and ACL rules are cached by a first reading each.
 */
describe('data in flight while the embedded broker closes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite');
  });
  afterAll(() => server?.stop());
  const { connect } = brokerClients(() => server.app.broker?.port);
  const stored = (code: string, ts: number) =>
    server.app.platform.db.selectFrom('wit_device_log').select('value').where('deviceId', '=', demoId(`device:${code}`)).where('ts', '=', ts).execute();
  /** Resolves with the acknowledgement, or fails as soon as the connection is gone without it. */
  const acknowledged = (client: MqttClient, publishing: Promise<unknown>) =>
    Promise.race([publishing, new Promise((_, reject) => client.once('close', () => reject(new Error('connection closed before the acknowledgement'))))]);

  it('acknowledges the readings in flight before closing their connections, and refuses one sent once the close began', async () => {
    const { native } = server.app.platform;
    if (native.dialect !== 'sqlite') throw new Error('a SQLite server');
    const broker = server.app.broker;
    if (!broker) throw new Error('no embedded broker');
    const [early, next, late] = [await connect('QJ-TH-01'), await connect('QJ-CRACK-01'), await connect('QJ-RAIN-01')];
    // A first reading each, stored, and their latest values written back: the writer idle, the lookups cached.
    const ts = Date.now() - 1000;
    const warmUps: [MqttClient, string, string][] = [[early, 'QJ-TH-01', 'humidity'], [next, 'QJ-CRACK-01', 'crack'], [late, 'QJ-RAIN-01', 'rainfall']];
    await Promise.all(warmUps.map(([client, code, key]) => client.publishAsync(`vigil/100001/device/${code}/data`, JSON.stringify({ ts: ts - 1000, values: { [key]: 1 } }), { qos: 1 })));
    await server.app.ingest.latest.persist();
    const { writer } = server.app.ingest;
    await native.writeLock.acquire();
    let inFlight: Promise<unknown>[];
    let closed: Promise<void>;
    try {
      const first = acknowledged(early, early.publishAsync('vigil/100001/device/QJ-TH-01/data', JSON.stringify({ ts, values: { humidity: 61 } }), { qos: 1 }));
      // Its batch committing, waiting for the lock: in flight.
      await until(() => writer.committing === 1, 10_000, 'the reading to wait for its commit');
      // Another reading waits for the next batch, to commit after the first: the close waits for both.
      const second = acknowledged(next, next.publishAsync('vigil/100001/device/QJ-CRACK-01/data', JSON.stringify({ ts, values: { crack: 0.2 } }), { qos: 1 }));
      await until(() => writer.committing === 1 && writer.depth === 2, 10_000, 'the second reading to wait for the next batch');
      inFlight = [first, second];
      // A bound past the test's time: the close must end when the commit does, not at its bound.
      closed = broker.close(120_000);
      const refused = new Promise<void>((resolve) => late.once('close', () => resolve()));
      late.publish('vigil/100001/device/QJ-RAIN-01/data', JSON.stringify({ ts, values: { rainfall: 3 } }), { qos: 1 });
      await refused;
    } finally {
      native.writeLock.release();
    }
    await Promise.all(inFlight);
    await closed;
    expect(await stored('QJ-TH-01', ts)).toEqual([{ value: 61 }]);
    expect(await stored('QJ-CRACK-01', ts)).toHaveLength(1);
    expect(await stored('QJ-RAIN-01', ts)).toEqual([]);
  });
});
