import { openPostgres } from './dialects/postgres.js';
import { openSqlite } from './dialects/sqlite.js';
import { createKyselyStore, migrateToLatest } from './kysely-store.js';
import type { Store } from './store.js';

export interface StoreOptions {
  dataDir: string;
  databaseUrl: string | undefined;
  /** A long-running process (serve, worker) rather than one command: SQLite's WAL checkpoints then run off its main thread. */
  background?: boolean;
}

/**
 * Opens PostgreSQL when `databaseUrl` is set, else the embedded SQLite file, and
 * applies pending migrations (they are idempotent, so every process may do it).
 */
export async function openStore(options: StoreOptions): Promise<{ store: Store; applied: string[] }> {
  const { db, counters, dataVersion } = options.databaseUrl
    ? { ...openPostgres(options.databaseUrl), dataVersion: null }
    : { ...openSqlite(options.dataDir, { background: options.background }), counters: null };
  const dialect = options.databaseUrl ? 'postgres' : 'sqlite';
  try {
    const applied = await migrateToLatest(db, dialect);
    return { store: createKyselyStore(db, dialect, { dataVersion, counters }), applied };
  } catch (error) {
    await Promise.all([db.destroy(), counters?.destroy()]);
    throw error;
  }
}
