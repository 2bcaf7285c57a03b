import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.js';

function pool(connectionString: string, max: number, onConnect?: (client: pg.PoolClient) => void): Kysely<Database> {
  const connections = new pg.Pool({ connectionString, max });
  // A connection that breaks (the server restarted, a proxy cut it) fails the query using
  // it, if any, and is dropped from the pool; the next query opens a new one. Its `error`
  // event — on the pool while idle, on the client while checked out, even between two
  // statements of a transaction — must be heard, or it would end the process.
  connections.on('error', () => undefined);
  connections.on('connect', (client) => {
    client.on('error', () => undefined);
    onConnect?.(client);
  });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: connections }) });
}

/**
 * PostgreSQL through `pg` pools; `connectionString` may be any form `pg` accepts. `db` is
 * for the data. `counters` is for the rate limits' counts alone: a count is written on
 * every request, and waiting for it to reach the disk (`synchronous_commit`) would cost
 * each request a flush, while a crash of the database losing the last second of counts
 * only lets a few requests more through.
 */
export function openPostgres(connectionString: string): { db: Kysely<Database>; counters: Kysely<Database> } {
  return {
    db: pool(connectionString, 10),
    counters: pool(connectionString, 4, (client) => void client.query('set synchronous_commit = off').catch(() => undefined)),
  };
}
