import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The OAuth authorization server's artifacts and the instance's generated secrets; the
 * audit log names the credential of any kind (API key, OAuth grant, session) and the
 * OAuth client; events name the OAuth client that acted.
 */
export const oauth: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('oauth_artifacts')
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('grant_id', 'text')
      .addColumn('uid', 'text')
      .addColumn('account_id', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('consumed_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('oauth_artifacts_pk', ['model', 'id'])
      .execute();
    await db.schema.createIndex('oauth_artifacts_grant').on('oauth_artifacts').column('grant_id').execute();
    await db.schema.createIndex('oauth_artifacts_uid').on('oauth_artifacts').columns(['model', 'uid']).execute();
    await db.schema.createIndex('oauth_artifacts_account').on('oauth_artifacts').columns(['model', 'account_id']).execute();
    await db.schema.createIndex('oauth_artifacts_expiry').on('oauth_artifacts').column('expires_at').execute();

    await db.schema
      .createTable('instance_secrets')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('credential_kind', 'text', (c) => c.notNull())
      .addColumn('credential_id', 'text', (c) => c.notNull())
      .addColumn('client_id', 'text')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('request_id', 'text', (c) => c.notNull())
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await sql`insert into audit_log (id, credential_kind, credential_id, client_id, user_id, method, path, status, request_id, duration_ms, created_at)
      select id, 'api_key', api_key_id, null, user_id, method, path, status, request_id, duration_ms, created_at from api_audit_log`.execute(db);
    await db.schema.dropTable('api_audit_log').execute();
    await db.schema.alterTable('events').addColumn('actor_client_id', 'text').execute();
    await db.schema.alterTable('events').addColumn('actor_client_name', 'text').execute();
    await db.schema.createIndex('audit_log_credential_time').on('audit_log').columns(['credential_id', 'created_at']).execute();
  },
};
