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
 * - Indexes for alarms by tenant and time: the board groups a year of them by day and level, and by device.
 *
 * Points stored before this migration are counted here once, by the local day of their time.
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
  // The platform administrator's board over every tenant.
  await db.schema.createIndex('wit_presence_sample_at_idx').on('wit_presence_sample').columns(['grain', 'at']).execute();
  // A purge finds a project's samples.
  await db.schema.createIndex('wit_presence_sample_project_idx').on('wit_presence_sample').columns(['project_id']).execute();
  await db.schema.createIndex('wit_project_points_project_idx').on('wit_project_points').columns(['project_id']).execute();

  // The board: alarms raised in a range, by day and level, by project and device (covering: no row is read).
  await db.schema
    .createIndex('wit_alarm_raised_idx')
    .on('wit_alarm')
    .columns(['tenant_id', 'is_deleted', 'first_time', 'alarm_level', 'project_id', 'device_id'])
    .execute();
  // The home: open alarms by level and handling.
  await db.schema
    .createIndex('wit_alarm_state_idx')
    .on('wit_alarm')
    .columns(['tenant_id', 'is_deleted', 'alarm_state', 'alarm_level', 'handle_state', 'project_id'])
    .execute();
  // The home: the latest alarm changes.
  await db.schema.createIndex('wit_alarm_changed_idx').on('wit_alarm').columns(['tenant_id', 'update_time']).execute();

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
