// @vitest-environment node
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RAW_TENANT_QUERIES } from '../../server/db/raw-queries';

/**
 * Tenant isolation lives in one gate, the scoped repository; a query on a tenant-owned table written around it is a
 * listed, justified exception (server/db/raw-queries.ts). This walks the server's code and counts such queries per
 * file, so a new one cannot slip in unlisted.
 */

const ROOT = join(import.meta.dirname, '../..');
/** Where the gate itself and the schema live: their queries are the mechanism, not exceptions. */
const MECHANISM = [
  /\/db\/repository\.ts$/,
  // Declared references: the batched name lookup and the in-use check read tables the declarations name.
  /\/db\/references\.ts$/,
  // The project data scope: subqueries the repository puts inside its tenant-scoped queries.
  /\/db\/project-scope\.ts$/,
  /\/db\/migrations\//,
  /\/db\/seed/,
  /\/db\/raw-queries\.ts$/,
];
const QUERY = /\.(selectFrom|updateTable|deleteFrom|insertInto)\(\s*(?:['"`]([a-z_]+)|[^'"`)\s])/g;
/** SQL written out in a sql`…` template: each statement that names a tenant table counts once. */
const RAW_SQL = /\bsql`([^`]*)`/g;
const SQL_TABLE = /\b(?:from|update|into|join)\s+"?([a-z_]+)"?/gi;

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });

/** The tables of the resources declared tenant-owned, read from the declarations themselves. */
async function tenantTables(): Promise<Set<string>> {
  const tables = new Set<string>();
  for (const file of filesUnder(join(ROOT, 'resources'))) {
    for (const value of Object.values(await import(pathToFileURL(file).href))) {
      const declared = value as { table?: unknown; tenancy?: unknown } | null;
      if (declared && typeof declared === 'object' && declared.tenancy === 'tenant' && typeof declared.table === 'string') tables.add(declared.table);
    }
  }
  return tables;
}

/** file -> queries on tenant tables (or on a table named by a variable, which could be one). */
async function rawQueries(): Promise<Map<string, number>> {
  const tables = await tenantTables();
  const counts = new Map<string, number>();
  for (const file of filesUnder(join(ROOT, 'server'))) {
    const name = relative(ROOT, file);
    if (MECHANISM.some((pattern) => pattern.test(`/${name}`))) continue;
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(QUERY)) {
      if (match[2] === undefined || tables.has(match[2])) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    for (const [, statement] of text.matchAll(RAW_SQL)) {
      if ([...statement.matchAll(SQL_TABLE)].some(([, table]) => tables.has(table))) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  return counts;
}

describe('raw queries on tenant tables', () => {
  it('are exactly the listed exceptions, file by file', async () => {
    const found = await rawQueries();
    const listed = new Map(Object.entries(RAW_TENANT_QUERIES).map(([file, [count]]) => [file, count]));
    const differences = [...new Set([...found.keys(), ...listed.keys()])]
      .filter((file) => (found.get(file) ?? 0) !== (listed.get(file) ?? 0))
      .map((file) => `${file}: ${found.get(file) ?? 0} in the code, ${listed.get(file) ?? 0} listed`);
    // More in the code: go through platform.repo(resource), or list the query with its reason. Fewer: shrink the list.
    expect(differences).toEqual([]);
  });

  it('find the tenant tables to look for', async () => {
    const tables = await tenantTables();
    for (const table of ['wit_device', 'wit_project', 'blade_user', 'blade_param']) expect(tables).toContain(table);
  });
});
