import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.js';

/** PostgreSQL through a `pg` pool; `connectionString` may be any form `pg` accepts. */
export function openPostgres(connectionString: string): Kysely<Database> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // A connection that breaks (the server restarted, a proxy cut it) fails the query using
  // it, if any, and is dropped from the pool; the next query opens a new one. Its `error`
  // event — on the pool while idle, on the client while checked out, even between two
  // statements of a transaction — must be heard, or it would end the process.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
