import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDatabase as KyselySqliteDatabase,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';
import { yieldIfBusy } from '../../time-slice.js';
import { workerScriptUrl } from '../../worker-script.js';
import type { Database } from '../schema.js';

/**
 * Kysely prepares every statement anew; preparing costs more than running our small
 * queries, so keep prepared statements by SQL text (bounded, oldest evicted first).
 * Safe because Kysely's SQLite driver runs one statement at a time: a statement read row
 * by row (`selectSliced`) holds the one connection until its last row.
 */
function withStatementCache(database: SqliteDatabase.Database, onClose: () => void, capacity = 512): KyselySqliteDatabase {
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
      onClose();
      database.close();
    },
  };
}

/**
 * The one connection as a transaction sees it: after each statement of a transaction it
 * lets the event loop turn once the transaction has held it for a slice (`yieldIfBusy`),
 * so that a big write (thousands of rows) never blocks other requests for its whole
 * length. That is safe because the driver lends its single connection to one holder at a
 * time (Kysely's mutex, held from `begin` to `commit`): other requests run meanwhile, but
 * their statements wait for the commit, and none sees the transaction's uncommitted rows.
 */
class SlicedConnection implements DatabaseConnection {
  inTransaction = false;
  /** In a read-only transaction (`Store.snapshot`): SQLite refuses writes (`query_only`) until it ends. */
  readOnly = false;

  constructor(private readonly inner: DatabaseConnection) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.inner.executeQuery<R>(query);
    if (this.inTransaction) await yieldIfBusy();
    return result;
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/**
 * Transactions take SQLite's write lock when they begin (`BEGIN IMMEDIATE`). A deferred
 * transaction that reads first fails at once with SQLITE_BUSY when another process (the
 * CLI, `gantry worker`) commits before its first write — its read snapshot is stale, and
 * `busy_timeout` cannot help; an immediate one waits for the lock like any other writer.
 * A read-only transaction (`Store.snapshot`) never writes: it begins deferred, and reads
 * one snapshot without taking the lock (WAL).
 */
class ImmediateTransactionDriver extends SqliteDriver {
  private readonly sliced = new WeakMap<DatabaseConnection, SlicedConnection>();

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    let sliced = this.sliced.get(connection);
    if (!sliced) this.sliced.set(connection, (sliced = new SlicedConnection(connection)));
    return sliced;
  }

  override async beginTransaction(connection: DatabaseConnection, settings?: TransactionSettings): Promise<void> {
    const sliced = connection as SlicedConnection;
    sliced.readOnly = settings?.accessMode === 'read only';
    await sliced.executeQuery(CompiledQuery.raw(sliced.readOnly ? 'begin deferred' : 'begin immediate'));
    if (sliced.readOnly) await sliced.executeQuery(CompiledQuery.raw('pragma query_only = on'));
    sliced.inTransaction = true;
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.endTransaction(connection as SlicedConnection, () => super.commitTransaction(connection));
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.endTransaction(connection as SlicedConnection, () => super.rollbackTransaction(connection));
  }

  private async endTransaction(connection: SlicedConnection, end: () => Promise<void>): Promise<void> {
    connection.inTransaction = false;
    try {
      await end();
    } finally {
      if (connection.readOnly) await connection.executeQuery(CompiledQuery.raw('pragma query_only = off'));
      connection.readOnly = false;
    }
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
 * Moves the WAL checkpoints of a long-running process to a thread of their own. SQLite
 * checkpoints in the connection that commits, once the WAL holds 1,000 pages: after a
 * write of 10,000 tasks that copies megabytes inside the commit, holding the event loop
 * about a tenth of a second. Should the thread fail, the connection checkpoints again.
 * Answers what stops the thread.
 */
function checkpointOffThread(database: SqliteDatabase.Database, file: string): () => void {
  database.pragma('wal_autocheckpoint = 0');
  const worker = new Worker(workerScriptUrl(import.meta.url, 'sqlite-checkpointer.js'), { workerData: { file, intervalMs: 1000 } });
  worker.unref();
  worker.once('error', () => database.open && database.pragma('wal_autocheckpoint = 1000'));
  return () => worker.postMessage('stop');
}

/**
 * The embedded store: one SQLite file under DATA_DIR, in WAL mode. `dataVersion` changes
 * when another connection (the CLI, another process) commits. `background`: a long-running
 * process (serve, worker), whose WAL checkpoints run off its main thread.
 */
export function openSqlite(dataDir: string, options: { background?: boolean } = {}): { db: Kysely<Database>; dataVersion: () => number } {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'gantry.sqlite');
  const database = new SqliteDatabase(file);
  database.pragma('journal_mode = WAL');
  // With WAL, NORMAL is durable against application crashes; only a power loss can drop the last commits.
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  // The CLI and a running server share the file: wait for the other writer instead of failing.
  database.pragma('busy_timeout = 5000');
  const stopCheckpoints = options.background ? checkpointOffThread(database, file) : () => undefined;
  const version = database.prepare('pragma data_version').pluck();
  // Read once per turn of the event loop (it costs several µs, and every request asks for
  // it twice): another process's commit is seen from the next turn on; this process's own
  // writes are counted apart (kysely-store.ts › WriteCounter) and seen at once.
  let current: number | undefined;
  const forget = () => {
    current = undefined;
  };
  return {
    db: new Kysely<Database>({ dialect: new ImmediateTransactionDialect({ database: withStatementCache(database, stopCheckpoints) }) }),
    dataVersion: () => {
      if (current === undefined) {
        current = version.get() as number;
        setImmediate(forget);
      }
      return current;
    },
  };
}
