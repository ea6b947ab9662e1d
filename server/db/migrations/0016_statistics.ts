import { type CreateTableBuilder, type Kysely, SqliteAdapter, sql } from 'kysely';

/**
 * Figures of the home and the data board that must be cheap (docs/statistics.md):
 *
 * - Data points per device and per project per day, counted by the writers of the series in the transaction that
 *   stores them (server/db/tally.cjs). One row per device (or project) and month holds the month's 31 daily counts
 *   and their total: a year of 2,000 devices is 26,000 rows instead of 730,000 (one per device and day), which
 *   measured 167 ms to sum on SQLite against a target of 100 ms for the whole board. The project rows answer the
 *   board's points per day (a few hundred rows a year); the device rows the home's points today and the most active
 *   monitor points. `project_id` '0' is "no project".
 * - The online rate over time: every 10 minutes a sample per tenant and project of how many live devices there are
 *   and how many are online (server/ingest/presence-sampler.ts). `grain` says which clock boundary the sample falls
 *   on (0 ten minutes, 1 the hour, 2 six hours, 3 midnight), so a long range reads only the samples it shows.
 * - Alarms raised per day (by `first_time`), in the same month rows: per tenant, project and level, and per device.
 *   Grouping a year of alarms (100,000) by day and level read every one of them, 100-400 ms on SQLite; the counters
 *   are a thousand rows. Triggers on wit_alarm keep them (as those of the rollups, migration 0011), so every writer —
 *   the engine, a person, a move, a purge — counts alike, and a change of level, project or tenant moves the count.
 *   A count is taken back by an update only (never inserted negative), so a purge may delete counters and alarms in
 *   any order.
 * - Indexes for the home's open alarms and latest alarm changes.
 *
 * Points and alarms stored before this migration are counted here once.
 */

const DAYS = Array.from({ length: 31 }, (_, i) => `d${i + 1}`);

// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  // Read by their key prefix: SQLite stores them in key order.
  type Table = CreateTableBuilder<string, string>;
  const withoutRowid = (table: Table) => (sqlite ? table.modifyEnd(sql`without rowid`) : table);
  const counts = (table: Table): Table => {
    let out = table.addColumn('month', 'varchar(7)', (col) => col.notNull()).addColumn('total', 'bigint', (col) => col.notNull().defaultTo(0));
    for (const day of DAYS) out = out.addColumn(day, 'bigint', (col) => col.notNull().defaultTo(0));
    return out;
  };

  await withoutRowid(
    counts(db.schema.createTable('wit_device_points').addColumn('device_id', 'varchar(20)', (col) => col.notNull())).addPrimaryKeyConstraint('wit_device_points_pk', [
      'device_id',
      'month',
    ]),
  ).execute();
  await withoutRowid(
    counts(
      db.schema
        .createTable('wit_project_points')
        .addColumn('tenant_id', 'varchar(12)', (col) => col.notNull())
        .addColumn('project_id', 'varchar(20)', (col) => col.notNull()),
    ).addPrimaryKeyConstraint('wit_project_points_pk', ['tenant_id', 'project_id', 'month']),
  ).execute();

  await withoutRowid(
    db.schema
      .createTable('wit_presence_sample')
      .addColumn('tenant_id', 'varchar(12)', (col) => col.notNull())
      .addColumn('grain', 'integer', (col) => col.notNull())
      .addColumn('at', 'bigint', (col) => col.notNull())
      .addColumn('project_id', 'varchar(20)', (col) => col.notNull())
      .addColumn('devices', 'integer', (col) => col.notNull())
      .addColumn('online', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('wit_presence_sample_pk', ['tenant_id', 'grain', 'at', 'project_id']),
  ).execute();
  // The platform administrator's board over every tenant. Deliberately none by project: with one, SQLite read every
  // sample of each project the caller sees (2.4 s for a 30-day board of 20 projects) instead of the range; a purge's
  // chunks scan instead, once in a long while.
  await db.schema.createIndex('wit_presence_sample_at_idx').on('wit_presence_sample').columns(['grain', 'at']).execute();

  await withoutRowid(
    counts(
      db.schema
        .createTable('wit_alarm_counts')
        .addColumn('tenant_id', 'varchar(12)', (col) => col.notNull())
        .addColumn('project_id', 'varchar(20)', (col) => col.notNull())
        .addColumn('alarm_level', 'integer', (col) => col.notNull()),
    ).addPrimaryKeyConstraint('wit_alarm_counts_pk', ['tenant_id', 'project_id', 'alarm_level', 'month']),
  ).execute();
  await withoutRowid(
    counts(db.schema.createTable('wit_device_alarms').addColumn('device_id', 'varchar(20)', (col) => col.notNull())).addPrimaryKeyConstraint('wit_device_alarms_pk', [
      'device_id',
      'month',
    ]),
  ).execute();
  await countAlarmsByTriggers(db, sqlite);

  // The home: open alarms by level and handling.
  await db.schema
    .createIndex('wit_alarm_state_idx')
    .on('wit_alarm')
    .columns(['tenant_id', 'is_deleted', 'alarm_state', 'alarm_level', 'handle_state', 'project_id'])
    .execute();
  // The home: the latest alarm changes.
  await db.schema.createIndex('wit_alarm_changed_idx').on('wit_alarm').columns(['tenant_id', 'update_time']).execute();

  await countStoredAlarms(db);
  await countStoredPoints(db, sqlite);
}

/** The local day (yyyy-MM-dd) of an epoch-ms column, in the server's time zone, as the writers count it. */
function localDay(sqlite: boolean) {
  if (sqlite) return sql<string>`date(ts / 1000, 'unixepoch', 'localtime')`;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return sql<string>`to_char(to_timestamp(ts / 1000.0) at time zone ${zone}, 'YYYY-MM-DD')`;
}

/** Counts the points already in the series, a few hundred devices at a time, under each device's project. */
async function countStoredPoints(db: Kysely<any>, sqlite: boolean): Promise<void> {
  // Result columns come back camelCased (the database's CamelCasePlugin).
  const devices = (await sql<{ deviceId: string }>`select distinct device_id from wit_device_log`.execute(db)).rows.map((r) => r.deviceId);
  const projects = new Map<string, number[]>();
  for (let i = 0; i < devices.length; i += 200) {
    const slice = devices.slice(i, i + 200);
    // Grouped by position: PostgreSQL would see the day's time-zone parameter twice as two expressions.
    const day = localDay(sqlite);
    const rows = (
      await sql<{ deviceId: string; tenantId: string | null; projectId: string | null; day: string; n: number | string }>`
        select l.device_id, d.tenant_id, d.project_id, ${day} as day, count(*) as n
        from wit_device_log l left join wit_device d on d.id = l.device_id
        where l.device_id in (${sql.join(slice)})
        group by 1, 2, 3, 4`.execute(db)
    ).rows;
    const months = new Map<string, number[]>();
    for (const r of rows) {
      const month = r.day.slice(0, 7);
      const index = Number(r.day.slice(8, 10));
      add(months, [r.deviceId, month], index, Number(r.n));
      // Points of a device whose row is gone have no tenant to count them under.
      if (r.tenantId) add(projects, [r.tenantId, r.projectId ?? '0', month], index, Number(r.n));
    }
    await insertCounts(db, 'wit_device_points', ['deviceId', 'month'], months);
  }
  await insertCounts(db, 'wit_project_points', ['tenantId', 'projectId', 'month'], projects);
}

/** Adds `n` to day `index` (1…31) of the row keyed by `key`: [total, d1…d31]. */
function add(rows: Map<string, number[]>, key: string[], index: number, n: number): void {
  const id = key.join('\u0000');
  let counts = rows.get(id);
  if (!counts) {
    counts = new Array(32).fill(0);
    rows.set(id, counts);
  }
  counts[0] += n;
  counts[index] += n;
}

async function insertCounts(db: Kysely<any>, table: string, keys: string[], rows: Map<string, number[]>): Promise<void> {
  const values = [...rows].map(([id, counts]) => {
    const row: Record<string, unknown> = Object.fromEntries(id.split('\u0000').map((value, i) => [keys[i], value]));
    row.total = counts[0];
    DAYS.forEach((day, i) => {
      row[day] = counts[i + 1];
    });
    return row;
  });
  // 34 or 35 parameters a row: far below both databases' limits.
  for (let i = 0; i < values.length; i += 500) await db.insertInto(table).values(values.slice(i, i + 500)).execute();
}

/** What counts an alarm row: live, with a first time. */
const COUNTED = (row: 'new' | 'old') => `${row}.is_deleted = 0 and ${row}.first_time is not null`;
/** The columns whose change moves an alarm's count. */
const COUNTED_COLUMNS = 'tenant_id, project_id, device_id, alarm_level, first_time, is_deleted';

/**
 * The statements of a trigger that add `delta` (1 or -1) for the alarm row `row` ('new', 'old' in SQLite; a record in
 * PL/pgSQL): an increment is an upsert, a decrement an update.
 */
function alarmCountStatements(row: string, delta: 1 | -1): string[] {
  const day = `cast(substr(${row}.first_time, 9, 2) as integer)`;
  const month = `substr(${row}.first_time, 1, 7)`;
  // One for the alarm's day, nought for the others.
  const ones = ['1', ...DAYS.map((_, i) => `case when ${day} = ${i + 1} then 1 else 0 end`)];
  const columns = ['total', ...DAYS];
  const counters = [
    { table: 'wit_alarm_counts', key: ['tenant_id', 'project_id', 'alarm_level', 'month'], values: [`${row}.tenant_id`, `coalesce(${row}.project_id, '0')`, `${row}.alarm_level`, month] },
    { table: 'wit_device_alarms', key: ['device_id', 'month'], values: [`${row}.device_id`, month] },
  ];
  return counters.map(({ table, key, values }) => {
    if (delta < 0) {
      const where = key.map((k, i) => `${k} = ${values[i]}`).join(' and ');
      return `update ${table} set ${columns.map((c, i) => `${c} = ${c} - (${ones[i]})`).join(', ')} where ${where}`;
    }
    const added = columns.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ');
    return `insert into ${table} (${[...key, ...columns].join(', ')}) values (${[...values, ...ones].join(', ')}) on conflict (${key.join(', ')}) do update set ${added}`;
  });
}

/** The triggers that keep the alarm counters (SQLite: row triggers; PostgreSQL: a row trigger function). */
async function countAlarmsByTriggers(db: Kysely<any>, sqlite: boolean): Promise<void> {
  if (sqlite) {
    const body = (row: 'new' | 'old', delta: 1 | -1) => alarmCountStatements(row, delta).map((statement) => `${statement};`).join(' ');
    await sql.raw(`create trigger wit_alarm_counted after insert on wit_alarm when ${COUNTED('new')} begin ${body('new', 1)} end`).execute(db);
    await sql.raw(`create trigger wit_alarm_uncounted after delete on wit_alarm when ${COUNTED('old')} begin ${body('old', -1)} end`).execute(db);
    await sql.raw(`create trigger wit_alarm_recounted_old after update of ${COUNTED_COLUMNS} on wit_alarm when ${COUNTED('old')} begin ${body('old', -1)} end`).execute(db);
    await sql.raw(`create trigger wit_alarm_recounted_new after update of ${COUNTED_COLUMNS} on wit_alarm when ${COUNTED('new')} begin ${body('new', 1)} end`).execute(db);
    return;
  }
  const plpgsql = (row: 'new' | 'old', delta: 1 | -1) => alarmCountStatements(row, delta).map((statement) => `${statement};`).join('\n');
  await sql
    .raw(
      `create function wit_alarm_count() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') and ${COUNTED('old')} then ${plpgsql('old', -1)} end if;
        if tg_op in ('INSERT', 'UPDATE') and ${COUNTED('new')} then ${plpgsql('new', 1)} end if;
        return null;
      end $$`,
    )
    .execute(db);
  await sql.raw(`create trigger wit_alarm_counted after insert or delete or update of ${COUNTED_COLUMNS} on wit_alarm for each row execute function wit_alarm_count()`).execute(db);
}

/** Counts the alarms already stored, by the day of their first time. */
async function countStoredAlarms(db: Kysely<any>): Promise<void> {
  const rows = (
    await sql<{ tenantId: string; projectId: string | null; deviceId: string; alarmLevel: number; day: string; n: number | string }>`
      select tenant_id, project_id, device_id, alarm_level, substr(first_time, 1, 10) as day, count(*) as n
      from wit_alarm where is_deleted = 0 and first_time is not null
      group by 1, 2, 3, 4, 5`.execute(db)
  ).rows;
  const levels = new Map<string, number[]>();
  const devices = new Map<string, number[]>();
  for (const r of rows) {
    const [month, index] = [r.day.slice(0, 7), Number(r.day.slice(8, 10))];
    add(levels, [r.tenantId, r.projectId ?? '0', String(r.alarmLevel), month], index, Number(r.n));
    add(devices, [r.deviceId, month], index, Number(r.n));
  }
  await insertCounts(db, 'wit_alarm_counts', ['tenantId', 'projectId', 'alarmLevel', 'month'], levels);
  await insertCounts(db, 'wit_device_alarms', ['deviceId', 'month'], devices);
}
