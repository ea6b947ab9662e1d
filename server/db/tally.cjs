// Counting the points the series stores (docs/statistics.md "Counters"), shared by every writer of the series: the
// writer threads (sqlite-writer.worker.cjs, postgres-writer.worker.cjs) and the main thread (server/series/store.ts).
// Plain CommonJS so the threads load it as it is under every loader (tsx, vitest, node).
//
// A point is counted once, when it is first stored (a row written again over a stored one is not), under the local
// day of its own time: per device and per project (`'0'`: none) and month, one counter a day (`d1`…`d31`) and their
// total. Counters of one batch are summed first, so a batch adds to each of its devices' rows once.

const DAYS = Array.from({ length: 31 }, (_, i) => `d${i + 1}`);

/** The counter tables and their keys (migration 0016). */
const COUNTERS = [
  { table: 'wit_device_points', key: ['device_id', 'month'] },
  { table: 'wit_project_points', key: ['tenant_id', 'project_id', 'month'] },
];

/** "No project" in wit_project_points (a key column cannot be null). */
const NO_PROJECT = '0';

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

/** Adds one to day `day` of the row `key`: [...key, total, d1…d31]. */
function bump(rows, key, day) {
  const id = key.join('\u0000');
  let row = rows.get(id);
  if (!row) {
    row = [...key, ...new Array(32).fill(0)];
    rows.set(id, row);
  }
  row[key.length] += 1;
  row[key.length + day] += 1;
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
  }

  /** One new point of `device` (of `tenant`, and of `project` or none) at `ts`. */
  add(device, tenant, project, ts) {
    const { month, day } = monthDay(ts);
    bump(this.devices, [device, month], day);
    bump(this.projects, [tenant, project || NO_PROJECT, month], day);
  }

  get empty() {
    return this.devices.size === 0;
  }

  /** The rows to add, per table of COUNTERS, each [...key, total, d1…d31] in key order. */
  rows() {
    return [sorted(this.devices), sorted(this.projects)];
  }
}

/**
 * The statement that adds `count` rows to a counter table; `placeholder(i)` names the i-th parameter (1-based): `?`
 * for SQLite, `$i` for PostgreSQL.
 */
function upsertSql(counter, count, placeholder) {
  const columns = [...counter.key, 'total', ...DAYS];
  const rows = [];
  for (let r = 0; r < count; r++) rows.push(`(${columns.map((_, c) => placeholder(r * columns.length + c + 1)).join(', ')})`);
  const added = ['total', ...DAYS].map((c) => `${c} = ${counter.table}.${c} + excluded.${c}`).join(', ');
  return `insert into ${counter.table} (${columns.join(', ')}) values ${rows.join(', ')} on conflict (${counter.key.join(', ')}) do update set ${added}`;
}

module.exports = { DAYS, COUNTERS, NO_PROJECT, monthDay, Tally, upsertSql };
