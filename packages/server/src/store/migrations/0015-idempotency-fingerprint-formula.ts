import type { Kysely, Migration } from 'kysely';

/**
 * Which formula made a key's request fingerprint (domain/operation.ts): a retry is compared
 * with the fingerprint its key was claimed under, so that a key used before an upgrade that
 * changed the formula still replays its answer. The default, 1, is the formula of every
 * version before this column existed: keys already stored, and keys an older process still
 * running claims during the upgrade (it does not name the column). Newer versions always
 * name theirs.
 */
export const idempotencyFingerprintFormula: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('idempotency_keys')
      .addColumn('fingerprint_formula', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
  },
};
