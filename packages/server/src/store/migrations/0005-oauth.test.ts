import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { withStoreAt } from '../../../test/support/migration-store.js';

it('keeps the audit log written before it, as API-key entries, and leaves older events without a client', () =>
  withStoreAt('0004-task-search', async (db, migrateToLatest) => {
    await sql`insert into api_audit_log (id, api_key_id, user_id, method, path, status, request_id, duration_ms, created_at)
      values ('a1', 'k1', 'u1', 'GET', '/api/projects', 200, 'r1', 3, '2026-01-01T00:00:00.000Z')`.execute(db);
    await sql`insert into events (id, type, workspace_id, project_id, actor_id, actor_name, data, created_at, dispatched)
      values ('e1', 'project.created', 'w1', 'p1', 'u1', 'Ada', '{}', '2026-01-01T00:00:00.000Z', 1)`.execute(db);
    await migrateToLatest();
    const audit = await sql`select id, credential_kind, credential_id, client_id, method, path, status from audit_log`.execute(db);
    expect(audit.rows).toEqual([{ id: 'a1', credential_kind: 'api_key', credential_id: 'k1', client_id: null, method: 'GET', path: '/api/projects', status: 200 }]);
    const events = await sql`select actor_name, actor_client_id from events`.execute(db);
    expect(events.rows).toEqual([{ actor_name: 'Ada', actor_client_id: null }]);
  }));
