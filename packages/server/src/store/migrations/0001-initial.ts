import type { Kysely, Migration } from 'kysely';

/** Accounts, workspaces, projects, memberships, API keys, the audit log and the event outbox. */
export const initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text')
      .addColumn('avatar_url', 'text')
      .addColumn('locale', 'text', (c) => c.notNull())
      .addColumn('email_verified', 'integer', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('workspaces')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('is_personal', 'integer', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.references('users.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('workspace_members')
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('workspace_members_pk', ['workspace_id', 'user_id'])
      .execute();
    await db.schema.createIndex('workspace_members_user').on('workspace_members').column('user_id').execute();

    await db.schema
      .createTable('projects')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('key_locked', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('start_date', 'text', (c) => c.notNull())
      .addColumn('calendar_id', 'text')
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('schedule_from', 'text', (c) => c.notNull())
      .addColumn('deadline', 'text')
      .addColumn('color', 'text')
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('archived_at', 'text')
      .addColumn('created_by', 'text', (c) => c.references('users.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('finish_at', 'text', (c) => c.notNull())
      .addColumn('task_count', 'integer', (c) => c.notNull())
      .addColumn('next_task_number', 'integer', (c) => c.notNull())
      .addUniqueConstraint('projects_workspace_key', ['workspace_id', 'key'])
      .execute();

    await db.schema
      .createTable('project_members')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('project_members_pk', ['project_id', 'user_id'])
      .execute();
    await db.schema.createIndex('project_members_user').on('project_members').column('user_id').execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('name', 'text')
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('token_prefix', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('workspace_id', 'text', (c) => c.references('workspaces.id'))
      .addColumn('expires_at', 'text')
      .addColumn('revoked_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('api_audit_log')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('api_key_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('request_id', 'text', (c) => c.notNull())
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('api_audit_log_key_time').on('api_audit_log').columns(['api_key_id', 'created_at']).execute();

    await db.schema
      .createTable('events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('project_id', 'text')
      .addColumn('actor_id', 'text')
      .addColumn('actor_name', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('events_created').on('events').columns(['created_at', 'id']).execute();
  },
};
