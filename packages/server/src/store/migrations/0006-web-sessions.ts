import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The web app's sign-in: web sessions (the cookie's token stored as its SHA-256 digest)
 * and the single-use tokens of mailed links (e-mail verification, password reset), also
 * as digests. Everyone made before was made by an administrator (`gantry user create`,
 * which now vouches for the address): they count as verified, so whoever could sign in
 * still can, now that unverified addresses cannot.
 */
export const webSessions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('web_sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('token_digest', 'text', (c) => c.notNull().unique())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('csrf_token', 'text', (c) => c.notNull())
      .addColumn('user_agent', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('web_sessions_user').on('web_sessions').column('user_id').execute();
    await db.schema.createIndex('web_sessions_expiry').on('web_sessions').column('expires_at').execute();

    await db.schema
      .createTable('account_tokens')
      .addColumn('digest', 'text', (c) => c.primaryKey())
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('account_tokens_user').on('account_tokens').columns(['user_id', 'purpose']).execute();

    await sql`update users set email_verified = 1`.execute(db);
  },
};
