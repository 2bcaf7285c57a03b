import type { Kysely } from 'kysely';
import { yieldIfBusy } from '../../time-slice.js';
import type { Database } from '../schema.js';

/** A connection or a transaction: query modules work the same on both. */
export type Executor = Kysely<Database>;

export type Dialect = 'sqlite' | 'postgres';

/**
 * Every row of a select that may be big (all tasks of a plan). On SQLite, better-sqlite3
 * reads synchronously: 10,000 rows at once would hold the event loop for all of them, so
 * the rows come from one statement (one snapshot) one at a time, and the loop turns between
 * slices (the connection stays this reader's meanwhile). PostgreSQL's driver receives the
 * rows from its socket in pieces anyway.
 */
export async function selectSliced<R>(dialect: Dialect, query: { execute(): Promise<R[]>; stream(): AsyncIterableIterator<R> }): Promise<R[]> {
  if (dialect !== 'sqlite') return query.execute();
  const rows: R[] = [];
  for await (const row of query.stream()) {
    rows.push(row);
    await yieldIfBusy();
  }
  return rows;
}
