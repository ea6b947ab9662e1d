import type { Resource } from '../../resources/define';
import { isSealed, type Secrets, UnreadableSecret } from '../auth/secrets';
import type { Db, Row } from './database';
import { loose } from './tables';

interface Log {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/**
 * The start's upkeep of secrets at rest (docs/security.md "Secrets at rest"), after the migrations and the seed: every
 * declared secret stored in clear (rows of before, seed rows, rows written around the repository) or sealed under an
 * earlier key of SECRETS_KEY is sealed with the current key. Rows in the recycle bin too: a restore brings them back.
 * Values no configured key opens are left as they are, and counted in a warning: the connection using one says so.
 * Returns how many values it sealed.
 */
export async function sealStoredSecrets(db: Db, secrets: Secrets, resources: readonly Resource[], log: Log): Promise<number> {
  let sealed = 0;
  for (const resource of resources) {
    const fields = resource.secrets ?? [];
    const rows = resource.secretRows;
    if (fields.length === 0 && !rows) continue;
    const columns = [...fields, ...(rows ? [rows.field, rows.keyField] : [])];
    let query = loose(db).selectFrom(resource.table).select(['id', ...columns]);
    // Of a field secret on some rows only: those rows, and rows sealed before their key was renamed.
    if (rows && fields.length === 0) query = query.where((eb) => eb.or([eb(rows.keyField, 'in', [...rows.keys]), eb(rows.field, 'like', 'enc:v1:%')]));
    let unreadable = 0;
    for (const row of (await query.execute()) as Row[]) {
      const changes: Row = {};
      const secretHere = rows && (rows.keys.includes(String(row[rows.keyField] ?? '').trim()) || isSealed(row[rows.field]));
      for (const field of [...fields, ...(secretHere && rows ? [rows.field] : [])]) {
        const value = row[field];
        if (typeof value !== 'string' || value === '' || secrets.isCurrent(value)) continue;
        try {
          changes[field] = secrets.seal(secrets.open(value));
        } catch (error) {
          if (!(error instanceof UnreadableSecret)) throw error;
          unreadable += 1;
        }
      }
      if (Object.keys(changes).length === 0) continue;
      await loose(db).updateTable(resource.table).set(changes).where('id', '=', String(row.id)).execute();
      sealed += Object.keys(changes).length;
    }
    if (unreadable) log.warn({ table: resource.table, unreadable }, 'stored secrets no configured SECRETS_KEY opens: they must be entered again');
  }
  if (sealed) log.info({ sealed }, 'stored secrets sealed with the current key');
  return sealed;
}
