import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { openSqlite } from '../dialects/sqlite.js';
import { migrations } from './index.js';

const dataDirs: string[] = [];
afterEach(() => {
  for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

it('keeps the audit log written before it, as API-key entries, and leaves older events without a client', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-migration-'));
  dataDirs.push(dataDir);
  const { db } = openSqlite(dataDir);
  try {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0004-task-search')).error).toBeUndefined();
    await sql`insert into api_audit_log (id, api_key_id, user_id, method, path, status, request_id, duration_ms, created_at)
      values ('a1', 'k1', 'u1', 'GET', '/api/projects', 200, 'r1', 3, '2026-01-01T00:00:00.000Z')`.execute(db);
    await sql`insert into events (id, type, workspace_id, project_id, actor_id, actor_name, data, created_at, dispatched)
      values ('e1', 'project.created', 'w1', 'p1', 'u1', 'Ada', '{}', '2026-01-01T00:00:00.000Z', 1)`.execute(db);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const audit = await sql`select id, credential_kind, credential_id, client_id, method, path, status from audit_log`.execute(db);
    expect(audit.rows).toEqual([{ id: 'a1', credential_kind: 'api_key', credential_id: 'k1', client_id: null, method: 'GET', path: '/api/projects', status: 200 }]);
    const events = await sql`select actor_name, actor_client_id from events`.execute(db);
    expect(events.rows).toEqual([{ actor_name: 'Ada', actor_client_id: null }]);
  } finally {
    await db.destroy();
  }
});
