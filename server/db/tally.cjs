// Counting the points the series stores (docs/statistics.md "Counters"), shared by every writer of the series: the
// writer threads (sqlite-writer.worker.cjs, postgres-writer.worker.cjs) and the main thread (server/series/store.ts).
// Plain CommonJS so the threads load it as it is under every loader (tsx, vitest, node).
//
// A point is counted once, when it is first stored (a row written again over a stored one is not), under the local
// day of its own time: per device and per project (`'0'`: none) and month, one counter a day (`d1`…`d31`) and their
// total. Counters of one batch are summed first, so a batch adds to a counter row once per day counted, not per point.

const DAYS = Array.from({ length: 31 }, (_, i) => `d${i + 1}`);

/**
 * The counter tables and their keys (migration 0016). A striped table has a row per stripe of each key (migration
 * 0028): every batch of a project's devices adds to its project's row, and PostgreSQL's writer commits batches side
 * by side, each connection to a stripe of its own, so that none waits for another's commit there. Other writers add
 * to stripe 0 (the column's default); readers sum the stripes. A device's row is not striped: a device reading every
 * few seconds is in one batch at a time (docs/statistics.md "Stripes").
 */
const COUNTERS = [
  { table: 'wit_device_points', key: ['device_id', 'month'], striped: false },
  { table: 'wit_project_points', key: ['tenant_id', 'project_id', 'month'], striped: true },
];

/** The columns a counter row is unique by: its key, and its stripe where it has one. */
const uniqueBy = (counter) => (counter.striped ? [...counter.key, 'stripe'] : counter.key);

/** "No project" in wit_project_points and wit_presence_sample (a key column cannot be null). */
const NO_PROJECT = '0';
/** The whole tenant in wit_presence_sample. */
const ALL_PROJECTS = '*';

const pad = (n) => String(n).padStart(2, '0');

/** The day last asked for: points of a batch mostly share it. */
let last = { from: 0, to: -1, month: '', day: 0 };

/** The local month (yyyy-MM) and day of the month (1…31) of an epoch-ms instant, in the process's time zone. */
function monthDay(ts) {
  if (ts >= last.from && ts < last.to) return last;
  const date = new Date(ts);
  const [y, m, d] = [date.getFullYear(), date.getMonth(), date.getDate()];
  last = { from: new Date(y, m, d).getTime(), to: new Date(y, m, d + 1).getTime(), month: `${y}-${pad(m + 1)}`, day: d };
  return last;
}

/** The row of `key` in `rows` ([...key, total, d1…d31]), made when missing. */
function rowOf(rows, key) {
  const id = key.join('\u0000');
  let row = rows.get(id);
  if (!row) {
    row = [...key, ...new Array(32).fill(0)];
    rows.set(id, row);
  }
  return row;
}

/** Rows in key order: writers committing side by side then lock them in the same order and never deadlock. */
function sorted(rows) {
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/** The points one transaction stores for the first time. */
class Tally {
  constructor() {
    this.devices = new Map();
    this.projects = new Map();
    // The rows of the last point's device, project and day: a batch's points come device by device.
    this.last = { device: undefined, project: undefined, tenant: undefined, from: 0, to: -1 };
  }

  /** One new point of `device` (of `tenant`, and of `project` or none) at `ts`. */
  add(device, tenant, project, ts) {
    const last = this.last;
    const proj = project || NO_PROJECT;
    if (device !== last.device || proj !== last.project || tenant !== last.tenant || ts < last.from || ts >= last.to) {
      const when = monthDay(ts);
      this.last = {
        device,
        project: proj,
        tenant,
        from: when.from,
        to: when.to,
        // Total, then the day's column: indexes into the rows below.
        day: when.day,
        deviceRow: rowOf(this.devices, [device, when.month]),
        projectRow: rowOf(this.projects, [tenant, proj, when.month]),
      };
    }
    const { deviceRow, projectRow, day } = this.last;
    deviceRow[2] += 1;
    deviceRow[2 + day] += 1;
    projectRow[3] += 1;
    projectRow[3 + day] += 1;
  }

  get empty() {
    return this.devices.size === 0;
  }

  /** The rows to add, per table of COUNTERS, each [...key, total, d1…d31] in key order. */
  rows() {
    return [sorted(this.devices), sorted(this.projects)];
  }

  /**
   * The same as [...key, day, count] per day counted, in key order: what a writer that binds each value separately
   * adds with `upsertDaySql` (5-6 values a statement instead of 34-35).
   */
  days() {
    return this.rows().map((rows, i) => {
      const keyLength = COUNTERS[i].key.length;
      const out = [];
      for (const row of rows) {
        for (let day = 1; day <= 31; day++) if (row[keyLength + day]) out.push([...row.slice(0, keyLength), day, row[keyLength + day]]);
      }
      return out;
    });
  }

  /**
   * days() per table of COUNTERS as `upsertDaysArraySql`'s parameters — one array per key column, the days, the counts
   * — in rounds: one statement may not change a row twice, so a row's first day counted goes in the first round, its
   * second (a batch across midnight) in the second, and so on. Each round is in key order, and a later round's rows
   * are already locked by the first.
   */
  dayRounds() {
    return this.days().map((entries, i) => {
      const keyLength = COUNTERS[i].key.length;
      const rounds = [];
      let previous;
      let round = 0;
      for (const entry of entries) {
        const id = entry.slice(0, keyLength).join('\u0000');
        round = id === previous ? round + 1 : 0;
        previous = id;
        rounds[round] ??= Array.from({ length: keyLength + 2 }, () => []);
        for (let c = 0; c < entry.length; c++) rounds[round][c].push(entry[c]);
      }
      return rounds;
    });
  }
}

/**
 * The statement that adds counts to single days of a counter table's rows, one row per element of its array
 * parameters: the key's columns, the day (1…31), the count — then, for a striped table, the stripe. Its text is the
 * same for any number of rows, so a connection parses and plans it once: PostgreSQL's writer. 200 rows cost a
 * quarter of what they did as one statement of 7,000 values (35 a row, parsed and planned afresh for each row count).
 */
function upsertDaysArraySql(counter) {
  const key = counter.key.join(', ');
  const n = counter.key.length;
  const arrays = [...counter.key.map((_, i) => `$${i + 1}::varchar[]`), `$${n + 1}::int[]`, `$${n + 2}::bigint[]`];
  const [stripeColumn, stripeValue] = counter.striped ? [', stripe', `, $${n + 3}::int`] : ['', ''];
  const days = DAYS.map((_, i) => `case when day = ${i + 1} then n else 0 end`).join(', ');
  const added = ['total', ...DAYS].map((c) => `${c} = ${counter.table}.${c} + excluded.${c}`).join(', ');
  return `insert into ${counter.table} (${key}${stripeColumn}, total, ${DAYS.join(', ')}) select ${key}${stripeValue}, n, ${days}
    from unnest(${arrays.join(', ')}) as incoming (${key}, day, n) on conflict (${uniqueBy(counter).join(', ')}) do update set ${added}`;
}

/**
 * The statement that adds a count to the total and to day `day` of one counter row (stripe 0 of a striped table): the
 * key's values, then the count twice.
 */
function upsertDaySql(counter, day) {
  const column = DAYS[day - 1];
  const columns = [...counter.key, 'total', column];
  return `insert into ${counter.table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})
    on conflict (${uniqueBy(counter).join(', ')}) do update set total = ${counter.table}.total + excluded.total, ${column} = ${counter.table}.${column} + excluded.${column}`;
}

module.exports = { DAYS, COUNTERS, NO_PROJECT, ALL_PROJECTS, monthDay, uniqueBy, Tally, upsertDaySql, upsertDaysArraySql };
