import type { Kysely, Migration } from 'kysely';

/**
 * Working calendars of a project (the project's and its tasks' `calendar_id` name one;
 * null = the built-in Standard calendar). The week and the exceptions are JSON text, read
 * and written whole with the calendar.
 */
export const calendars: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('calendars')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('time_zone', 'text', (c) => c.notNull())
      .addColumn('weekly', 'text', (c) => c.notNull())
      .addColumn('exceptions', 'text', (c) => c.notNull())
      .addColumn('base_calendar_id', 'text', (c) => c.references('calendars.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('calendars_project').on('calendars').column('project_id').execute();
  },
};
