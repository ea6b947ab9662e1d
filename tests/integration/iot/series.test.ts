import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawRow } from '../../../server/ingest/store';
import { nextId } from '../../../server/ids';
import { keysOf } from '../../../server/series/rollups';
import { startServer, type TestServer } from '../../support/server';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';

/** The series writer's durability against the rest of the server's use of the same database. */
onEveryStore('series writer', (ctx) => {
  /** Runs `work` with the server's own roller stopped: its pass would take the marks first. */
  const withRollerStopped = async (work: () => Promise<void>) => {
    const { rollups } = ctx.server.app.ingest;
    await rollups.stop();
    try {
      await work();
    } finally {
      rollups.start();
    }
  };

  it('commits on its own, never inside another transaction that is still open (and may roll back)', async () => {
    const { db } = ctx.server.app.platform;
    const deviceId = String((await db.selectFrom('wit_device').select('id').where('code', '=', 'QJ-TH-01').executeTakeFirstOrThrow()).id);
    const ts = Date.UTC(2026, 5, 1);
    const raw: RawRow = { id: nextId(), tenantId: '100001', deviceId, gatewayId: null, projectId: null, deviceCode: 'QJ-TH-01', topic: 'vigil/100001/device/QJ-TH-01/data', payload: '{}', receivedAt: ts, readings: 1, error: null, createTime: '2026-06-01 00:00:00' };
    const { native } = ctx.server.app.platform;
    let written: Promise<void> | undefined;
    const failed = db.transaction().execute(async (trx) => {
      await trx.updateTable('wit_device').set({ remark: 'changed in a transaction that fails' }).where('id', '=', deviceId).execute();
      const queued = native.dialect === 'sqlite' ? native.writeLock.waiting : 0;
      written = ctx.server.app.ingest.writer.write([{ tenantId: '100001', projectId: null, deviceId, pointKey: 'humidity', ts, value: 61.5, raw: 61.5 }], raw);
      // A barrier, not a pause: the write has reached its own connection before this transaction ends. PostgreSQL
      // acknowledges it while the transaction is still open; SQLite's transaction holds the process's turn to write,
      // so there the writer's batch is seen waiting for that turn (it commits after the rollback, on its own).
      if (native.dialect === 'postgres') await written;
      else await until(() => native.writeLock.waiting > queued, 5000, 'the series batch waiting for its turn to write');
      throw new Error('rolled back');
    });
    await expect(failed).rejects.toThrow('rolled back');
    await written;
    // The write survives the rollback, which undoes only the transaction's own change.
    const row = await db.selectFrom('wit_device_log').select('value').where('deviceId', '=', deviceId).where('pointKey', '=', 'humidity').where('ts', '=', ts).executeTakeFirst();
    expect(row && Number(row.value)).toBe(61.5);
    expect(await db.selectFrom('wit_collect_data').select('id').where('id', '=', raw.id).executeTakeFirst()).toBeDefined();
    expect((await db.selectFrom('wit_device').select('remark').where('id', '=', deviceId).executeTakeFirstOrThrow()).remark).not.toBe('changed in a transaction that fails');
  });

  it('stores a failed batch not at all and goes on with the next', async () => {
    const { db } = ctx.server.app.platform;
    const { writer } = ctx.server.app.ingest;
    const deviceId = String((await db.selectFrom('wit_device').select('id').where('code', '=', 'QJ-TH-01').executeTakeFirstOrThrow()).id);
    const ts = Date.UTC(2026, 5, 4);
    const raw: RawRow = { id: nextId(), tenantId: '100001', deviceId, gatewayId: null, projectId: null, deviceCode: 'QJ-TH-01', topic: 'vigil/100001/device/QJ-TH-01/data', payload: '{}', receivedAt: ts, readings: 2, error: null, createTime: '2026-06-04 00:00:00' };
    const good = { tenantId: '100001', projectId: null, deviceId, pointKey: 'humidity', ts, value: 50, raw: 50 };
    // A row no writer of ours produces (a key of null) fails, and with it the whole batch.
    await expect(writer.write([good, { ...good, pointKey: null as unknown as string }], raw)).rejects.toThrow();
    expect(await db.selectFrom('wit_device_log').select('value').where('deviceId', '=', deviceId).where('ts', '=', ts).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom('wit_collect_data').select('id').where('id', '=', raw.id).executeTakeFirst()).toBeUndefined();
    await writer.write([good], { ...raw, id: nextId() });
    expect(Number((await db.selectFrom('wit_device_log').select('value').where('deviceId', '=', deviceId).where('ts', '=', ts).executeTakeFirstOrThrow()).value)).toBe(50);
  });

  it("runs a caller's statement in the group commit: stored with the batch's rows, or not at all when the batch fails", async () => {
    const { db } = ctx.server.app.platform;
    const { writer } = ctx.server.app.ingest;
    const deviceId = String((await db.selectFrom('wit_device').select('id').where('code', '=', 'QJ-TH-01').executeTakeFirstOrThrow()).id);
    const remark = (text: string) => db.updateTable('wit_device').set({ remark: text }).where('id', '=', deviceId).compile();
    const stored = async () => (await db.selectFrom('wit_device').select('remark').where('id', '=', deviceId).executeTakeFirstOrThrow()).remark;
    const good = { tenantId: '100001', projectId: null, deviceId, pointKey: 'humidity', ts: Date.UTC(2026, 5, 5), value: 50, raw: 50 };
    // Asked in one turn, both join one batch, which a bad row (a key of null) fails as a whole.
    const failed = writer.execute(remark('with a failed batch'));
    await expect(writer.write([{ ...good, pointKey: null as unknown as string }])).rejects.toThrow();
    await expect(failed).rejects.toThrow();
    expect(await stored()).not.toBe('with a failed batch');
    const ran = writer.execute(remark('with the batch'));
    await writer.write([good]);
    await ran;
    expect(await stored()).toBe('with the batch');
  });

  it('overwrites a reading written again (a QoS 1 redelivery, a pulled correction) and marks its hour for the rollups', async () => {
    const { db } = ctx.server.app.platform;
    const deviceId = String((await db.selectFrom('wit_device').select('id').where('code', '=', 'QJ-TH-01').executeTakeFirstOrThrow()).id);
    const ts = Date.UTC(2026, 5, 2, 10, 30);
    const { writer, rollups } = ctx.server.app.ingest;
    const write = (value: number) => writer.write([{ tenantId: '100001', projectId: null, deviceId, pointKey: 'humidity', ts, value, raw: value }]);
    await write(40);
    await rollups.settle();
    const stored = async () => Number((await db.selectFrom('wit_device_log').select('value').where('deviceId', '=', deviceId).where('pointKey', '=', 'humidity').where('ts', '=', ts).executeTakeFirstOrThrow()).value);
    await write(41);
    expect(await stored()).toBe(41);
    // Two copies in one batch (one group commit): the last one wins on both stores.
    await writer.write([40, 42].map((value) => ({ tenantId: '100001', projectId: null, deviceId, pointKey: 'humidity', ts, value, raw: value })));
    expect(await stored()).toBe(42);
    const marks = await db.selectFrom('wit_device_log_dirty').select('hour').where('deviceId', '=', deviceId).execute();
    expect(marks.map((m) => Number(m.hour))).toContain(Math.floor(ts / 3_600_000));
  });

  it('rolls up one hour at a time, letting the event loop through between them', async () => {
    const { db } = ctx.server.app.platform;
    const { writer, rollups } = ctx.server.app.ingest;
    const deviceId = String((await db.selectFrom('wit_device').select('id').where('code', '=', 'QJ-TH-01').executeTakeFirstOrThrow()).id);
    await withRollerStopped(async () => {
      const hour = Date.UTC(2026, 4, 1, 8);
      await writer.write([0, 1, 2].map((h) => ({ tenantId: '100001', projectId: null, deviceId, pointKey: 'humidity', ts: hour + h * 3_600_000, value: h, raw: h })));
      let finished = false;
      const settled = rollups.settle().finally(() => {
        finished = true;
      });
      // A barrier of one turn: SQLite answers within a turn, so a pass that never yields is over by then.
      await new Promise((resolve) => setImmediate(resolve));
      expect(finished).toBe(false);
      expect(await settled).toBeGreaterThanOrEqual(3);
    });
  });

  it("lists the keys of a device's rollups in order, as many as asked", async () => {
    const { db } = ctx.server.app.platform;
    const { writer, rollups } = ctx.server.app.ingest;
    const deviceId = String((await db.selectFrom('wit_device').select('id').where('code', '=', 'QJ-TH-01').executeTakeFirstOrThrow()).id);
    await withRollerStopped(async () => {
      // Keys that sort before the device's others (letters), in no order.
      const ts = Date.UTC(2026, 4, 2, 8);
      await writer.write(['0k3', '0k1', '0k2'].map((pointKey) => ({ tenantId: '100001', projectId: null, deviceId, pointKey, ts, value: 1, raw: 1 })));
      await rollups.settle();
      expect(await keysOf(db, deviceId, 2)).toEqual(['0k1', '0k2']);
      const all = await keysOf(db, deviceId);
      expect(all.slice(0, 3)).toEqual(['0k1', '0k2', '0k3']);
      expect(all).toContain('humidity');
    });
  });

  it('stores any text of a raw message and any valid key exactly as given', async () => {
    const { db } = ctx.server.app.platform;
    const deviceId = String((await db.selectFrom('wit_device').select('id').where('code', '=', 'QJ-TH-01').executeTakeFirstOrThrow()).id);
    const ts = Date.UTC(2026, 5, 3);
    const payload = '{"note": "a \\"quoted\\" back\\\\slash\\n, 中文, {braces}, NULL, \'single\'"}\u0001 trailing';
    const raw: RawRow = { id: nextId(), tenantId: '100001', deviceId, gatewayId: null, projectId: null, deviceCode: 'QJ-TH-01', topic: 'vigil/100001/device/QJ-TH-01/data', payload, receivedAt: ts, readings: 2, error: '值不是数字: "x"', createTime: '2026-06-03 00:00:00' };
    await ctx.server.app.ingest.writer.write(
      [
        { tenantId: '100001', projectId: null, deviceId, pointKey: 'NULL', ts, value: -1.5e-7, raw: 3 },
        { tenantId: '100001', projectId: null, deviceId, pointKey: 'a.b-c_1', ts, value: 12345.678901234, raw: -0 },
      ],
      raw,
    );
    const stored = await db.selectFrom('wit_collect_data').select(['payload', 'error', 'readings']).where('id', '=', raw.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ payload, error: raw.error, readings: 2 });
    const values = await db.selectFrom('wit_device_log').select(['pointKey', 'value', 'raw']).where('deviceId', '=', deviceId).where('ts', '=', ts).orderBy('pointKey').execute();
    expect(values.map((v) => [v.pointKey, Number(v.value), Number(v.raw)])).toEqual([['NULL', -1.5e-7, 3], ['a.b-c_1', 12345.678901234, 0]]);
  });
});

/**
 * SQLite's writers in one process — Kysely's connection and the series writer's thread — take turns on one lock
 * (server/db/sqlite-driver.ts); reads never wait for it.
 */
const lockOf = (server: TestServer) => {
  const { native } = server.app.platform;
  if (native.dialect !== 'sqlite') throw new Error('a SQLite server');
  return native.writeLock;
};

describe('SQLite writers taking turns', () => {
  let server: TestServer;
  /** Whether a promise has settled, read at any moment. */
  const tracked = (promise: Promise<unknown>) => {
    const state = { done: false };
    void promise.then(() => (state.done = true), () => (state.done = true));
    return state;
  };
  /** Barrier: `n` writers queue for the lock (held by the test, so none of them can have written). */
  const queued = (n: number) => until(() => lockOf(server).waiting === n, 10_000, `${n} writers waiting for the lock`);

  beforeAll(async () => {
    server = await startServer('sqlite');
  });
  afterAll(() => server.stop());

  it('reads while another writer holds the lock; writes and series commits wait for their turn', async () => {
    const { db, native } = server.app.platform;
    if (native.dialect !== 'sqlite') throw new Error('a SQLite server');
    const device = await db.selectFrom('wit_device').select(['id', 'tenantId']).where('code', '=', 'QJ-TH-01').executeTakeFirstOrThrow();
    const ts = Date.UTC(2026, 5, 5);
    await native.writeLock.acquire();
    let update: Promise<unknown>, written: Promise<void>;
    try {
      expect(await db.selectFrom('wit_device').select('code').where('id', '=', device.id).executeTakeFirstOrThrow()).toEqual({ code: 'QJ-TH-01' });
      update = db.updateTable('wit_device').set({ remark: 'after its turn' }).where('id', '=', device.id).execute();
      written = server.app.ingest.writer.write([{ tenantId: String(device.tenantId), projectId: null, deviceId: String(device.id), pointKey: 'humidity', ts, value: 55, raw: 55 }]);
      const [updated, committed] = [tracked(update), tracked(written)];
      await queued(2);
      expect([updated.done, committed.done]).toEqual([false, false]);
    } finally {
      native.writeLock.release();
    }
    await Promise.all([update, written]);
    expect((await db.selectFrom('wit_device').select('remark').where('id', '=', device.id).executeTakeFirstOrThrow()).remark).toBe('after its turn');
    expect(await db.selectFrom('wit_device_log').select('value').where('deviceId', '=', device.id).where('ts', '=', ts).executeTakeFirst()).toEqual({ value: 55 });
  });

  it('lets a transaction that reads, waits and then writes finish while the series writer wants to commit', async () => {
    const { db } = server.app.platform;
    const device = await db.selectFrom('wit_device').select(['id', 'tenantId']).where('code', '=', 'QJ-TH-01').executeTakeFirstOrThrow();
    const ts = Date.UTC(2026, 5, 6);
    const order: string[] = [];
    let written: Promise<void> | undefined;
    await db.transaction().execute(async (trx) => {
      const { remark } = await trx.selectFrom('wit_device').select('remark').where('id', '=', device.id).executeTakeFirstOrThrow();
      written = server.app.ingest.writer.write([{ tenantId: String(device.tenantId), projectId: null, deviceId: String(device.id), pointKey: 'humidity', ts, value: 56, raw: 56 }]).then(() => void order.push('series'));
      // The series commit queues behind the transaction's turn.
      await queued(1);
      // Had the series writer committed meanwhile, this write would fail with SQLITE_BUSY_SNAPSHOT.
      await trx.updateTable('wit_device').set({ remark: `${String(remark)} and again` }).where('id', '=', device.id).execute();
      order.push('transaction');
    });
    await written;
    expect(order).toEqual(['transaction', 'series']);
    expect((await db.selectFrom('wit_device').select('remark').where('id', '=', device.id).executeTakeFirstOrThrow()).remark).toBe('after its turn and again');
  });

  it('lets a burst of small writes through in one turn rather than one series commit each', async () => {
    const { db, native } = server.app.platform;
    if (native.dialect !== 'sqlite') throw new Error('a SQLite server');
    const device = await db.selectFrom('wit_device').select(['id', 'tenantId']).where('code', '=', 'QJ-TH-01').executeTakeFirstOrThrow();
    const order: string[] = [];
    await native.writeLock.acquire();
    // A burst small enough to run inside one turn (WRITE_TURN_MS, 50 ms) even on a machine busy with other suites.
    const updates = Array.from({ length: 5 }, (_, i) =>
      db.updateTable('wit_device').set({ lastSeen: `2026-06-07 00:00:${String(i).padStart(2, '0')}` }).where('id', '=', device.id).execute().then(() => void order.push('update')),
    );
    // Asked for after the updates' turn: it would come between the first two updates, were turns per statement.
    await queued(1);
    const written = server.app.ingest.writer.write([{ tenantId: String(device.tenantId), projectId: null, deviceId: String(device.id), pointKey: 'humidity', ts: Date.UTC(2026, 5, 7), value: 57, raw: 57 }]).then(() => void order.push('series'));
    await queued(2);
    native.writeLock.release();
    await Promise.all([...updates, written]);
    expect(order).toEqual([...updates.map(() => 'update'), 'series']);
  });

  it('gives the lock back when a statement or a commit fails', async () => {
    const { db, native } = server.app.platform;
    if (native.dialect !== 'sqlite') throw new Error('a SQLite server');
    await expect(db.insertInto('wit_device_log').values({ deviceId: null }).execute()).rejects.toThrow();
    await expect(db.transaction().execute(async (trx) => {
      await trx.updateTable('wit_device').set({ remark: 'rolled back' }).where('code', '=', 'QJ-TH-01').execute();
      throw new Error('undo');
    })).rejects.toThrow('undo');
    // Free again: nobody queued, and the next turn is granted at once.
    expect(native.writeLock.waiting).toBe(0);
    const acquired = tracked(native.writeLock.acquire());
    await until(() => acquired.done, 1000, 'the lock to be granted');
    native.writeLock.release();
    expect((await db.selectFrom('wit_device').select('remark').where('code', '=', 'QJ-TH-01').executeTakeFirstOrThrow()).remark).toBe('after its turn and again');
  });
});
