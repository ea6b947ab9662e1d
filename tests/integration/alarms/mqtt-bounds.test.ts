import { afterAll, beforeAll, expect, it } from 'vitest';
import type { StoredReading } from '../../../server/ingest/types';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { connectAs, deviceOf, type FakeDevice } from '../data/support';
import { submit } from '../monitoring/support';

/**
 * Over real MQTT (a demo device on the embedded broker): a lower-bound threshold with its hysteresis band raises,
 * escalates, de-escalates and clears at exactly the values the rule names, and a device publishing on another tenant's
 * topic is refused — nothing of it is stored and no alarm comes of it.
 */

const CODE = 'QJ-TH-01';
const DEVICE = deviceOf(CODE);

onEveryStore('lower bounds and foreign topics over MQTT', { signIn: ['demo'] }, (ctx) => {
  const stored: StoredReading[] = [];
  const devices: FakeDevice[] = [];
  let ts = Date.now() - 3_600_000;

  const connect = async () => {
    const device = await connectAs(ctx.server, 'device', CODE);
    devices.push(device);
    return device;
  };
  /** The level of the channel's open alarm (0: none). */
  const openLevel = async () => {
    const open = await ctx.server.app.platform.db.selectFrom('wit_alarm').select('alarmLevel').where('deviceId', '=', DEVICE).where('pointKey', '=', 'humidity').where('alarmState', '=', 1).executeTakeFirst();
    return open ? Number(open.alarmLevel) : 0;
  };
  /** Publishes a humidity value, waits until it is stored and judged, and returns the open level after it. */
  const publish = async (device: FakeDevice, value: number) => {
    const at = (ts += 1000);
    await device.publish({ ts: at, values: { humidity: value } });
    const reading = await until(() => stored.find((r) => r.deviceCode === CODE && r.ts === at), 5000, `the reading ${value}`);
    expect(reading.value).toBe(value);
    await ctx.server.app.alarms.engine.idle();
    return openLevel();
  };

  beforeAll(async () => {
    ctx.server.app.platform.events.on('readings', (batch) => stored.push(...batch));
    // Below 10 is blue (4), below 5 orange (2); a level is left 1 above its bound.
    await submit(ctx.demo, 'devicethreshold', { targetType: 1, deviceId: DEVICE, pointKey: 'humidity', level2Lower: 5, level4Lower: 10, hysteresis: 1 });
  });
  afterAll(async () => {
    for (const device of devices) await device.close().catch(() => undefined);
  });

  it('raises, escalates, de-escalates and clears at the bounds and the edges of the band', async () => {
    const device = await connect();
    const steps: Array<[value: number, level: number]> = [
      [12, 0],
      [10, 0], // on the bound is not below it
      [9.5, 4],
      [10.5, 4], // inside the band: kept
      [11, 0], // the band's edge: cleared
      [9, 4],
      [4.9, 2],
      [5.5, 2],
      [6, 4], // out of orange's band, still inside blue's
      [10.9, 4],
      [11.2, 0],
    ];
    const levels: Array<[number, number]> = [];
    for (const [value] of steps) levels.push([value, await publish(device, value)]);
    expect(levels).toEqual(steps);
  });

  it("refuses a publish on another tenant's topic: nothing stored, no alarm", async () => {
    const device = await connect();
    let closed = false;
    device.client.once('close', () => {
      closed = true;
    });
    const foreign = (ts += 1000);
    device.client.publish(`vigil/000000/device/${CODE}/data`, JSON.stringify({ ts: foreign, values: { humidity: 0 } }), { qos: 1 });
    await until(() => closed, 5000, 'the broker to drop a client publishing where it may not');
    // A reading on its own topic afterwards is the barrier: once it is judged, the refused one would have been too.
    expect(await publish(await connect(), 12)).toBe(0);
    expect(stored.filter((r) => r.ts === foreign)).toEqual([]);
    const db = ctx.server.app.platform.db;
    expect(await db.selectFrom('wit_device_log').select('ts').where('ts', '=', foreign).execute()).toEqual([]);
    expect(await db.selectFrom('wit_alarm').select('id').where('tenantId', '=', '000000').execute()).toEqual([]);
    expect(await db.selectFrom('wit_alarm').select('id').where('deviceId', '=', DEVICE).where('value', '=', 0).execute()).toEqual([]);
  });
});
