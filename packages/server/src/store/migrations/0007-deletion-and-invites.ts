import type { Kysely, Migration } from 'kysely';

/**
 * Deleted projects (soft deletion, docs/adr/0008-deletion.md: the row stays, marked, so the
 * events, webhooks and delivery log that name it stay whole) and project invites (the link's
 * token is stored as its SHA-256 digest only). 0006 is left to the sign-in sessions.
 */
export const deletionAndInvites: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('projects').addColumn('deleted_at', 'text').execute();
    await db.schema.alterTable('projects').addColumn('deleted_by', 'text').execute();

    await db.schema
      .createTable('project_invites')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('email', 'text')
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .addColumn('accepted_at', 'text')
      .addColumn('accepted_by', 'text', (c) => c.references('users.id'))
      .execute();
    await db.schema.createIndex('project_invites_project').on('project_invites').columns(['project_id', 'created_at']).execute();
  },
};
