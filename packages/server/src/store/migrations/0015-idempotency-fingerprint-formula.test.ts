import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { withStoreAt } from '../../../test/support/migration-store.js';

it('numbers the fingerprints of the keys stored before it 1, the formula of every older version', () =>
  withStoreAt('0014-resource-max-units', async (db, migrateToLatest) => {
    await sql`insert into idempotency_keys (user_id, key, fingerprint, status, response, created_at) values ('u1', 'k1', 'abc', 201, '{}', '2026-01-01')`.execute(db);
    await migrateToLatest();
    // A process of an older version, still running during the upgrade, claims keys without naming the column.
    await sql`insert into idempotency_keys (user_id, key, fingerprint, status, response, created_at) values ('u1', 'k2', 'def', null, null, '2026-01-02')`.execute(db);
    expect((await sql`select key, fingerprint_formula from idempotency_keys order by key`.execute(db)).rows).toEqual([
      { key: 'k1', fingerprint_formula: 1 },
      { key: 'k2', fingerprint_formula: 1 },
    ]);
  }));
