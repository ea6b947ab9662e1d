import { formatDateTime } from '../../time';
import type { Db } from '../database';
import type { SeedStep } from './write';

const RECORDS = 'vigil_seed_step';

async function recorded(db: Db): Promise<Set<string>> {
  const rows = await db.selectFrom(RECORDS).select('name').execute();
  return new Set(rows.map((row) => row.name));
}

/**
 * Runs `write` in one transaction with the records of `names`, unless they are recorded already. The records are
 * written first: a second process starting at the same moment waits on them (a row lock on PostgreSQL, SQLite's write
 * lock), then fails on their keys and finds them recorded, so a step never runs twice.
 */
async function runOnce(db: Db, names: readonly string[], write: (trx: Db) => Promise<void>): Promise<boolean> {
  if ((await recorded(db)).has(names[0])) return false;
  try {
    await db.transaction().execute(async (trx) => {
      const runAt = formatDateTime();
      await trx.insertInto(RECORDS).values(names.map((name) => ({ name, runAt }))).execute();
      await write(trx);
    });
    return true;
  } catch (error) {
    if ((await recorded(db)).has(names[0])) return false;
    throw new Error(`seed step ${names[0]} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** Whether the store holds seed rows: any of the tables the first seeds filled first. */
async function holdsData(db: Db): Promise<boolean> {
  for (const table of ['blade_client', 'blade_menu', 'blade_tenant'] as const) {
    if (await db.selectFrom(table).select('id').limit(1).executeTakeFirst()) return true;
  }
  return false;
}

/**
 * Stores seeded before steps were recorded (each start re-inserted missing seed rows by id) hold the `legacy` steps'
 * rows, or what administrators made of them since: those steps are recorded as run, never run on them.
 */
async function adoptLegacyStore(db: Db, legacy: readonly string[]): Promise<void> {
  if (legacy.length === 0 || (await recorded(db)).size > 0 || !(await holdsData(db))) return;
  await runOnce(db, legacy, async () => undefined);
}

/** Runs, in order, every step this store has no record of; returns the names of those it ran. */
export async function runSeedSteps(db: Db, steps: readonly SeedStep[], legacy: readonly string[] = []): Promise<string[]> {
  await adoptLegacyStore(db, legacy);
  const ran: string[] = [];
  for (const step of steps) {
    if (await runOnce(db, [step.name], (trx) => step.run(trx))) ran.push(step.name);
  }
  return ran;
}
