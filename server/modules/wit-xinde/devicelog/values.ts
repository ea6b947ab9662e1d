import { type SqlBool, sql } from 'kysely';
import { CORRECTION, deviceLogUpdateLog } from '../../../../resources/iot/data';
import { device, devicePoint } from '../../../../resources/iot/device';
import type { Row } from '../../../db/database';
import { type CallContext, transact } from '../../../db/repository';
import { type Condition, pagingOf } from '../../../http/conditions';
import { idsOf, text } from '../../../http/context';
import { badRequest, pageOf, paramType } from '../../../http/envelope';
import { storeSeries } from '../../../series/store';
import { eq, idArg, within } from '../common';
import { DeviceData, finite, instant, type LogKey, logId, MAX_IDS, POINT_KEY, parseLogId, type PointDisplay, present, rangeOf, type Trx } from './shared';

const UNPAGED_LIMIT = 10_000;

/**
 * The stored values (devicelog, wit_device_log): lists, manual values and corrections, removal — every change
 * audited in wit_device_log_update_log.
 */
export class DeviceValues extends DeviceData {
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
    const ids = [...new Set(rows.map((r) => String(r.deviceId)))];
    const [devices, points] = await Promise.all([this.devicesById(ctx, ids), this.pointDisplay(ctx, ids)]);
    return rows.map((r) => present(r, devices, points));
  }

  /** The unit and precision of the points of `deviceIds`, so values show as the debug view shows them. */
  private async pointDisplay(ctx: CallContext, deviceIds: readonly string[]): Promise<PointDisplay> {
    if (!deviceIds.length) return new Map();
    const points = await this.platform.repo(devicePoint).all(ctx, {}, [within('deviceId', deviceIds)], 100_000);
    return new Map(points.map((p) => [`${p.deviceId}|${p.pointKey}`, { unit: p.unit, precision: p.precision }]));
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
  /** The audit row of a change, written in the change's transaction (`transact` tells the caches after the commit). */
  private audit(trx: Trx, ctx: CallContext, d: Row, values: Row): Promise<unknown> {
    const row = { tenantId: String(d.tenantId), deviceId: String(d.id), projectId: d.projectId ?? null, ...values };
    return this.platform.repo(deviceLogUpdateLog).within(trx).insertMany(ctx, [row]);
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
    await transact(this.platform, async (trx) => {
      if (existing) {
        await trx.updateTable('wit_device_log').set({ value, ...(raw === undefined ? {} : { raw }) }).where('deviceId', '=', key.deviceId).where('pointKey', '=', key.pointKey).where('ts', '=', key.ts).execute();
        await this.audit(trx, ctx, d, { pointKey: key.pointKey, ts: key.ts, action: CORRECTION.corrected, oldValue: Number(existing.value), newValue: value, reason });
      } else {
        // Counted like a received point (docs/statistics.md "Counters").
        await storeSeries(trx, [{ ...key, value, raw: raw ?? value, tenantId: String(d.tenantId), projectId: d.projectId ? String(d.projectId) : null }]);
        await this.audit(trx, ctx, d, { pointKey: key.pointKey, ts: key.ts, action: CORRECTION.added, oldValue: null, newValue: value, reason });
      }
    });
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
    await transact(this.platform, async (trx) => {
      for (const { d, key, value, old, reason } of items) {
        await trx.updateTable('wit_device_log').set({ value }).where('deviceId', '=', key.deviceId).where('pointKey', '=', key.pointKey).where('ts', '=', key.ts).execute();
        await this.audit(trx, ctx, d, { pointKey: key.pointKey, ts: key.ts, action: CORRECTION.corrected, oldValue: old, newValue: value, reason });
      }
    });
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
    await transact(this.platform, async (trx) => {
      for (const { d, key, old } of rows) {
        await trx.deleteFrom('wit_device_log').where('deviceId', '=', key.deviceId).where('pointKey', '=', key.pointKey).where('ts', '=', key.ts).execute();
        await this.audit(trx, ctx, d, { pointKey: key.pointKey, ts: key.ts, action: CORRECTION.removed, oldValue: old, newValue: null, reason });
      }
    });
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
    const removed = await transact(this.platform, async (trx) => {
      let qb = trx.deleteFrom('wit_device_log');
      for (const condition of conditions) qb = qb.where(condition);
      const result = await qb.executeTakeFirst();
      const count = Number(result.numDeletedRows);
      await this.audit(trx, ctx, d, { pointKey: pointKey ?? '*', ts: from ?? 0, endTs: to ?? null, action: CORRECTION.rangeRemoved, affected: count, reason });
      return count;
    });
    return removed;
  }}
