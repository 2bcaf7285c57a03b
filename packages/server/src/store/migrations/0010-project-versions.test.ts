import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { withStoreAt } from '../../../test/support/migration-store.js';
import { versionQueries } from '../queries/versions.js';

it('adds saved versions to existing projects, listed newest first without their document', () =>
  withStoreAt('0008-webhook-active-since', async (db, migrateToLatest) => {
    await sql`insert into users (id, email, locale, email_verified, created_at, updated_at) values ('u1', 'ada@example.com', 'en', 1, '2026-01-01', '2026-01-01')`.execute(db);
    await sql`insert into workspaces (id, name, is_personal, created_at, updated_at) values ('w1', 'Ada', 1, '2026-01-01', '2026-01-01')`.execute(db);
    await sql`insert into projects (id, workspace_id, key, key_locked, name, start_date, currency, schedule_from, settings, created_at, updated_at, finish_at, task_count, next_task_number, plan_version)
      values ('p1', 'w1', 'WEB', 0, 'Web', '2026-03-02', 'USD', 'forward', '{}', '2026-01-01', '2026-01-01', '2026-03-02T08:00:00.000Z', 0, 1, 0)`.execute(db);
    await migrateToLatest();
    await db.insertInto('project_versions').values({ id: 'v1', project_id: 'p1', name: null, document: '{}', task_count: 0, created_by: 'u1', created_at: '2026-01-02' }).execute();
    await db.insertInto('project_versions').values({ id: 'v2', project_id: 'p1', name: 'Agreed', document: '{}', task_count: 0, created_by: null, created_at: '2026-01-03' }).execute();
    expect((await versionQueries(db).list('p1')).map((v) => [v.id, v.name])).toEqual([['v2', 'Agreed'], ['v1', null]]);
  }));
