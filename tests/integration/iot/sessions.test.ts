import type { Socket } from 'node:net';
import type { Aedes } from 'aedes';
import type { MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loggedErrors, takeLoggedErrors } from '../../support/failures';
import type { PresenceChange } from '../../../server/ingest/types';
import { brokerClients } from '../../support/mqtt';
import { startServer, type TestServer } from '../../support/server';
import { until } from '../../support/wait';
import { figure, scrape } from '../ops/support';

const EXPIRY_MS = 1000;
const commands = (code: string) => `vigil/100001/device/${code}/command`;

/** The part of the broker's persistence that holds a session (server/ingest/broker.ts). */
interface Sessions {
  subscriptionsByClient(client: { id: string }): Promise<unknown[]>;
  outgoingStream(client: { id: string }): AsyncIterable<unknown>;
  /** Added by patches/aedes-persistence+11.0.0.patch. */
  outgoingEmpty(client: { id: string }): boolean;
}

/**
 * Persistent sessions of the embedded broker expire (docs/mqtt.md "Connections"): a device gone longer than
 * MQTT_SESSION_EXPIRY loses its subscriptions and the messages queued for it. Sessions live in the broker's memory, not
 * in the store, so one store is enough. The first test waits for the broker's own sweep; the others move its clock.
 */
describe('persistent sessions of the embedded broker', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite', { mqttSessionExpiryMs: EXPIRY_MS });
  });
  afterAll(async () => {
    await server?.stop();
  });
  const { connect, open } = brokerClients(() => server.app.broker?.port);

  const broker = () => {
    const found = server.app.broker;
    if (!found) throw new Error('no embedded broker');
    return found;
  };
  afterEach(() => {
    broker().sessions.now = Date.now;
  });
  const store = () => (broker().aedes as unknown as { persistence: Sessions }).persistence;
  const queued = async (code: string) => {
    let count = 0;
    for await (const _ of store().outgoingStream({ id: code })) count += 1;
    return count;
  };
  const subscriptions = async (code: string) => (await store().subscriptionsByClient({ id: code })).length;
  /** The session of `code` as the broker holds it: subscriptions and queued messages. */
  const session = async (code: string) => [await subscriptions(code), await queued(code)];
  const away = async () => figure((await scrape(server.url, server.app.platform.config.metricsToken)).text, 'vigil_mqtt_sessions_away');
  const persistent = (code: string) => connect(code, undefined, { clean: false });
  const sessionPresent = (client: MqttClient) => (client as unknown as { connackPacket?: { sessionPresent: boolean } }).connackPacket?.sessionPresent;
  /** A command sent while the device is away waits in its session. */
  const command = (code: string) =>
    new Promise<void>((resolve, reject) =>
      broker().aedes.publish({ cmd: 'publish', topic: commands(code), payload: Buffer.from('{"cmd":"reset"}'), qos: 1, retain: false, dup: false }, (error) => (error ? reject(error) : resolve())),
    );
  /** Subscribes to its commands and goes away; resolves once the broker counts the session as away. */
  const subscribeAndLeave = async (device: MqttClient, code: string, awayAfter: number) => {
    await device.subscribeAsync(commands(code), { qos: 1 });
    await device.endAsync();
    await until(() => broker().sessions.away === awayAfter, 5000, `${code} away`);
  };
  let clock = 0;
  /** From here on the broker's session clock moves only when the test moves it. */
  const holdClock = () => {
    clock = Date.now();
    broker().sessions.now = () => clock;
  };
  /** The session of `code`, away since the clock's time, is kept a millisecond short of the expiry and dropped at it. */
  const expiresExactly = async (code: string) => {
    clock += EXPIRY_MS - 1;
    await broker().sessions.sweep();
    expect(await subscriptions(code)).toBe(1);
    clock += 1;
    await broker().sessions.sweep();
    expect(await subscriptions(code)).toBe(0);
  };

  it('keeps a session while its device is away, and drops it with its queued messages once the device stays away longer', async () => {
    const code = 'QJ-CRACK-01';
    await subscribeAndLeave(await persistent(code), code, 1);
    await command(code);
    expect(await session(code)).toEqual([1, 1]);

    await until(async () => (await subscriptions(code)) === 0 && (await queued(code)) === 0, 5000, 'the session dropped');
    // Back, the device is told it has no session (and subscribes again, as a device must then).
    expect(sessionPresent(await persistent(code))).toBe(false);
  });

  it('drops a session when its device has been away exactly MQTT_SESSION_EXPIRY, not a millisecond before', async () => {
    const code = 'QJ-CRACK-02';
    holdClock();
    await subscribeAndLeave(await persistent(code), code, 1);
    await command(code);
    expect(await away()).toBe(1);

    await expiresExactly(code);
    // The queued command went with it.
    expect(await session(code)).toEqual([0, 0]);
    expect(await away()).toBe(0);
  });

  it('keeps the session of a device back before the expiry, and times its next absence from when it goes again', async () => {
    const code = 'QJ-TILT-01';
    holdClock();
    await subscribeAndLeave(await persistent(code), code, 1);
    await command(code);

    clock += EXPIRY_MS - 1;
    const back = await persistent(code);
    expect(sessionPresent(back)).toBe(true);
    await until(() => broker().sessions.away === 0, 5000, 'back');
    // Connected, its session stays however long ago it first went.
    clock += EXPIRY_MS;
    await broker().sessions.sweep();
    expect(await subscriptions(code)).toBe(1);

    await back.endAsync();
    await until(() => broker().sessions.away === 1, 5000, 'away again');
    await expiresExactly(code);
  });

  it('logs a sweep the session store fails, and drops the session at the next sweep', async () => {
    const code = 'QJ-HLS-01';
    await subscribeAndLeave(await persistent(code), code, 1);
    // The broker's in-memory persistence made to fail once, as a shared one (Redis, a database) can.
    const persistence = store() as Sessions & { cleanSubscriptions: (client: { id: string }) => Promise<void> };
    const clean = persistence.cleanSubscriptions;
    let failures = 0;
    persistence.cleanSubscriptions = async function (this: unknown, client) {
      if (failures++ === 0) throw new Error('persistence unavailable');
      return clean.call(this, client);
    };
    try {
      await until(async () => (await loggedErrors(server, 'ingest')).length > 0, 5000, 'the failed sweep logged');
      expect(await takeLoggedErrors(server, 'ingest')).toEqual(['session expiry: persistence unavailable']);
      // The broker's own sweep, a second later, drops it.
      await until(async () => (await subscriptions(code)) === 0 && broker().sessions.away === 0, 5000, 'the session dropped');
    } finally {
      persistence.cleanSubscriptions = clean;
    }
  });

  it('delivers what was queued to a device back with its session, and drops it for one back with a clean session', async () => {
    // Both paths of the broker's CONNECT with something queued (patches/README.md: with nothing queued it skips them).
    const [kept, dropped] = ['QJ-HLS-02', 'QJ-RAIN-01'];
    holdClock();
    for (const [i, code] of [kept, dropped].entries()) {
      await subscribeAndLeave(await persistent(code), code, i + 1);
      await command(code);
      expect(await queued(code)).toBe(1);
      expect(store().outgoingEmpty({ id: code })).toBe(false);
    }

    // Listening before its CONNACK: the queued command follows it at once.
    const back = open(kept, undefined, { clean: false });
    const delivered = new Promise<string>((resolve) => back.once('message', (topic) => resolve(topic)));
    expect(await delivered).toBe(commands(kept));
    await until(async () => (await queued(kept)) === 0, 5000, 'the delivered command acknowledged');

    await connect(dropped);
    await until(async () => (await queued(dropped)) === 0, 5000, 'the queue of a clean session emptied');
    expect(store().outgoingEmpty({ id: dropped })).toBe(true);
  });

  it('keeps nothing for a device that connected with a clean session', async () => {
    const code = 'QJ-TILT-02';
    const device = await connect(code);
    await device.subscribeAsync(commands(code), { qos: 1 });
    await device.endAsync();
    await until(() => !(code in (broker().aedes as unknown as { clients: Record<string, unknown> }).clients), 5000, 'gone');
    expect(broker().sessions.away).toBe(0);
    expect(await subscriptions(code)).toBe(0);
  });

  it('keeps a device back while its old connection is still closing as the connected one, and takes it offline when it goes', async () => {
    const code = 'QJ-TH-01';
    const aedes = broker().aedes as unknown as Aedes & { clients: Record<string, unknown> };
    const presence: PresenceChange[] = [];
    server.app.platform.events.on('presence', (change) => presence.push(change));
    const old = await connect(code);
    await old.subscribeAsync(commands(code), { qos: 1 });
    await until(() => presence.length > 0, 5000, 'online');
    expect(presence.splice(0)).toEqual([expect.objectContaining({ code, online: true })]);

    // The old connection's close waits on the removal of its subscription: the device's new CONNECT comes in meanwhile.
    const unsubscribe = aedes.unsubscribe;
    let release = () => {};
    const closing = new Promise<void>((reached) => {
      aedes.unsubscribe = (topic, func, done) => {
        reached();
        new Promise<void>((resolve) => {
          release = resolve;
        }).then(() => unsubscribe.call(aedes, topic, func, done));
      };
    });
    (old.stream as Socket).destroy();
    await closing;
    const back = await connect(code);
    const oldGone = new Promise<void>((resolve) => aedes.once('clientDisconnect', () => resolve()));
    aedes.unsubscribe = unsubscribe;
    release();
    await oldGone;

    // The old connection's end neither unlisted the new one nor took the device offline.
    expect(aedes.clients[code]).toBeDefined();
    await back.endAsync();
    await until(() => presence.length > 0, 5000, 'a change of presence');
    expect(presence).toEqual([expect.objectContaining({ code, online: false, reason: 'disconnect' })]);
  });
});
