import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { insertProject, withStoreAt } from '../../../test/support/migration-store.js';

it('leaves the projects stored before it undeleted, and adds invites that keep a token digest once', () =>
  withStoreAt('0005-oauth', async (db, migrateToLatest) => {
    await insertProject(db);
    await migrateToLatest();
    const projects = await sql`select key, deleted_at, deleted_by from projects`.execute(db);
    expect(projects.rows).toEqual([{ key: 'WEB', deleted_at: null, deleted_by: null }]);

    const invite = (id: string, digest: string) => sql`insert into project_invites (id, project_id, token_hash, role, email, expires_at, created_by, created_at)
      values (${id}, 'p1', ${digest}, 'editor', null, '2026-01-08', 'u1', '2026-01-01')`.execute(db);
    await invite('i1', 'digest');
    await expect(invite('i2', 'digest')).rejects.toThrow();
    const invites = await sql`select id, revoked_at, accepted_at, accepted_by from project_invites`.execute(db);
    expect(invites.rows).toEqual([{ id: 'i1', revoked_at: null, accepted_at: null, accepted_by: null }]);
  }));
