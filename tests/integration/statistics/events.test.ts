import type { MqttClient } from 'mqtt';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { STATS_EVENT, type StatsChanged } from '../../../resources/wire/statistics';
import type { ApiClient } from '../../support/client';
import { expectOk } from '../../support/envelope';
import { expectEvery } from '../../support/lists';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { connectDevice, deviceOf, newTenant, publish, submit, X } from './support';

/**
 * `stats.changed` (docs/statistics.md "Live"), received by real socket.io clients: a tenant's room hears when its
 * devices come and go, its readings are stored and its alarms change — and never of another tenant's.
 */

interface Listener {
  socket: Socket;
  events: StatsChanged[];
  /** Everything named by the events so far. */
  seen(): Set<string>;
}

onEveryStore('stats.changed', { signIn: ['admin', 'demo'] }, (ctx) => {
  const sockets: Socket[] = [];
  const clients: MqttClient[] = [];
  const f = {} as { tenantId: string; admin: ApiClient; device: string };

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await Promise.all(clients.map((c) => c.endAsync(true)));
  });

  const listen = async (api: ApiClient): Promise<Listener> => {
    const socket = connectSocket(ctx.server.url, { auth: { token: api.token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    const events: StatsChanged[] = [];
    socket.on(STATS_EVENT, (e: StatsChanged) => events.push(e));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return { socket, events, seen: () => new Set(events.flatMap((e) => e.what)) };
  };

  beforeAll(async () => {
    const { tenantId, admin } = await newTenant(ctx.server, ctx.admin, '事件业主');
    const project = await submit(admin, 'project', { name: '事件桥', code: 'EV-BRIDGE' });
    const device = await deviceOf(admin, { code: 'EV-TILT-01', name: '事件倾角计', projectId: project.id }, ['tilt_x']);
    await submit(admin, 'devicethreshold', { targetType: 1, deviceId: device.id, pointKey: 'tilt_x', level1Upper: 10, level2Upper: 5, level3Upper: 3, level4Upper: 2 });
    Object.assign(f, { tenantId, admin, device: String(device.id) });
  });

  it("tells the tenant's room of presence, stored readings and alarms, and no other tenant", async () => {
    const tenant = await listen(f.admin);
    const other = await listen(ctx.demo);
    const client = await connectDevice(ctx.server, 'EV-TILT-01');
    clients.push(client);
    await publish(client, f.tenantId, 'EV-TILT-01', Date.now(), { tilt_x: 1 });
    await until(() => tenant.seen().has('presence') && tenant.seen().has('readings'), 10_000, 'presence and readings');
    // A reading past a bound raises an alarm.
    await publish(client, f.tenantId, 'EV-TILT-01', Date.now(), { tilt_x: 12 });
    await until(() => tenant.seen().has('alarms'), 10_000, 'the alarm');
    expectEvery(tenant.events, (e) => e.tenantId === f.tenantId, "the tenant's events");
    // The other tenant's room hears its own change; had it been sent ours, those would have come first on its socket.
    await submit(ctx.demo, 'alarm', { deviceId: await demoDevice(), alarmLevel: 4, content: '另一租户' });
    await until(() => other.events.length > 0, 10_000, "the other tenant's event");
    expect(other.events[0]).toMatchObject({ tenantId: '100001', what: ['alarms'] });
  });

  it('tells of alarms handled by people', async () => {
    const tenant = await listen(f.admin);
    const open = await ctx.server.app.platform.db.selectFrom('wit_alarm').select('id').where('deviceId', '=', f.device).where('alarmState', '=', 1).executeTakeFirstOrThrow();
    const asked = Date.now();
    expectOk(await f.admin.post(`${X}/alarm/batchHandle`, { ids: open.id, handleResult: '已复核' }));
    const event = await until(() => tenant.events.find((e) => e.what.includes('alarms') && e.at >= asked), 10_000, 'the handling');
    expect(event.tenantId).toBe(f.tenantId);
  });

  async function demoDevice(): Promise<string> {
    return String((await ctx.server.app.platform.db.selectFrom('wit_device').select('id').where('code', '=', 'QJ-TH-01').executeTakeFirstOrThrow()).id);
  }
});
