import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase as KyselySqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import type { Database } from '../schema.js';

/**
 * Kysely prepares every statement anew; preparing costs more than running our small
 * queries, so keep prepared statements by SQL text (bounded, oldest evicted first).
 * Safe because Kysely's SQLite driver runs one statement at a time and we never stream.
 */
function withStatementCache(database: SqliteDatabase.Database, capacity = 512): KyselySqliteDatabase {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = database.prepare(sql);
        if (statements.size >= capacity) statements.delete(statements.keys().next().value as string);
        statements.set(sql, statement);
      }
      return statement;
    },
    close() {
      statements.clear();
      database.close();
    },
  };
}

/**
 * Transactions take SQLite's write lock when they begin (`BEGIN IMMEDIATE`). A deferred
 * transaction that reads first fails at once with SQLITE_BUSY when another process (the
 * CLI, `gantry worker`) commits before its first write — its read snapshot is stale, and
 * `busy_timeout` cannot help; an immediate one waits for the lock like any other writer.
 * Our transactions all write, and reads outside them never wait (WAL).
 */
class ImmediateTransactionDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateTransactionDialect extends SqliteDialect {
  constructor(private readonly config: SqliteDialectConfig) {
    super(config);
  }

  override createDriver(): Driver {
    return new ImmediateTransactionDriver(this.config);
  }
}

/**
 * The embedded store: one SQLite file under DATA_DIR, in WAL mode. `dataVersion` changes
 * when another connection (the CLI, another process) commits.
 */
export function openSqlite(dataDir: string): { db: Kysely<Database>; dataVersion: () => number } {
  fs.mkdirSync(dataDir, { recursive: true });
  const database = new SqliteDatabase(path.join(dataDir, 'gantry.sqlite'));
  database.pragma('journal_mode = WAL');
  // With WAL, NORMAL is durable against application crashes; only a power loss can drop the last commits.
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  // The CLI and a running server share the file: wait for the other writer instead of failing.
  database.pragma('busy_timeout = 5000');
  const version = database.prepare('pragma data_version').pluck();
  return {
    db: new Kysely<Database>({ dialect: new ImmediateTransactionDialect({ database: withStatementCache(database) }) }),
    dataVersion: () => version.get() as number,
  };
}
