import type { Kysely, Migration } from 'kysely';

/**
 * The sliding windows of rate limits shared by every node of a PostgreSQL store
 * (store/rate-windows.ts): per key, the times of the requests counted in its window as
 * comma-separated milliseconds, whether the last take was allowed, and when the row may
 * be dropped. The embedded SQLite store serves one process and counts in its memory.
 */
export const rateLimitWindows: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rate_limit_windows')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('stamps', 'text', (c) => c.notNull())
      .addColumn('allowed', 'integer', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('rate_limit_windows_expiry').on('rate_limit_windows').column('expires_at').execute();
  },
};
