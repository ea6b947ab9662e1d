import type { Db } from '../db/database';
import type { LatestValues } from '../ingest/latest';
import type { PushReading } from './format';

/**
 * Stored readings for manual pushes: a device's history in a range, read page by page in time order from the series
 * (wit_device_log, keyed by device, instant and channel), and the latest value of each channel.
 */

export interface DeviceRef {
  id: string;
  code: string;
}

const PAGE = 2000;

/** How many values the devices hold in the range (each count is one primary-key range: device, then time). */
export async function countHistory(db: Db, deviceIds: readonly string[], from: number, to: number): Promise<number> {
  let total = 0;
  for (const deviceId of deviceIds) {
    const row = await db
      .selectFrom('wit_device_log')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('deviceId', '=', deviceId)
      .where('ts', '>=', from)
      .where('ts', '<=', to)
      .executeTakeFirst();
    total += Number((row as { total?: number } | undefined)?.total ?? 0);
  }
  return total;
}

/** A device's values in [from, to] ordered by time and channel, `PAGE` at a time (keyset paging, no offsets). */
export async function* historyOf(db: Db, device: DeviceRef, from: number, to: number): AsyncGenerator<PushReading[]> {
  // The primary key's own order (device, time, channel): one range, read in index order.
  let after: { ts: number; pointKey: string } | undefined;
  for (;;) {
    let qb = db.selectFrom('wit_device_log').select(['pointKey', 'ts', 'value']).where('deviceId', '=', device.id).where('ts', '>=', from).where('ts', '<=', to);
    if (after) {
      const { ts, pointKey } = after;
      qb = qb.where((eb) => eb(eb.refTuple('ts', 'pointKey'), '>', eb.tuple(ts, pointKey)));
    }
    const rows = await qb.orderBy('ts').orderBy('pointKey').limit(PAGE).execute();
    if (rows.length === 0) return;
    yield rows.map((r) => ({ deviceId: device.id, deviceCode: device.code, pointKey: r.pointKey, ts: r.ts, value: r.value }));
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1];
    after = { ts: last.ts, pointKey: last.pointKey };
  }
}

/**
 * The latest value of each of a device's channels: from the ingestion side's memory when it has the channel, else
 * the newest stored value (one index lookup per channel).
 */
export async function latestOf(db: Db, latest: LatestValues, device: DeviceRef): Promise<PushReading[]> {
  const known = latest.of(device.id);
  const points = await db.selectFrom('wit_device_point').select('pointKey').where('deviceId', '=', device.id).where('isDeleted', '=', 0).execute();
  const keys = new Set([...Object.keys(known), ...points.map((p) => p.pointKey)]);
  const out: PushReading[] = [];
  for (const pointKey of keys) {
    let found: { ts: number; value: number } | undefined = known[pointKey];
    if (!found) {
      const row = await db.selectFrom('wit_device_log').select(['ts', 'value']).where('deviceId', '=', device.id).where('pointKey', '=', pointKey).orderBy('ts', 'desc').limit(1).executeTakeFirst();
      if (row) found = { ts: row.ts, value: row.value };
    }
    if (found) out.push({ deviceId: device.id, deviceCode: device.code, pointKey, ts: found.ts, value: found.value });
  }
  return out;
}
