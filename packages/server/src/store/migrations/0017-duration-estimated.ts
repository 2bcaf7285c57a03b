import type { Kysely, Migration } from 'kysely';

/**
 * Whether a task's duration is an estimate (Microsoft Project's "1 day?"): a manually
 * scheduled task with one and no links is never critical, as Project computes. No task
 * stored so far was marked: every duration was taken as given.
 */
export const durationEstimated: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('tasks')
      .addColumn('duration_estimated', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
