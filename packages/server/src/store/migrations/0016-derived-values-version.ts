import type { Kysely, Migration } from 'kysely';

/**
 * Which version of what plan writes derive and store (the schedule, summaries' rollups, the
 * project's finish: domain/planning/derived-values.ts) a project's values were computed
 * by. Every project written before is 0, as is one an older process still running during
 * the upgrade creates: the upgrade recomputes those before the service starts, so that no
 * later write reports the new values as its own changes.
 */
export const derivedValuesVersion: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('projects')
      .addColumn('derived_values_version', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
