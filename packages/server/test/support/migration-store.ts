import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
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

/** A user `u1`, their workspace `w1` and a project `p1` (key WEB), as every version since 0002 stores them. */
export async function insertProject(db: Kysely<Database>): Promise<void> {
  await sql`insert into users (id, email, locale, email_verified, created_at, updated_at) values ('u1', 'ada@example.com', 'en', 1, '2026-01-01', '2026-01-01')`.execute(db);
  await sql`insert into workspaces (id, name, is_personal, created_at, updated_at) values ('w1', 'Ada', 1, '2026-01-01', '2026-01-01')`.execute(db);
  await sql`insert into projects (id, workspace_id, key, key_locked, name, start_date, currency, schedule_from, settings, created_at, updated_at, finish_at, task_count, next_task_number, plan_version)
    values ('p1', 'w1', 'WEB', 0, 'Website', '2026-03-02', 'USD', 'forward', '{}', '2026-01-01', '2026-01-01', '2026-03-02T08:00:00.000Z', 0, 1, 0)`.execute(db);
}
