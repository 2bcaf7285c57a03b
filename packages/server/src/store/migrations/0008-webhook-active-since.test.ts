import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { withStoreAt } from '../../../test/support/migration-store.js';

it('dates an active webhook from its creation, and a disabled one from when it was disabled', () =>
  withStoreAt('0007-deletion-and-invites', async (db, migrateToLatest) => {
    await sql`insert into users (id, email, locale, email_verified, created_at, updated_at) values ('u1', 'ada@example.com', 'en', 1, '2026-01-01', '2026-01-01')`.execute(db);
    await sql`insert into workspaces (id, name, is_personal, created_at, updated_at) values ('w1', 'Ada', 1, '2026-01-01', '2026-01-01')`.execute(db);
    const webhook = (id: string, status: string, disabledAt: string | null) =>
      sql`insert into webhooks (id, owner_id, workspace_id, project_id, url, name, events, secret, status, disabled_reason, disabled_at, consecutive_failures, created_at, updated_at)
        values (${id}, 'u1', 'w1', null, 'https://hooks.example.com/', null, '["*"]', 'whsec_x', ${status}, ${disabledAt ? 'gone' : null}, ${disabledAt}, 0, '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z')`.execute(db);
    await webhook('h1', 'active', null);
    await webhook('h2', 'disabled', '2026-01-05T00:00:00.000Z');
    await migrateToLatest();
    const rows = await sql`select id, active_since from webhooks order by id`.execute(db);
    expect(rows.rows).toEqual([
      { id: 'h1', active_since: '2026-01-01T00:00:00.000Z' },
      { id: 'h2', active_since: '2026-01-05T00:00:00.000Z' },
    ]);
  }));
