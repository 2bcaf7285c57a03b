import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** A connection or a transaction: query modules work the same on both. */
export type Executor = Kysely<Database>;

export type Dialect = 'sqlite' | 'postgres';
