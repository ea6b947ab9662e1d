import { device, devicePoint } from '../../../../resources/iot/device';
import type { Row } from '../../../db/database';
import type { CallContext } from '../../../db/repository';
import { idsOf, text } from '../../../http/context';
import { badRequest, invalidParam } from '../../../http/envelope';
import { formatDateTime } from '../../../time';
import { eq } from '../common';
import { DeviceData, finite, instant, rangeOf } from './shared';

const SETTLEMENT_LIMIT = 100_000;

/** Settlement of hydrostatic levelling points (device/computeSettlement). */
export class Settlement extends DeviceData {
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
      const keyed = (await this.platform.repo(devicePoint).select(ctx)).select('deviceId').where('pointKey', '=', pointKey);
      points = await this.platform.repo(device).all(ctx, {}, [eq('projectId', String(reference.projectId)), (eb) => eb('id', 'in', keyed)]);
    }
    points = points.filter((p) => p.id !== reference.id);
    if (points.length === 0) throw badRequest('没有要计算沉降的测点');
    const series = (deviceId: string) => {
      let qb = this.db.selectFrom('wit_device_log').select(['ts', 'value']).where('deviceId', '=', deviceId).where('pointKey', '=', pointKey);
      if (from !== undefined) qb = qb.where('ts', '>=', from - tolerance);
      if (to !== undefined) qb = qb.where('ts', '<=', to + tolerance);
      return qb.orderBy('ts').limit(SETTLEMENT_LIMIT).execute().then((rows) => rows.map((r) => ({ ts: r.ts, value: r.value })));
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
