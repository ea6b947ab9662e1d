import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database, Db, DialectName } from '../../../server/db/database';
import { migrateTo, migrateToLatest } from '../../../server/db/migrate';
import { nextId } from '../../../server/ids';
import { formatDateTime } from '../../../server/time';
import { storeKinds, withFreshStore } from '../../support/databases';
import type { Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { DEMO, demoId, submit } from '../monitoring/support';
import { emit, reading } from './support';

/**
 * The notification outbox (docs/alarms.md "Exactly once"): the sender claims a delivery by its id. A delivery that
 * cannot be claimed — SQLite allowed one without an id before migration 0020 — used to be selected again at once,
 * forever: the sender's pass never ended and nothing due after it went out. Now no store accepts a delivery without
 * an id, and a pass moves past every row it has tried.
 */

/** An outbox row of `alarm`, due now unless `dueAt` says otherwise. */
function delivery(alarm: Row, values: Record<string, unknown>): Record<string, unknown> {
  const now = formatDateTime();
  return {
    id: nextId(),
    tenantId: DEMO,
    alarmId: alarm.id,
    projectId: alarm.projectId,
    revision: alarm.revision,
    round: 0,
    channel: 'notice',
    state: 0,
    attempts: 0,
    dueAt: Date.now() - 60_000,
    createTime: now,
    updateTime: now,
    status: 1,
    isDeleted: 0,
    ...values,
  };
}

/**
 * Makes the claim of rows whose person key starts with `stuck:` change nothing, as a claim that loses does: a trigger
 * skips the update of such a row (SQLite RAISE(IGNORE), PostgreSQL a BEFORE trigger returning NULL).
 */
async function makeUnclaimable(db: Db, dialect: DialectName): Promise<() => Promise<void>> {
  if (dialect === 'sqlite') {
    await sql`create trigger test_unclaimable before update on wit_alarm_delivery when old.person_key like 'stuck:%' begin select raise(ignore); end`.execute(db);
    return async () => void (await sql`drop trigger test_unclaimable`.execute(db));
  }
  await sql`create function test_unclaimable() returns trigger language plpgsql as $$
    begin if old.person_key like 'stuck:%' then return null; end if; return new; end $$`.execute(db);
  await sql`create trigger test_unclaimable before update on wit_alarm_delivery for each row execute function test_unclaimable()`.execute(db);
  return async () => {
    await sql`drop trigger test_unclaimable on wit_alarm_delivery`.execute(db);
    await sql`drop function test_unclaimable()`.execute(db);
  };
}

onEveryStore('the alarm outbox', { signIn: ['demo'] }, (ctx) => {
  let restore: (() => Promise<void>) | undefined;
  afterAll(async () => restore?.());

  it('ends a pass past deliveries it cannot claim, and sends the ones behind them', async () => {
    const { db, dialect } = ctx.server.app.platform;
    const notifier = ctx.server.app.alarms.notifier;
    // An alarm with nobody to tell (no strategy): the rows below are the whole outbox of it.
    const code = 'QJ-CRACK-02';
    await submit(ctx.demo, 'devicethreshold', { targetType: 1, deviceId: demoId(`device:${code}`), pointKey: 'crack', level1Upper: 1000, level4Upper: 10 });
    await emit(ctx.server, [reading(code, 'crack', 50)]);
    const alarm = (await db.selectFrom('wit_alarm').selectAll().where('deviceId', '=', demoId(`device:${code}`)).executeTakeFirstOrThrow()) as Row;
    const admin = await db.selectFrom('blade_user').select('id').where('tenantId', '=', DEMO).where('account', '=', 'admin').executeTakeFirstOrThrow();

    // More unclaimable rows than one select takes (50), all due before the one that can go out.
    restore = await makeUnclaimable(db, dialect);
    const early = Date.now() - 3_600_000;
    const stuck = Array.from({ length: 120 }, (_, i) => delivery(alarm, { personKey: `stuck:${i}`, userId: admin.id, dueAt: early + i }));
    await db.insertInto('wit_alarm_delivery').values(stuck).execute();
    const free = delivery(alarm, { personKey: `u:${admin.id}`, userId: admin.id });
    await db.insertInto('wit_alarm_delivery').values(free).execute();

    notifier.kick();
    // Resolves only when the pass has ended: a pass that selected its unclaimable rows again would never end.
    await notifier.idle();
    const sent = await db.selectFrom('wit_alarm_delivery').select(['state', 'attempts']).where('id', '=', String(free.id)).executeTakeFirstOrThrow();
    expect([Number(sent.state), Number(sent.attempts)]).toEqual([1, 1]);
    const logged = await db.selectFrom('wit_alarm_send_log').select(['userId', 'channel', 'success']).where('alarmId', '=', String(alarm.id)).execute();
    expect(logged.map((l) => `${l.userId}|${l.channel}|${l.success}`)).toEqual([`${admin.id}|notice|1`]);
    // The unclaimable rows are still waiting, untouched, for a pass that can claim them.
    const waiting = await db.selectFrom('wit_alarm_delivery').select('state').where('personKey', 'like', 'stuck:%').execute();
    expect(waiting.map((w) => Number(w.state))).toEqual(stuck.map(() => 0));

    // Once they can be claimed, the next pass sends them.
    await restore();
    restore = undefined;
    notifier.kick();
    await notifier.idle();
    const after = await db.selectFrom('wit_alarm_delivery').select('state').where('personKey', 'like', 'stuck:%').execute();
    expect(new Set(after.map((w) => Number(w.state)))).toEqual(new Set([1]));
  });

  // Last: it restarts the suite's server.
  it('sends at its next start what a sender that died mid-send had claimed, and leaves a recent claim to its sender', async () => {
    const { db } = ctx.server.app.platform;
    const code = 'QJ-TILT-01';
    await submit(ctx.demo, 'devicethreshold', { targetType: 1, deviceId: demoId(`device:${code}`), pointKey: 'tilt_x', level1Upper: 1000, level4Upper: 0.1 });
    await emit(ctx.server, [reading(code, 'tilt_x', 0.5)]);
    const alarm = (await db.selectFrom('wit_alarm').selectAll().where('deviceId', '=', demoId(`device:${code}`)).executeTakeFirstOrThrow()) as Row;
    const admin = await db.selectFrom('blade_user').select('id').where('tenantId', '=', DEMO).where('account', '=', 'admin').executeTakeFirstOrThrow();
    // Claimed (state 4) six minutes ago by a process that died, and a minute ago by one still sending.
    const dead = delivery(alarm, { personKey: `u:${admin.id}`, userId: admin.id, state: 4, claimedAt: Date.now() - 6 * 60_000 });
    const busy = delivery(alarm, { personKey: 'u:busy', userId: admin.id, state: 4, claimedAt: Date.now() - 60_000 });
    await db.insertInto('wit_alarm_delivery').values([dead, busy]).execute();

    const server = await ctx.server.restart();
    try {
      await server.app.alarms.notifier.idle();
      const states = await server.app.platform.db.selectFrom('wit_alarm_delivery').select(['id', 'state', 'attempts']).where('id', 'in', [String(dead.id), String(busy.id)]).execute();
      expect(new Map(states.map((d) => [d.id, [Number(d.state), Number(d.attempts)]]))).toEqual(
        new Map([
          [dead.id, [1, 1]],
          [busy.id, [4, 0]],
        ]),
      );
      const logged = await server.app.platform.db.selectFrom('wit_alarm_send_log').select(['userId', 'channel', 'success']).where('alarmId', '=', String(alarm.id)).execute();
      expect(logged.map((l) => `${l.userId}|${l.channel}|${l.success}`)).toEqual([`${admin.id}|notice|1`]);
    } finally {
      await server.stop();
    }
  });
});

describe.each(await storeKinds())('outbox ids after migration 0020, on %s', (store) => {
  const withDatabase = (run: (database: Database) => Promise<void>) => withFreshStore(store, run);

  const insert = (db: Db, id: string | null, personKey: string) =>
    sql`insert into wit_alarm_delivery (id, tenant_id, alarm_id, revision, round, person_key, channel, state, attempts, due_at)
        values (${id}, '100001', 'A1', 1, 0, ${personKey}, 'notice', 0, 0, 1)`.execute(db);

  it('gives a delivery stored without an id one, and takes no delivery without an id any more', () =>
    withDatabase(async ({ db, dialect }) => {
      await migrateTo(db, '0019_workflow');
      await insert(db, 'D1', 'u:1');
      // Only SQLite took a delivery without an id (a text primary key may hold NULL there).
      if (dialect === 'sqlite') await insert(db, null, 'u:2');
      else await expect(insert(db, null, 'u:2')).rejects.toThrow();
      await migrateToLatest(db);

      const rows = await db.selectFrom('wit_alarm_delivery').select(['id', 'personKey']).orderBy('personKey').execute();
      expect(rows.map((r) => r.personKey)).toEqual(dialect === 'sqlite' ? ['u:1', 'u:2'] : ['u:1']);
      expect(rows[0].id).toBe('D1');
      for (const row of rows) expect(row.id).toMatch(/^\d+$|^D1$/);
      await expect(insert(db, null, 'u:3')).rejects.toThrow(/null|NOT NULL/i);
      // The outbox's unique key and indexes are as 0006 made them.
      await expect(insert(db, 'D2', 'u:1')).rejects.toThrow(/unique|duplicate/i);
    }));
});
