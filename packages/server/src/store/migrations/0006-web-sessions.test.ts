import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { withStoreAt } from '../../../test/support/migration-store.js';

it('counts everyone made before (by an administrator) as verified, and adds empty session and token tables', () =>
  withStoreAt('0005-oauth', async (db, migrateToLatest) => {
    const at = '2026-01-01T00:00:00.000Z';
    await sql`insert into users (id, email, name, avatar_url, locale, email_verified, password_hash, created_at, updated_at)
      values ('u1', 'ada@example.com', 'Ada', null, 'en', 0, 'scrypt$1$1$1$salt$hash', ${at}, ${at}),
             ('u2', 'bob@example.com', null, null, 'en', 0, null, ${at}, ${at})`.execute(db);
    await migrateToLatest();
    const users = await sql`select id, email_verified from users order by id`.execute(db);
    expect(users.rows).toEqual([
      { id: 'u1', email_verified: 1 },
      { id: 'u2', email_verified: 1 },
    ]);
    expect((await sql`select count(*) as n from web_sessions`.execute(db)).rows).toEqual([{ n: 0 }]);
    expect((await sql`select count(*) as n from account_tokens`.execute(db)).rows).toEqual([{ n: 0 }]);
  }));
