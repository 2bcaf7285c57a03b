import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../schema.js';

/** The embedded store: one SQLite file under DATA_DIR, in WAL mode. */
export function openSqlite(dataDir: string): Kysely<Database> {
  fs.mkdirSync(dataDir, { recursive: true });
  const database = new SqliteDatabase(path.join(dataDir, 'gantry.sqlite'));
  database.pragma('journal_mode = WAL');
  // With WAL, NORMAL is durable against application crashes; only a power loss can drop the last commits.
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  // The CLI and a running server share the file: wait for the other writer instead of failing.
  database.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
}
