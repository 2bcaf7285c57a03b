import { sql, type Kysely, type Migration } from 'kysely';

/**
 * When each webhook last began to receive events: created, or turned on again. The worker
 * sends a webhook only the events written since then, so one turned on again never gets
 * what happened while it was off, even events the worker had not picked up yet.
 */
export const webhookActiveSince: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('webhooks').addColumn('active_since', 'text').execute();
    await sql`update webhooks set active_since = coalesce(disabled_at, created_at)`.execute(db);
  },
};
