import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, type Kysely } from 'kysely';
import { expect } from 'vitest';
import { openSqlite } from '../../src/store/dialects/sqlite.js';
import type { Database } from '../../src/store/schema.js';
import { migrations } from '../../src/store/migrations/index.js';

/**
 * For migration tests: a fresh SQLite store migrated up to `before` (the last migration
 * the older version had); `work` writes rows as that version stored them, then calls
 * `migrateToLatest` and checks what the newer migrations made of them.
 */
export async function withStoreAt(before: string, work: (db: Kysely<Database>, migrateToLatest: () => Promise<void>) => Promise<void>): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-migration-'));
  const { db } = openSqlite(dataDir);
  try {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo(before)).error).toBeUndefined();
    await work(db, async () => expect((await migrator.migrateToLatest()).error).toBeUndefined());
  } finally {
    await db.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
