// The SQLite side of writer-thread.ts: plain CommonJS so it runs as it is under every loader (tsx, vitest, node).
// It owns one SQLite connection and runs each batch of writes in one transaction. A table with a key is upserted
// row by row (a row written again overwrites itself; within a batch the last copy wins).
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);

const db = new Database(workerData.file);
for (const pragma of workerData.pragmas) db.pragma(pragma);

const statements = workerData.tables.map(({ name, columns, key }) => {
  const insert = `insert into ${name} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`;
  if (!key) return db.prepare(insert);
  const updated = columns.filter((c) => !key.includes(c));
  return db.prepare(`${insert} on conflict (${key.join(', ')}) do update set ${updated.map((c) => `${c} = excluded.${c}`).join(', ')}`);
});

/** writes: [{ table, columns }], a column being one array (or Float64Array) of values per bound parameter. */
const runAll = db.transaction((writes) => {
  for (const { table, columns } of writes) {
    const prepared = statements[table];
    const count = columns.length ? columns[0].length : 0;
    const args = new Array(columns.length);
    for (let row = 0; row < count; row++) {
      for (let column = 0; column < columns.length; column++) args[column] = columns[column][row];
      prepared.run(args);
    }
  }
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
