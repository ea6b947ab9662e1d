import { sql } from 'kysely';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Database, Db, DialectName } from '../../../server/db/database';
import { migrateTo, migrateToLatest } from '../../../server/db/migrate';
import { seedId } from '../../../server/db/seed/ids';
import { nextId } from '../../../server/ids';
import { formatDateTime } from '../../../server/time';
import { storeKinds, withFreshStore } from '../../support/databases';
import type { Row } from '../../support/envelope';
import { failWrites, loggedErrors, takeLoggedErrors } from '../../support/failures';
import { onEveryStore } from '../../support/suite';
import { settled } from '../../support/wait';
import { DEMO, demoId, submit } from '../monitoring/support';
import { figure, scrape } from '../ops/support';
import { emit, reading, startReceiver } from './support';

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

/** The demo tenant's administrator, the one person the tests' rows name. */
const ADMIN = seedId(`user:${DEMO}:admin`);

onEveryStore('the alarm outbox', { signIn: ['demo'] }, (ctx) => {
  let restore: (() => Promise<void>) | undefined;
  afterAll(async () => restore?.());
  // A pass that fails unexpectedly is logged and ends: no test here leaves such a failure behind (the restart test
  // checks the server it started itself).
  let restarted = false;
  afterEach(async () => {
    if (!restarted) expect(await loggedErrors(ctx.server, 'alarm')).toEqual([]);
  });

  /** An alarm with nobody to tell (no strategy): the rows a test adds are the whole outbox of it. */
  const quietAlarm = async (code: string, pointKey: string): Promise<Row> => {
    await submit(ctx.demo, 'devicethreshold', { targetType: 1, deviceId: demoId(`device:${code}`), pointKey, level1Upper: 1000, level4Upper: 0.1 });
    await emit(ctx.server, [reading(code, pointKey, 50)]);
    const db = ctx.server.app.platform.db;
    return (await db.selectFrom('wit_alarm').selectAll().where('deviceId', '=', demoId(`device:${code}`)).where('pointKey', '=', pointKey).executeTakeFirstOrThrow()) as Row;
  };

  /** A webhook delivery of `alarm` under way: resolves once its receiver holds the request (the sender is mid-send). */
  const heldSend = async (alarm: Row, name: string) => {
    const hook = await startReceiver(undefined, { held: true });
    const gateway = await submit(ctx.demo, 'alarmrecipient', { name, webhookUrl: hook.url, channels: 'webhook' });
    const slow = delivery(alarm, { personKey: `r:${gateway.id}`, recipientId: gateway.id, channel: 'webhook' });
    await ctx.server.app.platform.db.insertInto('wit_alarm_delivery').values(slow).execute();
    ctx.server.app.alarms.notifier.kick();
    await hook.arrived;
    return { hook, slow };
  };

  it('ends a pass past deliveries it cannot claim, and sends the ones behind them', async () => {
    const { db, dialect } = ctx.server.app.platform;
    const notifier = ctx.server.app.alarms.notifier;
    const alarm = await quietAlarm('QJ-CRACK-02', 'crack');

    // More unclaimable rows than one select takes (50), all due before the one that can go out.
    restore = await makeUnclaimable(db, dialect);
    const early = Date.now() - 3_600_000;
    const stuck = Array.from({ length: 120 }, (_, i) => delivery(alarm, { personKey: `stuck:${i}`, userId: ADMIN, dueAt: early + i }));
    await db.insertInto('wit_alarm_delivery').values(stuck).execute();
    const free = delivery(alarm, { personKey: `u:${ADMIN}`, userId: ADMIN });
    await db.insertInto('wit_alarm_delivery').values(free).execute();

    notifier.kick();
    // Resolves only when the pass has ended: a pass that selected its unclaimable rows again would never end.
    await notifier.idle();
    const sent = await db.selectFrom('wit_alarm_delivery').select(['state', 'attempts']).where('id', '=', String(free.id)).executeTakeFirstOrThrow();
    expect([Number(sent.state), Number(sent.attempts)]).toEqual([1, 1]);
    const logged = await db.selectFrom('wit_alarm_send_log').select(['userId', 'channel', 'success']).where('alarmId', '=', String(alarm.id)).execute();
    expect(logged.map((l) => `${l.userId}|${l.channel}|${l.success}`)).toEqual([`${ADMIN}|notice|1`]);
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

  it('runs another pass when woken during one, for what became due behind it', async () => {
    const { db } = ctx.server.app.platform;
    const notifier = ctx.server.app.alarms.notifier;
    const alarm = await quietAlarm('QJ-HLS-01', 'settlement');
    const { hook, slow } = await heldSend(alarm, '慢网关');
    try {
      // Due before the delivery under way: the pass has moved past it and does not look back.
      const behind = delivery(alarm, { personKey: `u:${ADMIN}`, userId: ADMIN, dueAt: Number(slow.dueAt) - 60_000 });
      await db.insertInto('wit_alarm_delivery').values(behind).execute();
      notifier.kick();
      hook.release();
      // Idle once the pass it was woken for has ended too.
      await notifier.idle();
      const states = await db.selectFrom('wit_alarm_delivery').select(['id', 'state']).where('id', 'in', [String(slow.id), String(behind.id)]).execute();
      expect(new Map(states.map((d) => [d.id, Number(d.state)]))).toEqual(
        new Map([
          [slow.id, 1],
          [behind.id, 1],
        ]),
      );
    } finally {
      hook.release();
      await hook.close();
    }
  });

  it("resolves the alarms' idle only once the send under way is done", async () => {
    const { db } = ctx.server.app.platform;
    const alarm = await quietAlarm('QJ-TILT-02', 'tilt_x');
    const { hook, slow } = await heldSend(alarm, '等候网关');
    try {
      const idle = ctx.server.app.alarms.idle();
      // The send is held at its receiver: nothing ends it, so an idle that waits has not settled.
      const held = await db.selectFrom('wit_alarm_delivery').select('state').where('id', '=', String(slow.id)).executeTakeFirstOrThrow();
      expect(Number(held.state)).toBe(4);
      expect(await settled(idle)).toBe(false);
      hook.release();
      await idle;
      // Nothing polled: an idle that had not waited would see the delivery still under way.
      const done = await db.selectFrom('wit_alarm_delivery').select('state').where('id', '=', String(slow.id)).executeTakeFirstOrThrow();
      expect(Number(done.state)).toBe(1);
    } finally {
      hook.release();
      await hook.close();
    }
  });

  it('logs a send whose outcome the store refuses, and leaves its claim to the next start', async () => {
    const { db } = ctx.server.app.platform;
    const notifier = ctx.server.app.alarms.notifier;
    const alarm = await quietAlarm('QJ-CRACK-01', 'crack');
    const notice = delivery(alarm, { personKey: `u:${ADMIN}`, userId: ADMIN });
    await db.insertInto('wit_alarm_delivery').values(notice).execute();
    const restore = await failWrites(ctx.server, 'wit_alarm_send_log', `new.alarm_id = '${alarm.id}'`);
    try {
      notifier.kick();
      await notifier.idle();
    } finally {
      await restore();
    }
    expect(await takeLoggedErrors(ctx.server, 'alarm')).toEqual([expect.stringContaining('storage failure')]);
    // Sent, but with no outcome stored it stays claimed: a restart's reclaim sends it again (at least once).
    const row = await db.selectFrom('wit_alarm_delivery').select(['state', 'attempts']).where('id', '=', String(notice.id)).executeTakeFirstOrThrow();
    expect([Number(row.state), Number(row.attempts)]).toEqual([4, 0]);
  });

  // It stops the suite's sender; the test after it restarts the server.
  it('counts what waits in its backlog, and once stopped finishes the send under way, waits for it and sends nothing more', async () => {
    const { db } = ctx.server.app.platform;
    const notifier = ctx.server.app.alarms.notifier;
    const backlog = async () => figure((await scrape(ctx.server.url, ctx.server.app.platform.config.metricsToken)).text, 'vigil_notifier_backlog');
    const stateOf = async (row: Record<string, unknown>) =>
      Number((await db.selectFrom('wit_alarm_delivery').select('state').where('id', '=', String(row.id)).executeTakeFirstOrThrow()).state);
    // Besides what earlier tests left claimed.
    const before = await backlog();

    const alarm = await quietAlarm('QJ-HLS-02', 'settlement');
    const { hook, slow } = await heldSend(alarm, '停机网关');
    try {
      // Due behind the send under way, in the same pass's next select.
      const later = delivery(alarm, { personKey: `u:${ADMIN}`, userId: ADMIN, dueAt: Number(slow.dueAt) + 1 });
      await db.insertInto('wit_alarm_delivery').values(later).execute();
      expect((await backlog()) - before).toBe(2); // one being sent, one waiting

      let stopped = false;
      const stopping = notifier.stop().then(() => {
        stopped = true;
      });
      // A stop that did not wait for the send would have ended within this read (nothing else of it waits).
      expect(await stateOf(slow)).toBe(4);
      expect(stopped).toBe(false);
      hook.release();
      await stopping;
      expect(await stateOf(slow)).toBe(1);
      // The pass ended at its next select; a kick of a stopped sender starts none.
      notifier.kick();
      await notifier.idle();
      expect(await stateOf(later)).toBe(0);
      expect((await backlog()) - before).toBe(1);
    } finally {
      hook.release();
      await hook.close();
    }
  });

  // Last: it restarts the suite's server.
  it('sends at its next start what a sender that died mid-send had claimed, and leaves a recent claim to its sender', async () => {
    const { db } = ctx.server.app.platform;
    const alarm = await quietAlarm('QJ-TILT-01', 'tilt_x');
    // Claimed (state 4) six minutes ago by a process that died, and a minute ago by one still sending.
    const dead = delivery(alarm, { personKey: `u:${ADMIN}`, userId: ADMIN, state: 4, claimedAt: Date.now() - 6 * 60_000 });
    const busy = delivery(alarm, { personKey: 'u:busy', userId: ADMIN, state: 4, claimedAt: Date.now() - 60_000 });
    await db.insertInto('wit_alarm_delivery').values([dead, busy]).execute();

    restarted = true;
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
      expect(logged.map((l) => `${l.userId}|${l.channel}|${l.success}`)).toEqual([`${ADMIN}|notice|1`]);
      expect(await loggedErrors(server, 'alarm')).toEqual([]);
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
