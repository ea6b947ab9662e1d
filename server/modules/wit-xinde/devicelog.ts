import type { FastifyInstance } from 'fastify';
import { type Kysely, type SqlBool, sql, type Transaction } from 'kysely';
import { collectCalculationLog, collectData, CORRECTION, deviceLogUpdateLog, RUN_STATE, viewCollect } from '../../../resources/iot/data';
import { device, devicePoint } from '../../../resources/iot/device';
import type { Row, Schema } from '../../db/database';
import type { CallContext } from '../../db/repository';
import { type Condition, pagingOf } from '../../http/conditions';
import { bodyOf, contextOf, idsOf, paramsOf, text } from '../../http/context';
import { registerCrud } from '../../http/crud';
import { badRequest, invalidParam, ok, pageOf, paramType } from '../../http/envelope';
import { nextId } from '../../ids';
import { engineeringValue } from '../../ingest/calculate';
import { TEMPERATURE_KEY } from '../../ingest/directory';
import type { Platform } from '../../platform';
import { formatDateTime, parseDateTime } from '../../time';
import type { DeviceLink } from './commands';
import { argsOf, eq, idArg, newRow, withNames } from './common';
import { needs } from '../../auth/rights';

/**
 * The time series (devicelog, wit_device_log) and the calls on stored values: lists, manual values and corrections
 * (audited in wit_device_log_update_log), removal, initial values, recalculation from raw readings, and settlement
 * of hydrostatic levelling points (docs/data-model.md "Device data"). A value's id is `<deviceId>.<pointKey>.<ts>`.
 * The series has no tenant or project of its own to trust: every call goes through the device, read with the
 * device repository (tenant and project scope).
 */

const UNPAGED_LIMIT = 10_000;
const MAX_IDS = 1000;
const RECALC_BATCH = 2000;
const SETTLEMENT_LIMIT = 100_000;
const POINT_KEY = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

type Db = Kysely<Schema>;
type Trx = Transaction<Schema>;

/** A value of the series as the API shows it. */
interface LogKey {
  deviceId: string;
  pointKey: string;
  ts: number;
}

export const logId = (k: LogKey) => `${k.deviceId}.${k.pointKey}.${k.ts}`;

/** `<deviceId>.<pointKey>.<ts>`: the key may itself contain dots, the id and the time may not. */
export function parseLogId(id: string): LogKey {
  const match = /^(\d{1,20})\.(.+)\.(\d{1,15})$/.exec(id.trim());
  if (!match || !POINT_KEY.test(match[2])) throw badRequest(`数据编号不正确: ${id}`);
  return { deviceId: match[1], pointKey: match[2], ts: Number(match[3]) };
}

/** Epoch ms from a number (ms, or s below 10^11) or `yyyy-MM-dd HH:mm:ss`. */
function instant(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const raw = String(value).trim();
  if (/^\d+(\.\d+)?$/.test(raw)) {
    const n = Number(raw);
    return Math.round(n < 1e11 ? n * 1000 : n);
  }
  const date = parseDateTime(raw);
  if (!date) throw paramType(name);
  return date.getTime();
}

/** startTime/endTime (dates) or ts_ge/ts_le (epoch ms). A date without a time ends at the end of that day. */
function rangeOf(args: Record<string, unknown>): { from?: number; to?: number } {
  const from = instant(args.ts_ge ?? args.startTime ?? args.startTs, 'startTime');
  let to = instant(args.ts_le ?? args.endTime ?? args.endTs, 'endTime');
  const endText = text(args, 'endTime');
  if (to !== undefined && args.ts_le === undefined && endText && /^\d{4}-\d{2}-\d{2}$/.test(endText)) to += 86_399_999;
  if (from !== undefined && to !== undefined && from > to) throw badRequest('开始时间不能晚于结束时间');
  return { from, to };
}

function finite(value: unknown, message: string): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) throw badRequest(message);
  return n;
}

function present(row: Row, devices: Map<string, Row>): Row {
  const deviceId = String(row.deviceId);
  const ts = Number(row.ts);
  const d = devices.get(deviceId);
  return {
    id: logId({ deviceId, pointKey: String(row.pointKey), ts }),
    deviceId,
    deviceCode: d?.code ?? null,
    deviceName: d?.name ?? null,
    projectId: d?.projectId ?? null,
    tenantId: row.tenantId,
    pointKey: row.pointKey,
    ts,
    time: formatDateTime(new Date(ts)),
    value: Number(row.value),
    raw: Number(row.raw),
  };
}

class DeviceLog {
  constructor(
    private readonly platform: Platform,
    private readonly link: DeviceLink,
  ) {}

  private get db(): Db {
    return this.platform.db;
  }

  /** A device the caller sees (tenant and project scope), by `deviceId` or `deviceCode`. */
  async device(ctx: CallContext, args: Record<string, unknown>, name = 'deviceId'): Promise<Row> {
    const id = idArg(args, name);
    const code = name === 'deviceId' ? text(args, 'deviceCode') : undefined;
    if (!id && !code) throw badRequest('请选择设备');
    const [row] = await this.platform.repo(device).all(ctx, {}, [id ? eq('id', id) : eq('code', code)], 1);
    if (!row) throw badRequest('设备不存在或无权操作');
    return row;
  }

  /** Visible devices by id, for the ids of a list of values. */
  private async devicesById(ctx: CallContext, ids: string[]): Promise<Map<string, Row>> {
    const unique = [...new Set(ids)];
    const out = new Map<string, Row>();
    for (let i = 0; i < unique.length; i += 500) {
      const rows = await this.platform.repo(device).all(ctx, {}, [(eb) => eb('id', 'in', unique.slice(i, i + 500))]);
      for (const row of rows) out.set(String(row.id), row);
    }
    return out;
  }

  /** The conditions of a list: one device, or every visible device (of a project); a key; a time range. */
  private async conditions(ctx: CallContext, args: Record<string, unknown>): Promise<Condition[]> {
    const out: Condition[] = [];
    const projectId = idArg(args, 'projectId');
    if (idArg(args, 'deviceId') || text(args, 'deviceCode')) {
      const row = await this.device(ctx, args);
      if (projectId && row.projectId !== projectId) out.push(() => sql<SqlBool>`1 = 0`);
      out.push(eq('deviceId', String(row.id)));
    } else {
      const visible = (await this.platform.repo(device).query(ctx, {}, projectId ? [eq('projectId', projectId)] : [])).select('id');
      out.push((eb) => eb('deviceId', 'in', visible));
    }
    const pointKey = text(args, 'pointKey');
    if (pointKey) out.push(eq('pointKey', pointKey));
    const { from, to } = rangeOf(args);
    if (from !== undefined) out.push((eb) => eb('ts', '>=', from));
    if (to !== undefined) out.push((eb) => eb('ts', '<=', to));
    return out;
  }

  private async select(ctx: CallContext, args: Record<string, unknown>) {
    let qb = this.db.selectFrom('wit_device_log');
    for (const condition of await this.conditions(ctx, args)) qb = qb.where(condition);
    return qb;
  }

  private async presented(ctx: CallContext, rows: Row[]): Promise<Row[]> {
    const devices = await this.devicesById(ctx, rows.map((r) => String(r.deviceId)));
    return rows.map((r) => present(r, devices));
  }

  /** Newest first. */
  async page(ctx: CallContext, args: Record<string, unknown>) {
    const { current, size } = pagingOf(args);
    const qb = await this.select(ctx, args);
    const [count, rows] = await Promise.all([
      qb.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirst(),
      qb.selectAll().orderBy('ts', 'desc').orderBy('pointKey').limit(size).offset((current - 1) * size).execute(),
    ]);
    return pageOf(await this.presented(ctx, rows), Number((count as { total: number } | undefined)?.total ?? 0), current, size);
  }

  async all(ctx: CallContext, args: Record<string, unknown>): Promise<Row[]> {
    const rows = await (await this.select(ctx, args)).selectAll().orderBy('ts', 'desc').orderBy('pointKey').limit(UNPAGED_LIMIT).execute();
    return this.presented(ctx, rows);
  }

  /** One value, or null when it does not exist or its device is not the caller's. */
  async detail(ctx: CallContext, id: string): Promise<Row | null> {
    const key = parseLogId(id);
    const devices = await this.devicesById(ctx, [key.deviceId]);
    if (!devices.size) return null;
    const row = await this.stored(this.db, key);
    return row ? present(row, devices) : null;
  }

  private stored(db: Db | Trx, k: LogKey): Promise<Row | undefined> {
    return db.selectFrom('wit_device_log').selectAll().where('deviceId', '=', k.deviceId).where('pointKey', '=', k.pointKey).where('ts', '=', k.ts).executeTakeFirst();
  }

  private audit(trx: Trx, ctx: CallContext, d: Row, values: Row): Promise<unknown> {
    const row = newRow(ctx, String(d.tenantId), { deviceId: String(d.id), projectId: d.projectId ?? null, ...values });
    return trx.insertInto('wit_device_log_update_log').values(row).execute();
  }

  /** The value a body names: `id`, or deviceId/deviceCode + pointKey + ts/time. */
  private async target(ctx: CallContext, item: Record<string, unknown>): Promise<{ d: Row; key: LogKey }> {
    if (item.id !== undefined && item.id !== null && item.id !== '') {
      const key = parseLogId(String(item.id));
      return { d: await this.device(ctx, { deviceId: key.deviceId }), key };
    }
    const d = await this.device(ctx, item);
    const pointKey = text(item, 'pointKey');
    if (!pointKey || !POINT_KEY.test(pointKey)) throw badRequest('请输入点位标识');
    const ts = instant(item.ts ?? item.time, 'ts');
    if (ts === undefined) throw badRequest('请输入数据时间');
    return { d, key: { deviceId: String(d.id), pointKey, ts } };
  }

  /** Adds a value, or corrects a stored one; either way audited with the reason. */
  async submit(ctx: CallContext, body: Record<string, unknown>): Promise<Row> {
    const { d, key } = await this.target(ctx, body);
    const value = finite(body.value, '请输入数值');
    const reason = text(body, 'reason') ?? null;
    const existing = await this.stored(this.db, key);
    if (!existing) {
      const point = await this.platform.repo(devicePoint).all(ctx, {}, [eq('deviceId', key.deviceId), eq('pointKey', key.pointKey)], 1);
      if (!point.length) throw badRequest(`该设备没有点位 ${key.pointKey}`);
    }
    const raw = body.raw === undefined || body.raw === null || body.raw === '' ? undefined : finite(body.raw, '原始值应为数字');
    await this.db.transaction().execute(async (trx) => {
      if (existing) {
        await trx.updateTable('wit_device_log').set({ value, ...(raw === undefined ? {} : { raw }) }).where('deviceId', '=', key.deviceId).where('pointKey', '=', key.pointKey).where('ts', '=', key.ts).execute();
        await this.audit(trx, ctx, d, { pointKey: key.pointKey, ts: key.ts, action: CORRECTION.corrected, oldValue: Number(existing.value), newValue: value, reason });
      } else {
        await trx.insertInto('wit_device_log').values({ ...key, value, raw: raw ?? value, tenantId: String(d.tenantId) }).execute();
        await this.audit(trx, ctx, d, { pointKey: key.pointKey, ts: key.ts, action: CORRECTION.added, oldValue: null, newValue: value, reason });
      }
    });
    this.platform.events.emit('changed', 'wit_device_log_update_log');
    return present((await this.stored(this.db, key)) as Row, new Map([[String(d.id), d]]));
  }

  /** Corrections of stored values: all checked first, written and audited in one transaction. */
  async batchUpdate(ctx: CallContext, body: unknown): Promise<{ updated: number }> {
    const object = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
    const list = Array.isArray(body) ? body : Array.isArray(object?.list) ? (object.list as unknown[]) : undefined;
    if (!list || list.length === 0) throw badRequest('请提交要修正的数据');
    if (list.length > MAX_IDS) throw badRequest(`一次最多修正${MAX_IDS}条数据`);
    const common = object ? text(object, 'reason') : undefined;
    const items: Array<{ d: Row; key: LogKey; value: number; old: number; reason: string | null }> = [];
    const seen = new Set<string>();
    for (const [index, entry] of list.entries()) {
      try {
        const item = entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : {};
        const { d, key } = await this.target(ctx, item);
        if (seen.has(logId(key))) throw badRequest('数据重复');
        seen.add(logId(key));
        const value = finite(item.value, '请输入数值');
        const existing = await this.stored(this.db, key);
        if (!existing) throw badRequest('数据不存在');
        items.push({ d, key, value, old: Number(existing.value), reason: text(item, 'reason') ?? common ?? null });
      } catch (error) {
        throw badRequest(`第${index + 1}条: ${(error as Error).message}`);
      }
    }
    await this.db.transaction().execute(async (trx) => {
      for (const { d, key, value, old, reason } of items) {
        await trx.updateTable('wit_device_log').set({ value }).where('deviceId', '=', key.deviceId).where('pointKey', '=', key.pointKey).where('ts', '=', key.ts).execute();
        await this.audit(trx, ctx, d, { pointKey: key.pointKey, ts: key.ts, action: CORRECTION.corrected, oldValue: old, newValue: value, reason });
      }
    });
    this.platform.events.emit('changed', 'wit_device_log_update_log');
    return { updated: items.length };
  }

  /**
   * Removes values by id. BladeX keeps one table per year and names it with `projectId` and `year`; here they
   * narrow the call: when given, every value must be of a device of that project and of that calendar year, or
   * nothing is removed.
   */
  async remove(ctx: CallContext, args: Record<string, unknown>): Promise<number> {
    const keys = idsOf(args).map(parseLogId);
    if (keys.length > MAX_IDS) throw badRequest(`一次最多删除${MAX_IDS}条数据`);
    const projectId = idArg(args, 'projectId');
    const yearText = text(args, 'year');
    if (yearText !== undefined && !/^\d{4}$/.test(yearText)) throw paramType('year');
    const devices = await this.devicesById(ctx, keys.map((k) => k.deviceId));
    const rows: Array<{ d: Row; key: LogKey; old: number }> = [];
    for (const key of keys) {
      const d = devices.get(key.deviceId);
      if (!d) continue;
      if (projectId && d.projectId !== projectId) throw badRequest(`数据不属于该项目: ${logId(key)}`);
      if (yearText && new Date(key.ts).getFullYear() !== Number(yearText)) throw badRequest(`数据不属于 ${yearText} 年: ${logId(key)}`);
      const existing = await this.stored(this.db, key);
      if (existing) rows.push({ d, key, old: Number(existing.value) });
    }
    if (rows.length === 0) throw badRequest('数据不存在或无权操作');
    const reason = text(args, 'reason') ?? null;
    await this.db.transaction().execute(async (trx) => {
      for (const { d, key, old } of rows) {
        await trx.deleteFrom('wit_device_log').where('deviceId', '=', key.deviceId).where('pointKey', '=', key.pointKey).where('ts', '=', key.ts).execute();
        await this.audit(trx, ctx, d, { pointKey: key.pointKey, ts: key.ts, action: CORRECTION.removed, oldValue: old, newValue: null, reason });
      }
    });
    this.platform.events.emit('changed', 'wit_device_log_update_log');
    return rows.length;
  }

  /** Removes a device's values (of one key, in a time range), audited as one row with the count. */
  async removeByDevice(ctx: CallContext, args: Record<string, unknown>): Promise<number> {
    const d = await this.device(ctx, args);
    const pointKey = text(args, 'pointKey');
    const { from, to } = rangeOf(args);
    const conditions: Condition[] = [eq('deviceId', String(d.id))];
    if (pointKey) conditions.push(eq('pointKey', pointKey));
    if (from !== undefined) conditions.push((eb) => eb('ts', '>=', from));
    if (to !== undefined) conditions.push((eb) => eb('ts', '<=', to));
    const reason = text(args, 'reason') ?? null;
    const removed = await this.db.transaction().execute(async (trx) => {
      let qb = trx.deleteFrom('wit_device_log');
      for (const condition of conditions) qb = qb.where(condition);
      const result = await qb.executeTakeFirst();
      const count = Number(result.numDeletedRows);
      await this.audit(trx, ctx, d, { pointKey: pointKey ?? '*', ts: from ?? 0, endTs: to ?? null, action: CORRECTION.rangeRemoved, affected: count, reason });
      return count;
    });
    this.platform.events.emit('changed', 'wit_device_log_update_log');
    return removed;
  }

  /**
   * Sets the zero readings changes are measured from (`initialValues`, raw units: the formula's x0): the values
   * given, or with `useLatest` the newest raw reading of each of the device's points.
   */
  async setInitialValues(ctx: CallContext, args: Record<string, unknown>): Promise<Row> {
    const d = await this.device(ctx, args);
    const current = parseObject(d.initialValues);
    const next: Record<string, number> = {};
    const useLatest = ['1', 'true'].includes(text(args, 'useLatest') ?? '');
    if (useLatest) {
      const points = await this.platform.repo(devicePoint).all(ctx, {}, [eq('deviceId', String(d.id))]);
      const keys = text(args, 'pointKeys')?.split(',').map((s) => s.trim()).filter(Boolean) ?? points.map((p) => String(p.pointKey));
      for (const key of keys) {
        const latest = await this.db.selectFrom('wit_device_log').select('raw').where('deviceId', '=', String(d.id)).where('pointKey', '=', key).orderBy('ts', 'desc').limit(1).executeTakeFirst();
        if (latest) next[key] = Number(latest.raw);
      }
      if (Object.keys(next).length === 0) throw badRequest('该设备暂无数据,无法取最新值作为初始值');
    } else {
      const given = typeof args.values === 'string' ? parseObject(args.values, true) : args.values;
      if (!given || typeof given !== 'object' || Array.isArray(given) || Object.keys(given).length === 0) throw badRequest('请输入初始值,如 {"tilt_x": 0.01}');
      for (const [key, value] of Object.entries(given as Record<string, unknown>)) {
        if (!POINT_KEY.test(key)) throw badRequest(`点位标识不正确: ${key}`);
        next[key] = finite(value, `初始值应为数字: ${key}`);
      }
    }
    const initialValues = JSON.stringify({ ...current, ...next });
    await this.platform.repo(device).update(ctx, String(d.id), { initialValues });
    return { deviceId: d.id, initialValues: JSON.parse(initialValues) as unknown };
  }

  /**
   * Recomputes stored values from their raw readings with the device's current formula, initial values and
   * temperature coefficients — the pipeline's own calculation — in batches of whole instants (so a reading's
   * temperature is at hand), and logs the run in wit_collect_calculation_log.
   */
  async recalculate(ctx: CallContext, args: Record<string, unknown>): Promise<Row> {
    const d = await this.device(ctx, args);
    const { from, to } = rangeOf(args);
    if (from === undefined) throw badRequest('请选择开始时间');
    if (to === undefined) throw badRequest('请选择结束时间');
    const pointKey = text(args, 'pointKey');
    const calc = await this.link.ingest.directory.fresh(String(d.code));
    if (!calc) throw badRequest('设备不存在或无权操作');
    if (calc.formulaError) throw badRequest(`型号公式错误: ${calc.formulaError}`);
    const model = d.modelId ? await this.db.selectFrom('wit_device_model').select('formula').where('id', '=', String(d.modelId)).executeTakeFirst() : undefined;
    const started = Date.now();
    const log = newRow(ctx, String(d.tenantId), {
      deviceId: String(d.id), deviceCode: d.code, projectId: d.projectId ?? null, pointKey: pointKey ?? null, startTs: from, endTs: to,
      formula: (model?.formula as string | null | undefined) ?? null, initialValues: JSON.stringify(calc.initial), state: RUN_STATE.running,
    });
    await this.db.insertInto('wit_collect_calculation_log').values(log).execute();
    const counts = { total: 0, changed: 0, failed: 0 };
    try {
      const previous = await this.db.selectFrom('wit_device_log').select('value').where('deviceId', '=', String(d.id)).where('pointKey', '=', TEMPERATURE_KEY).where('ts', '<', from).orderBy('ts', 'desc').limit(1).executeTakeFirst();
      let temperature = previous ? Number(previous.value) : Number.NaN;
      let after = from - 1;
      for (;;) {
        const rows = await this.db.selectFrom('wit_device_log').selectAll().where('deviceId', '=', String(d.id)).where('ts', '>', after).where('ts', '<=', to).orderBy('ts').orderBy('pointKey').limit(RECALC_BATCH).execute();
        if (rows.length === 0) break;
        // Keep whole instants: a full batch leaves its last instant to the next one (unless it is the only one).
        const lastTs = Number(rows[rows.length - 1].ts);
        const batch = rows.length === RECALC_BATCH && Number(rows[0].ts) !== lastTs ? rows.filter((r) => Number(r.ts) !== lastTs) : rows;
        const updates: Array<{ pointKey: string; ts: number; value: number }> = [];
        for (const group of byInstant(batch)) {
          const own = group.find((r) => r.pointKey === TEMPERATURE_KEY);
          const t = own ? Number(own.raw) : temperature;
          for (const row of group) {
            if (pointKey && row.pointKey !== pointKey) continue;
            counts.total++;
            const value = engineeringValue(calc, String(row.pointKey), Number(row.raw), t);
            if (!Number.isFinite(value)) {
              counts.failed++;
              continue;
            }
            if (Math.abs(value - Number(row.value)) > 1e-12 * Math.max(1, Math.abs(value))) updates.push({ pointKey: String(row.pointKey), ts: Number(row.ts), value });
          }
          // The pipeline falls back on the latest stored temperature: the recalculated one, when it was recalculated.
          if (own) temperature = updates.find((u) => u.ts === Number(own.ts) && u.pointKey === TEMPERATURE_KEY)?.value ?? Number(own.value);
        }
        if (updates.length) {
          await this.db.transaction().execute(async (trx) => {
            for (const u of updates) await trx.updateTable('wit_device_log').set({ value: u.value }).where('deviceId', '=', String(d.id)).where('pointKey', '=', u.pointKey).where('ts', '=', u.ts).execute();
          });
        }
        counts.changed += updates.length;
        after = Number(batch[batch.length - 1].ts);
      }
      const done = { ...counts, state: RUN_STATE.done, elapsedMs: Date.now() - started, updateTime: formatDateTime() };
      await this.db.updateTable('wit_collect_calculation_log').set(done).where('id', '=', String(log.id)).execute();
      this.platform.events.emit('changed', 'wit_collect_calculation_log');
      return { ...log, ...done };
    } catch (error) {
      const failed = { ...counts, state: RUN_STATE.failed, error: error instanceof Error ? error.message : String(error), elapsedMs: Date.now() - started };
      await this.db.updateTable('wit_collect_calculation_log').set(failed).where('id', '=', String(log.id)).execute();
      this.platform.events.emit('changed', 'wit_collect_calculation_log');
      throw error;
    }
  }

  /**
   * Settlement of hydrostatic levelling points relative to a reference point, cumulative since a base instant:
   *   S_i(t) = [v_i(t) − v_i(t0)] − [v_r(t) − v_r(t0)]
   * where v are stored values (mm) of `pointKey`, r the reference point (on stable ground), t0 the first instant
   * at or after `baseTime` where both have a reading, and a reading of i is paired with the reference reading
   * nearest in time within `toleranceSeconds` (default 60). Positive = the point went down relative to the
   * reference. Subtracting the reference removes what all sensors of the liquid circuit share (temperature,
   * evaporation, pressure); differences from t0 remove each sensor's zero.
   */
  async settlement(ctx: CallContext, args: Record<string, unknown>): Promise<Row> {
    const reference = await this.device(ctx, { deviceId: args.referenceDeviceId ?? args.baseDeviceId, deviceCode: args.referenceDeviceCode });
    const pointKey = text(args, 'pointKey') ?? 'settlement';
    const { from, to } = rangeOf(args);
    const base = instant(args.baseTime, 'baseTime') ?? from;
    const toleranceText = text(args, 'toleranceSeconds');
    const tolerance = toleranceText === undefined ? 60_000 : finite(toleranceText, '时间容差应为数字') * 1000;
    if (tolerance < 0 || tolerance > 86_400_000) throw invalidParam('时间容差应在 0 到 86400 秒之间');
    const ids = args.deviceIds === undefined || args.deviceIds === '' ? undefined : idsOf(args, 'deviceIds');
    let points: Row[];
    if (ids) {
      const found = await this.devicesById(ctx, ids);
      const missing = ids.find((id) => !found.has(id));
      if (missing) throw badRequest(`设备不存在或无权操作: ${missing}`);
      points = [...found.values()];
    } else {
      // Every other device of the reference's project with the same channel.
      const keyed = this.db.selectFrom('wit_device_point').select('deviceId').where('pointKey', '=', pointKey).where('isDeleted', '=', 0);
      points = await this.platform.repo(device).all(ctx, {}, [eq('projectId', String(reference.projectId)), (eb) => eb('id', 'in', keyed)]);
    }
    points = points.filter((p) => p.id !== reference.id);
    if (points.length === 0) throw badRequest('没有要计算沉降的测点');
    const series = (deviceId: string) => {
      let qb = this.db.selectFrom('wit_device_log').select(['ts', 'value']).where('deviceId', '=', deviceId).where('pointKey', '=', pointKey);
      if (from !== undefined) qb = qb.where('ts', '>=', from - tolerance);
      if (to !== undefined) qb = qb.where('ts', '<=', to + tolerance);
      return qb.orderBy('ts').limit(SETTLEMENT_LIMIT).execute().then((rows) => rows.map((r) => ({ ts: Number(r.ts), value: Number(r.value) })));
    };
    const ref = await series(String(reference.id));
    if (ref.length === 0) throw badRequest('基准点在该时间段内没有数据');
    const results: Row[] = [];
    for (const p of points) {
      const rows = (await series(String(p.id))).filter((r) => (from === undefined || r.ts >= from) && (to === undefined || r.ts <= to));
      const paired = rows.map((r) => ({ ...r, ref: nearest(ref, r.ts, tolerance) })).filter((r): r is { ts: number; value: number; ref: { ts: number; value: number } } => r.ref !== undefined);
      const origin = paired.find((r) => base === undefined || r.ts >= base);
      const out = origin
        ? paired
            .filter((r) => r.ts >= origin.ts)
            .map((r) => ({
              ts: r.ts,
              time: formatDateTime(new Date(r.ts)),
              value: r.value,
              reference: r.ref.value,
              settlement: round(r.value - origin.value - (r.ref.value - origin.ref.value)),
            }))
        : [];
      results.push({ deviceId: p.id, deviceCode: p.code, deviceName: p.name, baseTs: origin?.ts ?? null, baseTime: origin ? formatDateTime(new Date(origin.ts)) : null, points: out });
    }
    return {
      referenceDeviceId: reference.id,
      referenceDeviceCode: reference.code,
      pointKey,
      formula: 'S_i(t) = [v_i(t) − v_i(t0)] − [v_r(t) − v_r(t0)]',
      devices: results,
    };
  }
}

/** Rounds away binary noise (1e-9 mm is far below any sensor). */
const round = (n: number) => Math.round(n * 1e9) / 1e9;

function byInstant(rows: Row[]): Row[][] {
  const groups: Row[][] = [];
  for (const row of rows) {
    const last = groups[groups.length - 1];
    if (last && Number(last[0].ts) === Number(row.ts)) last.push(row);
    else groups.push([row]);
  }
  return groups;
}

/** The reading nearest to `ts` within `tolerance` ms, by binary search over a series sorted by time. */
function nearest(series: ReadonlyArray<{ ts: number; value: number }>, ts: number, tolerance: number): { ts: number; value: number } | undefined {
  let lo = 0;
  let hi = series.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (series[mid].ts < ts) lo = mid + 1;
    else hi = mid;
  }
  const candidates = [series[lo], series[lo - 1]].filter((c) => c !== undefined);
  const best = candidates.reduce<{ ts: number; value: number } | undefined>((a, c) => (!a || Math.abs(c.ts - ts) < Math.abs(a.ts - ts) ? c : a), undefined);
  return best && Math.abs(best.ts - ts) <= tolerance ? best : undefined;
}

function parseObject(value: unknown, strict = false): Record<string, unknown> {
  if (typeof value !== 'string' || value.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // below
  }
  if (strict) throw badRequest('初始值应为 JSON 对象');
  return {};
}

/** The series, the raw messages, the audit and recalculation logs, and the device calls on stored values. */
export function registerDeviceLog(app: FastifyInstance, platform: Platform, link: DeviceLink): void {
  const log = new DeviceLog(platform, link);
  const base = '/wit-xinde/devicelog';

  app.get(`${base}/list`, needs('device_log'), async (request) => ok(await log.page(contextOf(request), paramsOf(request))));
  app.get(`${base}/nopage`, needs('device_log'), async (request) => ok(await log.all(contextOf(request), paramsOf(request))));
  app.get(`${base}/detail`, needs('device_log'), async (request) => {
    const id = text(paramsOf(request), 'id');
    if (!id) throw badRequest('请选择数据');
    return ok(await log.detail(contextOf(request), id));
  });
  app.post(`${base}/submit`, needs('device_log_add', 'device_log_correct'), async (request) => ok(await log.submit(contextOf(request), bodyOf(request))));
  app.post(`${base}/remove`, needs('device_log_delete'), async (request) => ok(await log.remove(contextOf(request), argsOf(request))));
  app.post(`${base}/removeByDevice`, needs('device_log_delete'), async (request) => ok(await log.removeByDevice(contextOf(request), argsOf(request))));
  app.post(`${base}/bacthUpdateData`, needs('device_log_correct'), async (request) => ok(await log.batchUpdate(contextOf(request), request.body)));

  app.post('/wit-xinde/device/setDevInitValue', needs('device_list_init'), async (request) => ok(await log.setInitialValues(contextOf(request), argsOf(request))));
  app.post('/wit-xinde/device/recalculate', needs('device_list_init', 'device_log_correct'), async (request) => ok(await log.recalculate(contextOf(request), argsOf(request))));
  app.post('/wit-xinde/device/computeSettlement', needs('device_list', 'device_log'), async (request) => ok(await log.settlement(contextOf(request), argsOf(request))));

  const rawNames = [
    ['deviceId', 'wit_device', 'deviceName'],
    ['gatewayId', 'wit_gateway', 'gatewayName'],
    ['projectId', 'wit_project', 'projectName'],
  ] as const;
  /** `hasError` 1/0: messages with or without an error; startTime/endTime: time of arrival. */
  const rawQuery = (_ctx: CallContext, query: Record<string, unknown>) => {
    const extra: Condition[] = [];
    const hasError = text(query, 'hasError');
    if (hasError === '1' || hasError === 'true') extra.push((eb) => eb('error', 'is not', null));
    if (hasError === '0' || hasError === 'false') extra.push((eb) => eb('error', 'is', null));
    const { from, to } = rangeOf(query);
    if (from !== undefined) extra.push((eb) => eb('receivedAt', '>=', from));
    if (to !== undefined) extra.push((eb) => eb('receivedAt', '<=', to));
    return { query, extra };
  };
  registerCrud(app, platform, collectData, { listQuery: rawQuery });
  registerCrud(app, platform, viewCollect, { listQuery: rawQuery, decorate: (_ctx, rows) => withNames(platform.db, rows, rawNames) });
  registerCrud(app, platform, collectCalculationLog);

  registerCrud(app, platform, deviceLogUpdateLog);
  /** Only the reason and remark of an audit row may change; other fields of the body are ignored. */
  app.post('/wit-xinde/devicelogupdatelog/update', needs('device_log_correct'), async (request) => {
    const ctx = contextOf(request);
    const body = bodyOf(request);
    const id = idArg(body, 'id');
    if (!id) throw badRequest('修改数据必须带编号');
    const row = await platform.repo(deviceLogUpdateLog).byId(ctx, id);
    if (!row) throw badRequest('数据不存在或无权操作');
    const changes: Row = {};
    for (const field of ['reason', 'remark'] as const) {
      if (body[field] === undefined) continue;
      const value = body[field] === null ? null : String(body[field]).trim();
      if (value !== null && value.length > 255) throw invalidParam(`${field}: 长度不能超过255个字符`);
      changes[field] = value || null;
    }
    if (Object.keys(changes).length === 0) throw badRequest('请输入修正原因或备注');
    await platform.db
      .updateTable('wit_device_log_update_log')
      .set({ ...changes, updateUser: ctx.principal.userId, updateTime: formatDateTime() })
      .where('id', '=', id)
      .execute();
    platform.events.emit('changed', 'wit_device_log_update_log');
    return ok({ ...row, ...changes });
  });
}
