import type { Kysely, Migration } from 'kysely';

/**
 * An audit entry may stand for several identical reads (same credential, method, path and
 * outcome) that came within one write of the log (http/audit-log.ts): `calls` counts
 * them. Every entry written before stands for one call.
 */
export const auditReadBursts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('audit_log')
      .addColumn('calls', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
  },
};
