// The PostgreSQL side of writer-thread.ts: plain CommonJS so it runs as it is under every loader (tsx, vitest, node).
// It stores each batch in one transaction with COPY, PostgreSQL's bulk load, on one of its own connections, several
// batches side by side. Its event loop does nothing else, so every step of a transaction goes on as soon as the
// server answers (on the main thread each waited a turn of a loop busy with MQTT: most of a commit's time). A counted
// table's new rows are counted into the point counters (tally.cjs) in the same transaction.
const { parentPort, workerData } = require('node:worker_threads');
const { finished } = require('node:stream/promises');
const pg = require(workerData.pg);
const { from: copyFrom } = require(workerData.copy);
const { COUNTERS, Tally, upsertDaysArraySql } = require('./tally.cjs');

const UNIQUE_VIOLATION = '23505';
const pool = new pg.Pool({ connectionString: workerData.url, max: workerData.connections });
// An idle connection that breaks is replaced on next use; the error must not end the thread.
pool.on('error', () => undefined);

/**
 * Each connection's stripe of the striped counters (tally.cjs): the lowest not taken by another connection, so that
 * batches committing side by side never add to the same project row. A connection replaced frees its stripe.
 */
const stripes = new Set();
const stripeOf = new WeakMap();
pool.on('connect', (client) => {
  let stripe = 0;
  while (stripes.has(stripe)) stripe++;
  stripes.add(stripe);
  stripeOf.set(client, stripe);
});
pool.on('remove', (client) => stripes.delete(stripeOf.get(client)));

const ESCAPES = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\uFFFD' };
const SPECIAL = /[\\\t\n\r\0]/;

/** A field of COPY's text format: NULL as \N; PostgreSQL text cannot hold U+0000, which becomes U+FFFD. */
function field(value) {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') return String(value);
  return SPECIAL.test(value) ? value.replace(/[\\\t\n\r\0]/g, (c) => ESCAPES[c]) : value;
}

/**
 * The rows to write, by index. A keyed table's rows go in key order — batches committing side by side then take
 * their locks in the same order and never deadlock — and a row written twice in one batch keeps its last copy (one
 * statement may not change a row twice).
 */
function rowOrder(table, columns) {
  const count = columns.length ? columns[0].length : 0;
  const order = Array.from({ length: count }, (_, i) => i);
  if (!table.key) return order;
  const keys = table.key.map((k) => columns[table.columns.indexOf(k)]);
  const compare = (a, b) => {
    for (const c of keys) if (c[a] !== c[b]) return c[a] < c[b] ? -1 : 1;
    return 0;
  };
  order.sort((a, b) => compare(a, b) || a - b);
  return order.filter((row, i) => i === order.length - 1 || compare(row, order[i + 1]) !== 0);
}

function copyText(columns, order) {
  let text = '';
  for (const row of order) {
    let line = field(columns[0][row]);
    for (let c = 1; c < columns.length; c++) line += `\t${field(columns[c][row])}`;
    text += `${line}\n`;
  }
  return text;
}

async function copy(client, table, columns, text) {
  const stream = client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`));
  stream.end(text);
  await finished(stream);
}

/**
 * COPY cannot upsert: the rows go through a temporary table and `on conflict`. For a counted table, returns the rows
 * it inserted (`xmax = 0` tells an inserted row from an updated one within the statement that wrote it).
 */
async function upsert(client, table, text) {
  const staging = `${table.name}_incoming`;
  await client.query(`create temp table ${staging} on commit drop as select ${table.columns.join(', ')} from ${table.name} with no data`);
  await copy(client, staging, table.columns, text);
  const updated = table.columns.filter((c) => !table.key.includes(c));
  const result = await client.query(
    `insert into ${table.name} (${table.columns.join(', ')}) select ${table.columns.join(', ')} from ${staging}
     on conflict (${table.key.join(', ')}) do update set ${updated.map((c) => `${c} = excluded.${c}`).join(', ')}
     ${table.tally ? 'returning device_id, ts, (xmax = 0) as inserted' : ''}`,
  );
  return table.tally ? result.rows.filter((r) => r.inserted) : [];
}

const COUNTS = COUNTERS.map(upsertDaysArraySql);

/** Adds the batch's new points to the counters, last in the transaction: their rows stay locked the shortest. */
async function count(client, tally) {
  const rounds = tally.dayRounds();
  for (let i = 0; i < COUNTERS.length; i++) {
    const stripe = COUNTERS[i].striped ? [stripeOf.get(client)] : [];
    // Named: prepared once per connection.
    for (const values of rounds[i]) await client.query({ name: `count ${COUNTERS[i].table}`, text: COUNTS[i], values: [...values, ...stripe] });
  }
}

/** Counts the rows of a counted table as written by COPY (every one of them new). */
function countCopied(tally, { table, columns, order, tenants, projects }) {
  const [device, ts] = ['device_id', 'ts'].map((c) => columns[table.columns.indexOf(c)]);
  for (const row of order) tally.add(device[row], tenants[device[row]], projects?.[device[row]] ?? null, ts[row]);
}

async function transaction(batch, asUpsert) {
  const client = await pool.connect();
  const tally = new Tally();
  try {
    await client.query('begin');
    for (const write of batch) {
      if (write.statement) {
        await client.query(write.statement.sql, write.statement.parameters);
        continue;
      }
      const { table, text, tenants, projects } = write;
      if (asUpsert && table.key) {
        // The series' bigint comes back as text from this pool (no type parsers here).
        for (const r of await upsert(client, table, text)) tally.add(r.device_id, tenants[r.device_id], projects?.[r.device_id] ?? null, Number(r.ts));
      } else {
        await copy(client, table.name, table.columns, text);
        if (table.tally) countCopied(tally, write);
      }
    }
    if (!tally.empty) await count(client, tally);
    await client.query('commit');
  } catch (error) {
    // The batch's own error is the one reported; a rollback fails only on a broken connection, whose transaction
    // PostgreSQL rolls back itself.
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * A plain COPY costs PostgreSQL markedly less than an upsert; a batch that meets a stored row (a QoS 1 redelivery, a
 * correction pulled again) is rare and runs again as an upsert.
 */
async function store(writes) {
  const batch = writes
    .map((write) => (write.statement ? write : { table: workerData.tables[write.table], columns: write.columns, tenants: write.tenants, projects: write.projects }))
    .filter((write) => write.statement || (write.columns.length && write.columns[0].length))
    .map((write) => {
      if (write.statement) return write;
      const order = rowOrder(write.table, write.columns);
      return { ...write, order, text: copyText(write.columns, order) };
    });
  if (batch.length === 0) return;
  try {
    await transaction(batch, false);
  } catch (error) {
    if (error.code !== UNIQUE_VIOLATION) throw error;
    await transaction(batch, true);
  }
}

/**
 * Every connection opened, and its first transaction's work done, as the thread starts: that first transaction read
 * the tables' catalog entries and compiled the series' trigger function, and the first commits after a restart took
 * 115-175 ms while a reconnecting fleet's readings waited behind them (bench:connections). Empty COPYs in a
 * transaction rolled back: nothing is written, but the statement trigger runs. A failure is left to the first batch.
 */
async function warm() {
  // All checked out at once: each of the pool's connections, not one of them four times.
  const clients = await Promise.allSettled(Array.from({ length: workerData.connections }, () => pool.connect()));
  await Promise.all(
    clients.map(async (connected) => {
      if (connected.status === 'rejected') return;
      const client = connected.value;
      let failure;
      try {
        await client.query('begin');
        for (const table of workerData.tables) await copy(client, table.name, table.columns, '');
      } catch (error) {
        failure = error;
      } finally {
        await client.query('rollback').catch(() => undefined);
        // A connection that failed is closed, not handed to the first batch.
        client.release(failure);
      }
    }),
  );
}
void warm().catch(() => undefined);

parentPort.on('message', (message) => {
  if (message.close) {
    void pool.end().finally(() => parentPort.close());
    return;
  }
  store(message.writes).then(
    () => parentPort.postMessage({ id: message.id }),
    (error) => parentPort.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error), code: error?.code }),
  );
});
