import type { Kysely } from 'kysely';

/**
 * A user task's own revision, bumped by every change of it (claim, give back, transfer, delegate, resolve, completion,
 * cancellation): each change writes only over the revision it read, so of two processes acting on one task at once
 * one wins and the other is answered from what the task has become (docs/workflow.md "Who acts"). And the form key
 * its model gives it, the console form its handle page opens (docs/workflow.md "Forms").
 */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('wf_task').addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('wf_task').addColumn('form_key', 'varchar(255)').execute();
}
