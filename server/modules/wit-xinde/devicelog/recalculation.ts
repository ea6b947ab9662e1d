import { collectCalculationLog, RUN_STATE } from '../../../../resources/iot/data';
import { deviceModel } from '../../../../resources/iot/catalogue';
import { device, devicePoint } from '../../../../resources/iot/device';
import type { Row } from '../../../db/database';
import type { CallContext } from '../../../db/repository';
import { text } from '../../../http/context';
import { badRequest } from '../../../http/envelope';
import { engineeringValue } from '../../../ingest/calculate';
import { TEMPERATURE_KEY } from '../../../ingest/directory';
import type { Platform } from '../../../platform';
import { formatDateTime } from '../../../time';
import type { DeviceLink } from '../commands';
import { eq } from '../common';
import { DeviceData, finite, POINT_KEY, parseObject, rangeOf } from './shared';

const RECALC_BATCH = 2000;

/** A device's initial values, and the recalculation of its stored values from their raw readings. */
export class Recalculation extends DeviceData {
  constructor(
    platform: Platform,
    private readonly link: DeviceLink,
  ) {
    super(platform);
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
      const keys = text(args, 'pointKeys')?.split(',').map((s) => s.trim()).filter(Boolean) ?? points.map((p) => p.pointKey);
      for (const key of keys) {
        const latest = await this.db.selectFrom('wit_device_log').select('raw').where('deviceId', '=', String(d.id)).where('pointKey', '=', key).orderBy('ts', 'desc').limit(1).executeTakeFirst();
        if (latest) next[key] = latest.raw;
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
    const model = d.modelId ? await (await this.platform.repo(deviceModel).select(ctx)).select('formula').where('id', '=', String(d.modelId)).executeTakeFirst() : undefined;
    const started = Date.now();
    const logs = this.platform.repo(collectCalculationLog);
    const [log] = await logs.insertMany(ctx, [{
      tenantId: String(d.tenantId), deviceId: String(d.id), deviceCode: d.code, projectId: d.projectId ?? null, pointKey: pointKey ?? null, startTs: from, endTs: to,
      formula: (model?.formula as string | null | undefined) ?? null, initialValues: JSON.stringify(calc.initial), state: RUN_STATE.running,
    }]);
    const ofLog = [eq('id', String(log.id))];
    const counts = { total: 0, changed: 0, failed: 0 };
    try {
      const previous = await this.db.selectFrom('wit_device_log').select('value').where('deviceId', '=', String(d.id)).where('pointKey', '=', TEMPERATURE_KEY).where('ts', '<', from).orderBy('ts', 'desc').limit(1).executeTakeFirst();
      let temperature = previous ? previous.value : Number.NaN;
      let after = from - 1;
      for (;;) {
        const rows = await this.db.selectFrom('wit_device_log').selectAll().where('deviceId', '=', String(d.id)).where('ts', '>', after).where('ts', '<=', to).orderBy('ts').orderBy('pointKey').limit(RECALC_BATCH).execute();
        if (rows.length === 0) break;
        // Keep whole instants: a full batch leaves its last instant to the next one (unless it is the only one).
        const lastTs = Number(rows[rows.length - 1].ts);
        const batch = rows.length === RECALC_BATCH && Number(rows[0].ts) !== lastTs ? rows.filter((r) => r.ts !== lastTs) : rows;
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
      await logs.updateWhere(ctx, done, ofLog);
      return { ...log, ...done };
    } catch (error) {
      const failed = { ...counts, state: RUN_STATE.failed, error: error instanceof Error ? error.message : String(error), elapsedMs: Date.now() - started };
      await logs.updateWhere(ctx, failed, ofLog);
      throw error;
    }
  }
}

function byInstant(rows: Row[]): Row[][] {
  const groups: Row[][] = [];
  for (const row of rows) {
    const last = groups[groups.length - 1];
    if (last && Number(last[0].ts) === Number(row.ts)) last.push(row);
    else groups.push([row]);
  }
  return groups;
}
