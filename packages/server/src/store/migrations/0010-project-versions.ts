import type { Kysely, Migration } from 'kysely';

/**
 * Saved versions of a plan: the whole plan as a plan document (JSON text), to look back at
 * and restore. A version is never changed once saved.
 */
export const projectVersions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('project_versions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
      .addColumn('name', 'text')
      .addColumn('document', 'text', (c) => c.notNull())
      .addColumn('task_count', 'integer', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.references('users.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('project_versions_project').on('project_versions').columns(['project_id', 'created_at']).execute();
  },
};
