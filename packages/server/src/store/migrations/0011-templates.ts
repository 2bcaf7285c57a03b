import type { Kysely, Migration } from 'kysely';

/**
 * Templates people save from their projects, kept per workspace: the plan as a document
 * (domain/exchange/plan-document.ts, as JSON) with its length computed when it was saved.
 * Built-in templates ship with the code and have no rows. 0009 and 0010 are calendars and
 * saved versions.
 */
export const templates: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('templates')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('document', 'text', (c) => c.notNull())
      .addColumn('task_count', 'integer', (c) => c.notNull())
      .addColumn('duration_days', 'integer', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.references('users.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('templates_workspace').on('templates').columns(['workspace_id', 'created_at']).execute();
  },
};
