import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { openPostgres } from '../../src/store/dialects/postgres.js';
import { openSqlite } from '../../src/store/dialects/sqlite.js';
import { storeMigrator } from '../../src/store/kysely-store.js';
import type { Database } from '../../src/store/schema.js';
import type { TestStoreEnv } from './test-store.js';

/** What an older release wrote to its store: produced by running that release (the README beside each snapshot says how). */
export interface ReleaseSnapshot {
  /** The migrations the release had applied, in order. */
  migrations: string[];
  /** Every row of every table it wrote, table by table in an order that inserts them (a table after those it refers to). */
  rows: Record<string, Record<string, unknown>[]>;
}

/**
 * Makes the store of `storeEnv` what the release left: its tables made by the migrations it
 * had (the same files today, as a landed migration is never edited), then its rows, then
 * `adjust` (e.g. to date a row relative to now). The store is left for the newer version's
 * `gantry migrate` or `serve` to upgrade.
 */
export async function loadReleaseSnapshot(storeEnv: TestStoreEnv, snapshot: ReleaseSnapshot, adjust?: (db: Kysely<Database>) => Promise<void>): Promise<void> {
  const { db, counters } = storeEnv.dialect === 'postgres' ? openPostgres(storeEnv.env.DATABASE_URL as string) : { ...openSqlite(storeEnv.env.DATA_DIR as string), counters: null };
  try {
    const migrator = await storeMigrator(db, storeEnv.dialect);
    expect((await migrator.migrateTo(snapshot.migrations.at(-1) as string)).error).toBeUndefined();
    // The release's tables are not all today's tables (some were renamed since): inserted untyped.
    const tables = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    for (const [table, rows] of Object.entries(snapshot.rows)) await tables.insertInto(table).values(rows).execute();
    await adjust?.(db);
  } finally {
    await Promise.all([db.destroy(), counters?.destroy()]);
  }
}
