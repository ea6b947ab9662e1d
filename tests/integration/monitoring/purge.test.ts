import mqtt from 'mqtt';
import { beforeAll, describe, expect, it } from 'vitest';
import { TARGET_TYPE } from '../../../resources/iot/alarm';
import type { Db } from '../../../server/db/database';
import { DEFAULT_INIT_PASSWORD } from '../../../server/db/seed';
// Helpers below name their tables at run time (introspection, lists): they use the untyped view.
import { loose } from '../../../server/db/tables';
import { nextId } from '../../../server/ids';
import { type ApiClient, signedIn } from '../../support/client';
import { expectOk, type PageData, postParams, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { BRIDGE, deviceOf, GATEWAY } from '../data/support';
import { DEMO, demoId, submit, X } from './support';

/**
 * Purging a project from the recycle bin and purging a tenant (docs/data-model.md "Projects", "Purging"). A purge
 * leaves no row behind that names the project, its devices, gateways, monitor points or what hangs off them, in any
 * table and whatever tenant the row is tagged with: the completeness check walks every table of the schema. A tenant
 * purge deletes the history of the devices the tenant owns — also of devices moved in from another tenant — and
 * leaves the history of devices moved away, which now belongs to their new tenant.
 */

const HOUR = 3_600_000;
/** A closed, whole hour well in the past: the backlog's hours are rolled up at once. */
const T0 = Math.floor((Date.now() - 30 * 24 * HOUR) / HOUR) * HOUR;
/** More points than one chunk of a purge (server/series/purge.ts). */
const BACKLOG = 12_000;

/** Columns that name something of a project, and (test-side) how to find the ids a project owns. */
const REFERENCES = ['project_id', 'device_id', 'gateway_id', 'monitor_point_id', 'point_id', 'alarm_id', 'strategy_id', 'tenant_project_id', 'threshold_id', 'group_id'] as const;
type Reference = (typeof REFERENCES)[number];
/** Columns that name a broker identity, only in these tables (elsewhere `client_id` is a push target's own). */
const IDENTITY_COLUMNS: Record<string, string> = { wit_mqtt_user: 'client_id', wit_mqtt_acl: 'username' };

const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** Every id a project owns, by the column that names it. */
async function idsOf(db: Db, projectId: string): Promise<Record<Reference, string[]>> {
  const ids = async (table: string, column: string, values: string[]) =>
    values.length ? (await loose(db).selectFrom(table).select('id').where(camel(column), 'in', values).execute()).map((r) => String(r.id)) : [];
  const byProject = (table: string) => ids(table, 'project_id', [projectId]);
  const devices = await byProject('wit_device');
  const monitorPoints = await byProject('wit_monitor_point');
  const unite = async (table: string, ...names: Array<[string, string[]]>) => [...new Set((await Promise.all(names.map(([c, v]) => ids(table, c, v)))).flat())];
  return {
    project_id: [projectId],
    device_id: devices,
    gateway_id: await byProject('wit_gateway'),
    monitor_point_id: monitorPoints,
    point_id: await ids('wit_device_point', 'device_id', devices),
    alarm_id: await unite('wit_alarm', ['project_id', [projectId]], ['device_id', devices]),
    strategy_id: await byProject('wit_collect_strategy'),
    tenant_project_id: await byProject('wit_tenant_project'),
    threshold_id: await unite('wit_device_threshold', ['project_id', [projectId]], ['device_id', devices], ['monitor_point_id', monitorPoints]),
    group_id: await byProject('wit_device_group'),
  };
}

interface Table {
  name: string;
  columns: Array<{ name: string; dataType: string; isNullable: boolean; hasDefaultValue: boolean }>;
}

async function tablesOf(db: Db): Promise<Table[]> {
  return (await db.introspection.getTables()).filter((t) => !t.isView);
}

let filler = 0;

/** A row of `table` with `values` and every other required column filled with something of its type (unique text). */
function rowOf(table: Table, values: Record<string, unknown>): Row {
  const row: Record<string, unknown> = {};
  for (const c of table.columns) {
    if (c.name === 'id') row.id = nextId(); // SQLite reports a text primary key as nullable
    else if (!c.isNullable && !c.hasDefaultValue) row[camel(c.name)] = /int|double|float|real|numeric|serial/i.test(c.dataType) ? 1 : `f${++filler}`;
  }
  return { ...row, ...values } as Row;
}

/** How many rows of each (table, column) name one of the ids. */
async function referencing(db: Db, ids: Record<Reference, string[]>, names: { codes: string[]; usernames: string[] }): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of await tablesOf(db)) {
    const checks: Array<[string, string[]]> = table.columns.filter((c) => (REFERENCES as readonly string[]).includes(c.name)).map((c) => [c.name, ids[c.name as Reference]]);
    const identity = IDENTITY_COLUMNS[table.name];
    if (identity) checks.push([identity, identity === 'client_id' ? names.codes : names.usernames]);
    for (const [column, values] of checks) {
      if (values.length === 0) continue;
      const [{ n }] = (await loose(db).selectFrom(table.name).select((eb) => eb.fn.countAll<number>().as('n')).where(camel(column), 'in', values).execute()) as Array<{ n: number }>;
      out[`${table.name}.${column}`] = Number(n);
    }
  }
  return out;
}

/** Series points of a device, one a minute from `from`. */
async function backlog(db: Db, deviceId: string, count: number, from = T0): Promise<void> {
  const rows = Array.from({ length: count }, (_, i) => ({ deviceId, pointKey: 'crack', ts: from + i * 60_000, value: i % 7, raw: i % 7 }));
  for (let i = 0; i < rows.length; i += 1000) await db.insertInto('wit_device_log').values(rows.slice(i, i + 1000)).execute();
}

const countOf = async (db: Db, table: string, column: string, values: string[]) =>
  Number(((await loose(db).selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where(column, 'in', values).execute()) as Array<{ n: number }>)[0].n);

onEveryStore('purging projects and tenants', { signIn: ['admin', 'demo'] }, (ctx) => {
  let db: Db;

  beforeAll(async () => {
    db = ctx.server.app.platform.db;
  });

  it('purges a project from the recycle bin with every row, in any table, that names it or what it owns', async () => {
    const project = await submit(ctx.demo, 'project', { name: '待彻底删除边坡', code: 'PURGE-SLOPE', structureType: 3 });
    const gateway = await submit(ctx.demo, 'gateway', { code: 'PG-GW-01', name: '边坡网关', projectId: project.id });
    const group = expectOk(await ctx.demo.post<Row>(`${X}/device/updateDeviceGroup`, { projectId: project.id, name: '坡顶' }));
    const device = await submit(ctx.demo, 'device', { code: 'PG-CRACK-01', name: '边坡裂缝计', projectId: project.id, gatewayId: gateway.id, groupId: group.id });
    const point = await submit(ctx.demo, 'devicepoint', { deviceId: device.id, pointKey: 'crack', name: '裂缝', unit: 'mm' });
    await submit(ctx.demo, 'devicepointatt', { pointId: point.id, attrKey: 'k', attrValue: '1.5' });
    const monitorPoint = await submit(ctx.demo, 'monitorpoint', { projectId: project.id, name: '裂缝测点', code: 'PG-MP-1' });
    await submit(ctx.demo, 'pointrelationdevice', { monitorPointId: monitorPoint.id, deviceId: device.id, pointKey: 'crack' });
    await submit(ctx.demo, 'mqttuser', { username: 'pg-crack-01', password: 'Device#Purge2026', clientType: 1, clientId: 'PG-CRACK-01' });
    await submit(ctx.demo, 'mqttacl', { username: 'pg-crack-01', topic: 'vigil/%t/device/%c/debug', action: 2, allow: 1 });
    await submit(ctx.demo, 'devicethreshold', { targetType: TARGET_TYPE.devicePoint, deviceId: device.id, pointKey: 'crack', level1Upper: 10, level2Upper: 5, level3Upper: 3, level4Upper: 2 });
    await submit(ctx.demo, 'collectstrategy', { name: '边坡采集', projectId: project.id, deviceIds: device.id, intervalSeconds: 600, command: { command: 'collect' }, enabled: 0 });
    await submit(ctx.demo, 'datacomparison', { projectId: project.id, name: '边坡对比', batchNumber: '2026-第1期', items: [{ deviceId: device.id, pointKey: 'crack' }] });

    // A reading over MQTT: the raw message, the series and an alarm with its log.
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${ctx.server.app.broker?.port}`, { clientId: 'PG-CRACK-01', username: 'pg-crack-01', password: 'Device#Purge2026', reconnectPeriod: 0 });
    const ts = Date.now() - 60_000;
    await client.publishAsync(`vigil/${DEMO}/device/PG-CRACK-01/data`, JSON.stringify({ ts, values: { crack: 2.5 } }), { qos: 1 });
    await client.endAsync(true);
    await until(async () => (await countOf(db, 'wit_alarm', 'deviceId', [device.id])) > 0, 5000, 'the alarm');
    await ctx.server.app.alarms.engine.idle();
    // A correction over HTTP (audited), and a backlog of history with its rollups.
    expectOk(await ctx.demo.post(`${X}/devicelog/submit`, { deviceId: device.id, pointKey: 'crack', ts: ts - 1000, value: 1.5, reason: '补录' }));
    await backlog(db, device.id, BACKLOG);
    await ctx.server.app.ingest.rollups.settle();
    // Pushed to a target of the tenant, with a mapping of the device (nothing is sent: no reading arrives after this).
    const target = await submit(ctx.demo, 'mqttparam', { name: '业主平台', pushType: 2, url: 'http://127.0.0.1:9/push' });
    expectOk(await ctx.demo.post(`${X}/tenantproject/setTenantProject`, { mqttParamId: target.id, projectIds: [project.id] }));
    await submit(ctx.demo, 'subtable', { mqttParamId: target.id, deviceId: device.id, targetDevice: 'OWNER-CRACK' });

    // The roller would recompute (and so delete) a planted claim before it is counted: it waits until then.
    await ctx.server.app.ingest.rollups.stop();
    // Every other table that can name the project gets a row naming it (tagged with another tenant: a purge goes by
    // what a row names, not by its tag), and a row naming the bridge, which must stay.
    const ids = await idsOf(db, project.id);
    const bystander: Record<Reference, string> = {
      project_id: BRIDGE, device_id: deviceOf('QJ-TILT-01'), gateway_id: GATEWAY, monitor_point_id: nextId(), point_id: nextId(), alarm_id: nextId(),
      strategy_id: nextId(), tenant_project_id: nextId(), threshold_id: nextId(), group_id: demoId('group:main'),
    };
    const planted: Array<{ table: string; row: Row }> = [];
    expect(Object.entries(ids).filter(([, values]) => values.length === 0)).toEqual([]);
    for (const table of await tablesOf(db)) {
      for (const column of table.columns.map((c) => c.name).filter((c): c is Reference => (REFERENCES as readonly string[]).includes(c))) {
        if ((await countOf(db, table.name, camel(column), ids[column])) > 0) continue;
        await loose(db).insertInto(table.name).values(rowOf(table, { [camel(column)]: ids[column][0], ...(table.columns.some((c) => c.name === 'tenant_id') ? { tenantId: '000000' } : {}) })).execute();
        const row = rowOf(table, { [camel(column)]: bystander[column], ...(table.columns.some((c) => c.name === 'tenant_id') ? { tenantId: DEMO } : {}) });
        await loose(db).insertInto(table.name).values(row).execute();
        planted.push({ table: table.name, row });
      }
    }
    expect(planted.map((p) => p.table)).toEqual(expect.arrayContaining(['wit_gateway_state', 'wit_device_push_log', 'wit_collect_calculation_log', 'wit_job_info', 'wit_api_send_log', 'wit_alarm_send_log', 'wit_third_device']));
    const names = { codes: ['PG-GW-01', 'PG-CRACK-01'], usernames: ['pg-crack-01'] };
    const before = await referencing(db, ids, names);
    expect(before['wit_device_log.device_id']).toBe(BACKLOG + 2);
    expect(before['wit_device_log_rollup.device_id']).toBeGreaterThan(0);
    expect(before['wit_collect_data.device_id']).toBe(1);
    expect(before['wit_alarm_log.alarm_id']).toBeGreaterThan(0);
    expect(before['wit_mqtt_acl.username']).toBe(1);
    expect(Object.entries(before).filter(([, n]) => n === 0).map(([k]) => k)).toEqual([]);
    ctx.server.app.ingest.rollups.start();

    expectOk(await postParams(ctx.demo, `${X}/project/remove`, { ids: project.id }));
    expectOk(await ctx.demo.get(`${X}/project/deleteProjectById`, { id: project.id }));
    // What names the bridge is untouched.
    for (const { table, row } of planted) {
      // Marks (no id) are the roller's, which may have dropped the bridge's already.
      if (row.id === undefined) continue;
      expect(await countOf(db, table, 'id', [row.id]), `${table} of the bridge`).toBe(1);
    }
    // Marks of deleted hours are the roller's to drop; once it has run, nothing of the project is left anywhere.
    await ctx.server.app.ingest.rollups.settle();
    const after = await referencing(db, ids, names);
    expect(Object.fromEntries(Object.entries(after).filter(([, n]) => n > 0))).toEqual({});
    expect(await countOf(db, 'wit_project', 'id', [project.id])).toBe(0);
    expect(await countOf(db, 'wit_device', 'id', [deviceOf('QJ-TILT-01')])).toBe(1);
  });

  describe('devices moved between tenants', () => {
    /** The old tenant, and the tenants two of its projects moved to. */
    const tenants = { from: '', toA: '', toB: '' };
    const devices: Record<'movedA' | 'movedB' | 'stayed', Row> = {} as never;
    const admins: Record<'from' | 'toA', ApiClient> = {} as never;
    const POINTS = 3000;

    const historyTotal = async (api: ApiClient, deviceId: string) => expectOk(await api.get<PageData>(`${X}/devicelog/list`, { deviceId, size: 1 })).total;
    const chartCount = async (api: ApiClient, deviceId: string) => {
      const chart = expectOk(await api.get<{ series: Array<{ pointKey: string; count: number }> }>(`${X}/devicelog/getHistoryEchartsData`, { deviceId, pointKey: 'crack', startTime: T0, endTime: T0 + POINTS * 60_000, width: 50 }));
      return chart.series.find((s) => s.pointKey === 'crack')?.count ?? 0;
    };
    const newTenant = async (tenantName: string) => expectOk(await ctx.admin.post<{ tenantId: string }>('/api/blade-system/tenant/submit', { tenantName })).tenantId;
    const purgeTenant = async (tenantId: string) => {
      const row = await db.selectFrom('blade_tenant').select('id').where('tenantId', '=', tenantId).executeTakeFirstOrThrow();
      expectOk(await postParams(ctx.admin, '/api/blade-system/tenant/remove', { ids: String(row.id) }));
      expectOk(await ctx.admin.get('/api/blade-system/tenant/deleteTenantById', { tenantId }));
      await ctx.server.app.ingest.rollups.settle();
    };
    /** Rows of the device's series, its rollups and its marks. */
    const seriesOf = async (deviceId: string) => {
      const out: Record<string, number> = {};
      for (const table of ['wit_device_log', 'wit_device_log_rollup', 'wit_device_log_dirty', 'wit_device_log_rolling']) out[table] = await countOf(db, table, 'deviceId', [deviceId]);
      return out;
    };
    const none = { wit_device_log: 0, wit_device_log_rollup: 0, wit_device_log_dirty: 0, wit_device_log_rolling: 0 };

    it('shows the history of a moved device in its new tenant', async () => {
      tenants.from = await newTenant('迁出业主');
      tenants.toA = await newTenant('迁入业主甲');
      tenants.toB = await newTenant('迁入业主乙');
      admins.from = await signedIn(ctx.server.url, 'admin', DEFAULT_INIT_PASSWORD, tenants.from);
      const projects: Record<keyof typeof devices, Row> = {} as never;
      for (const key of ['movedA', 'movedB', 'stayed'] as const) {
        projects[key] = await submit(admins.from, 'project', { name: `隧道 ${key}`, code: `TUN-${key}`, structureType: 2 });
        devices[key] = await submit(admins.from, 'device', { code: `TUN-${key}-01`, name: `收敛计 ${key}`, projectId: projects[key].id });
        await submit(admins.from, 'devicepoint', { deviceId: devices[key].id, pointKey: 'crack', name: '收敛', unit: 'mm' });
        await backlog(db, devices[key].id, POINTS);
      }
      await ctx.server.app.ingest.rollups.settle();
      expect(await historyTotal(admins.from, devices.movedA.id)).toBe(POINTS);

      expectOk(await postParams(ctx.admin, `${X}/project/adjustTenant`, { ids: projects.movedA.id, tenantId: tenants.toA }));
      expectOk(await postParams(ctx.admin, `${X}/project/adjustTenant`, { ids: projects.movedB.id, tenantId: tenants.toB }));
      admins.toA = await signedIn(ctx.server.url, 'admin', DEFAULT_INIT_PASSWORD, tenants.toA);
      expect(await historyTotal(admins.toA, devices.movedA.id)).toBe(POINTS);
      expect(await chartCount(admins.toA, devices.movedA.id)).toBe(POINTS);
    });

    it('deletes the history of devices moved in when the new tenant is purged', async () => {
      await purgeTenant(tenants.toB);
      expect(await countOf(db, 'wit_device', 'id', [devices.movedB.id])).toBe(0);
      expect(await seriesOf(devices.movedB.id)).toEqual(none);
      // The old tenant's other devices and the other moved one keep theirs.
      expect(await historyTotal(admins.from, devices.stayed.id)).toBe(POINTS);
      expect(await historyTotal(admins.toA, devices.movedA.id)).toBe(POINTS);
    });

    it('keeps the history of devices moved away when the old tenant is purged, and deletes that of its own', async () => {
      await purgeTenant(tenants.from);
      expect(await historyTotal(admins.toA, devices.movedA.id)).toBe(POINTS);
      expect(await chartCount(admins.toA, devices.movedA.id)).toBe(POINTS);
      expect((await seriesOf(devices.movedA.id)).wit_device_log_rollup).toBeGreaterThan(0);
      expect(await seriesOf(devices.stayed.id)).toEqual(none);
    });
  });
});
