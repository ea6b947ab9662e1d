import { describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database';
import { migrateToLatest } from '../../../server/db/migrate';
import { CATCH_UP_BATCH_ROWS, type Priority, type SeriesRow, SeriesWriter } from '../../../server/ingest/store';
import { type StoreKind, storeKinds, withFreshStore } from '../../support/databases';

/**
 * The group commit's two kinds of writes (server/ingest/store.ts): readings of connected devices ('live') and those of
 * devices coming back ('catching-up'). The order in which the writes are answered shows the batches they went in.
 */
const rowsOf = (device: string, count: number): SeriesRow[] =>
  Array.from({ length: count }, (_, i) => ({ tenantId: '100001', projectId: null, deviceId: device, pointKey: `k${i % 10}`, ts: 1_700_000_000_000 + Math.floor(i / 10), value: i, raw: i }));

type Write = (name: string, rows: number, priority?: Priority) => Promise<void>;

/** A writer on a fresh store, and the names of its writes in the order they were answered. */
const withWriter = (store: StoreKind, run: (write: Write, answered: string[], writer: SeriesWriter, database: Database) => Promise<void>) =>
  withFreshStore(store, async (database) => {
    await migrateToLatest(database.db);
    const writer = new SeriesWriter(database.native, (error) => {
      throw error;
    });
    const answered: string[] = [];
    const write: Write = (name, rows, priority) => writer.write(rowsOf(name, rows), undefined, priority).then(() => void answered.push(name));
    try {
      await run(write, answered, writer, database);
    } finally {
      await writer.close();
    }
  });

/** On SQLite, whose one writer commits one batch at a time. */
describe('live and catching-up readings in the group commit, on sqlite', () => {
  const quarter = CATCH_UP_BATCH_ROWS / 2;

  it('a live reading waits for one short catching-up batch, not for the whole fleet coming back', () =>
    withWriter('sqlite', async (write, answered) => {
      const writes = [write('first', 10)];
      // Six devices coming back, three batches' worth; the first batch starts with 'first' committing.
      for (let i = 1; i <= 6; i++) writes.push(write(`back${i}`, quarter, { catchingUpSince: i }));
      writes.push(write('live', 10));
      await Promise.all(writes);
      // The batches take turns: first, then back1+back2 (a batch's worth), then live, then the rest.
      expect(answered).toEqual(['first', 'back1', 'back2', 'live', 'back3', 'back4', 'back5', 'back6']);
    }));

  it('a device back for a while goes before the crowd that came after it, whenever its reading arrives', () =>
    withWriter('sqlite', async (write, answered) => {
      const writes = [write('first', 10)];
      for (let i = 1; i <= 4; i++) writes.push(write(`crowd${i}`, quarter, { catchingUpSince: 200 + i }));
      writes.push(write('early', quarter, { catchingUpSince: 100 }));
      await Promise.all(writes);
      expect(answered).toEqual(['first', 'early', 'crowd1', 'crowd2', 'crowd3', 'crowd4']);
    }));

  it('counts catching-up rows as waiting until they are committed: new connections wait for them too', () =>
    withWriter('sqlite', async (write, _answered, writer) => {
      const writes = [write('L', 30), write('C', 700, { catchingUpSince: 1 })];
      expect(writer.depth).toBe(730);
      expect(writer.behind).toBe(true);
      await Promise.all(writes);
      await writer.flush();
      expect(writer.depth).toBe(0);
    }));
});

/** On PostgreSQL, whose writer commits four batches side by side. */
describe.each((await storeKinds()).filter((store) => store === 'postgres'))('live and catching-up readings in the group commit, on %s', (store) => {
  it('catching-up batches leave a slot to live readings, which wait for none of them', () =>
    withWriter(store, async (write, answered, _writer, database) => {
      if (database.native.dialect !== 'postgres') throw new Error('a PostgreSQL store');
      // Another transaction holds a row of each device coming back: their batches wait on the series' key until it
      // ends. Their commits take as long as the test needs, not as long as the machine happens to take.
      const holder = await database.native.pool.connect();
      try {
        await holder.query('begin');
        const back = Array.from({ length: 5 }, (_, i) => `back${i}`);
        await holder.query(`insert into wit_device_log (device_id, point_key, ts, value, raw) select unnest($1::text[]), 'k0', ${rowsOf('', 1)[0].ts}, 0, 0`, [back]);
        // Five batches' worth of devices coming back, then one live reading: answered while all of them still wait.
        const writes = back.map((name, i) => write(name, 4000, { catchingUpSince: i }));
        await write('live', 10);
        expect(answered).toEqual(['live']);
        await holder.query('rollback');
        await Promise.all(writes);
        expect(answered).toHaveLength(6);
      } finally {
        await holder.query('rollback');
        holder.release();
      }
    }));
});
