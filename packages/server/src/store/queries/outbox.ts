import type { Insertable, Selectable } from 'kysely';
import type { IdempotencyKeysTable, MailOutboxTable } from '../schema.js';
import type { Executor } from './executor.js';

export type IdempotencyRow = Selectable<IdempotencyKeysTable>;
export type MailRow = Selectable<MailOutboxTable>;

/** Idempotency records and the mail outbox: what the service owes a caller later. */
export function outboxQueries(db: Executor) {
  return {
    findIdempotency(userId: string, key: string): Promise<IdempotencyRow | undefined> {
      return db.selectFrom('idempotency_keys').selectAll().where('user_id', '=', userId).where('key', '=', key).executeTakeFirst();
    },
    /** Claims the key; false when another request already holds it. */
    async claimIdempotency(row: Insertable<IdempotencyKeysTable>): Promise<boolean> {
      const result = await db
        .insertInto('idempotency_keys')
        .values(row)
        .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async completeIdempotency(userId: string, key: string, status: number, response: string): Promise<void> {
      await db.updateTable('idempotency_keys').set({ status, response }).where('user_id', '=', userId).where('key', '=', key).execute();
    },
    async releaseIdempotency(userId: string, key: string): Promise<void> {
      await db.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('key', '=', key).execute();
    },
    async purgeIdempotency(before: string): Promise<void> {
      await db.deleteFrom('idempotency_keys').where('created_at', '<', before).execute();
    },
    async insertMail(rows: Insertable<MailOutboxTable>[]): Promise<void> {
      if (rows.length > 0) await db.insertInto('mail_outbox').values(rows).execute();
    },
    /** Oldest first: the first `limit`, or with `newest` the last `limit`. */
    async listMail(options: { pendingOnly: boolean; limit: number; newest?: boolean }): Promise<MailRow[]> {
      let query = db.selectFrom('mail_outbox').selectAll();
      if (options.pendingOnly) query = query.where('sent_at', 'is', null);
      const direction = options.newest ? 'desc' : 'asc';
      const rows = await query.orderBy('created_at', direction).orderBy('id', direction).limit(options.limit).execute();
      return options.newest ? rows.reverse() : rows;
    },
    async markMailSent(id: string, at: string): Promise<void> {
      await db.updateTable('mail_outbox').set({ sent_at: at, error: null }).where('id', '=', id).execute();
    },
    async markMailFailed(id: string, error: string): Promise<void> {
      await db.updateTable('mail_outbox').set({ error }).where('id', '=', id).execute();
    },
  };
}
