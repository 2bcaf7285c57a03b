import type { Kysely, Migration } from 'kysely';

/**
 * How much of a resource there is at once, in percent (Microsoft Project's Max. Units):
 * 100 is one full-time person, 300 a team of three, 50 someone half-time. Leveling keeps
 * each resource's load within it. Every resource so far was one person.
 */
export const resourceMaxUnits: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('resources')
      .addColumn('max_units_pct', 'integer', (c) => c.notNull().defaultTo(100))
      .execute();
  },
};
