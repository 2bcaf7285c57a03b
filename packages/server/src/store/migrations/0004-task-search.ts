import { sql, type Kysely, type Migration } from 'kysely';
import { foldForSearch } from '../queries/tasks.js';

/**
 * Task names folded for case-insensitive search (`q`), so that both stores find the same
 * tasks for all of Unicode: SQLite's `lower()` folds ASCII only, PostgreSQL's depends on
 * the database's locale.
 */
export const taskSearch: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('tasks').addColumn('name_folded', 'text', (c) => c.notNull().defaultTo('')).execute();
    const { rows } = await sql<{ id: string; name: string }>`select id, name from tasks`.execute(db);
    for (const { id, name } of rows) await sql`update tasks set name_folded = ${foldForSearch(name)} where id = ${id}`.execute(db);
  },
};
