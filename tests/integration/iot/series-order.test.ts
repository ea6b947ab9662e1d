import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database';
import { migrateTo, migrateToLatest } from '../../../server/db/migrate';
import { storeKinds, withFreshStore } from '../../support/databases';

/** Migration 0012 re-keys the time series (device, time, key): every point survives, and so do the rollup marks. */
describe.each(await storeKinds())('re-keying the series on %s', (store) => {
  const withDatabase = (run: (database: Database) => Promise<void>) => withFreshStore(store, run);

  it('keeps every point, then stores, overwrites and marks as before', () =>
    withDatabase(async ({ db }) => {
      await migrateTo(db, '0011_rollups');
      const points = [
        ['D1', 'tilt_x', 3_600_000, 1.5],
        ['D1', 'tilt_y', 3_600_000, -2.25],
        ['D1', 'tilt_x', 7_200_000, 1.75],
        ['D2', 'settlement', 3_600_000, 0.5],
      ] as const;
      for (const [device, key, ts, value] of points) {
        await sql`insert into wit_device_log (device_id, point_key, ts, value, raw, tenant_id) values (${device}, ${key}, ${ts}, ${value}, ${value}, '100001')`.execute(db);
      }
      await migrateToLatest(db);

      const rows = await db.selectFrom('wit_device_log').select(['deviceId', 'pointKey', 'ts', 'value']).orderBy('deviceId').orderBy('ts').orderBy('pointKey').execute();
      expect(rows.map((r) => [r.deviceId, r.pointKey, Number(r.ts), Number(r.value)])).toEqual([
        ['D1', 'tilt_x', 3_600_000, 1.5],
        ['D1', 'tilt_y', 3_600_000, -2.25],
        ['D1', 'tilt_x', 7_200_000, 1.75],
        ['D2', 'settlement', 3_600_000, 0.5],
      ]);
      // The same point again overwrites itself (the writers' upsert), and the triggers still mark its hour.
      await db.deleteFrom('wit_device_log_dirty').execute();
      const upsert = (value: number) =>
        sql`insert into wit_device_log (device_id, point_key, ts, value, raw) values ('D1', 'tilt_x', 10800000, ${value}, ${value})
            on conflict (device_id, ts, point_key) do update set value = excluded.value`.execute(db);
      await upsert(1);
      await upsert(2);
      const stored = await db.selectFrom('wit_device_log').select('value').where('deviceId', '=', 'D1').where('ts', '=', 10_800_000).execute();
      expect(stored.map((r) => Number(r.value))).toEqual([2]);
      await db.deleteFrom('wit_device_log').where('deviceId', '=', 'D2').execute();
      const marks = await db.selectFrom('wit_device_log_dirty').select(['deviceId', 'hour']).orderBy('deviceId').orderBy('hour').execute();
      expect(marks.map((m) => [m.deviceId, Number(m.hour)])).toEqual([
        ['D1', 3],
        ['D2', 1],
      ]);
    }));
});
