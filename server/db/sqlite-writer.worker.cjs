// The SQLite side of writer-thread.ts: plain CommonJS so it runs as it is under every loader (tsx, vitest, node).
// It owns one SQLite connection and runs each batch of writes in one transaction. A table with a key is upserted
// row by row (a row written again overwrites itself; within a batch the last copy wins). A counted table's new rows
// are counted into the point counters (tally.cjs) in the same transaction.
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const { COUNTERS, Tally, upsertDaySql } = require('./tally.cjs');

const db = new Database(workerData.file);
for (const pragma of workerData.pragmas) db.pragma(pragma);

function prepare({ name, columns, key, tally }) {
  const insert = `insert into ${name} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`;
  if (!key) return { insert: db.prepare(insert) };
  const updated = columns.filter((c) => !key.includes(c));
  if (!tally) return { insert: db.prepare(`${insert} on conflict (${key.join(', ')}) do update set ${updated.map((c) => `${c} = excluded.${c}`).join(', ')}`) };
  // Counted: a new row is counted, one that meets a stored row overwrites it and is not (an upsert cannot tell which
  // it did). The insert alone costs what the upsert did; the update runs only on a conflict.
  return {
    insert: db.prepare(`${insert} on conflict (${key.join(', ')}) do nothing`),
    update: db.prepare(`update ${name} set ${updated.map((c) => `${c} = ?`).join(', ')} where ${key.map((c) => `${c} = ?`).join(' and ')}`),
    updateOrder: [...updated, ...key].map((c) => columns.indexOf(c)),
    device: columns.indexOf('device_id'),
    ts: columns.indexOf('ts'),
  };
}

const statements = workerData.tables.map(prepare);
/** The callers' own statements (a write's `statement`), prepared once by their text; a few texts recur. */
const theirs = new Map();
function theirStatement(sql) {
  let statement = theirs.get(sql);
  if (!statement) {
    if (theirs.size >= 50) theirs.clear();
    statement = db.prepare(sql);
    theirs.set(sql, statement);
  }
  return statement;
}
// A statement per counter table and day, each binding the key and the count only: binding every day's column of a
// row for each of a batch's devices cost as much again as the batch's own points.
const counters = COUNTERS.map((counter) => Array.from({ length: 31 }, (_, i) => db.prepare(upsertDaySql(counter, i + 1))));

/**
 * writes: [{ table, columns, tenants?, projects? } | { statement: { sql, parameters } }], a column being one array (or
 * Float64Array) of values per bound parameter; a counted table's rows are counted under their device's tenant and
 * project; a statement runs as it is.
 */
const runAll = db.transaction((writes) => {
  const tally = new Tally();
  for (const write of writes) {
    if (write.statement) {
      theirStatement(write.statement.sql).run(write.statement.parameters);
      continue;
    }
    const { table, columns, tenants, projects } = write;
    const s = statements[table];
    const count = columns.length ? columns[0].length : 0;
    const args = new Array(columns.length);
    for (let row = 0; row < count; row++) {
      for (let column = 0; column < columns.length; column++) args[column] = columns[column][row];
      if (!s.update) s.insert.run(args);
      else if (s.insert.run(args).changes > 0) tally.add(args[s.device], tenants[args[s.device]], projects?.[args[s.device]] ?? null, args[s.ts]);
      else s.update.run(s.updateOrder.map((i) => args[i]));
    }
  }
  tally.days().forEach((entries, i) => {
    const keyLength = COUNTERS[i].key.length;
    for (const entry of entries) {
      const count = entry[keyLength + 1];
      counters[i][entry[keyLength] - 1].run(...entry.slice(0, keyLength), count, count);
    }
  });
});

parentPort.on('message', (message) => {
  if (message.close) {
    db.close();
    parentPort.close();
    return;
  }
  try {
    runAll(message.writes);
    parentPort.postMessage({ id: message.id });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error), code: error?.code });
  }
});
