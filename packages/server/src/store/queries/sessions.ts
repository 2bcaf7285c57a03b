import type { Insertable, Selectable } from 'kysely';
import type { AccountTokensTable, WebSessionsTable } from '../schema.js';
import type { Executor } from './executor.js';

export type WebSessionRow = Selectable<WebSessionsTable>;
export type AccountTokenRow = Selectable<AccountTokensTable>;

/** Web sessions (by the digest of their token) and the single-use tokens of mailed links. */
export function sessionQueries(db: Executor) {
  return {
    async insert(row: Insertable<WebSessionsTable>): Promise<void> {
      await db.insertInto('web_sessions').values(row).execute();
    },
    /** The session with its person's name and e-mail address: one statement for each call of the web app. */
    findByDigestWithUser(digest: string) {
      return db
        .selectFrom('web_sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .selectAll('s')
        .select(['u.email', 'u.name as user_name'])
        .where('s.token_digest', '=', digest)
        .executeTakeFirst();
    },
    findById(id: string): Promise<WebSessionRow | undefined> {
      return db.selectFrom('web_sessions').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** The user's sessions, oldest first. */
    listForUser(userId: string): Promise<WebSessionRow[]> {
      return db.selectFrom('web_sessions').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
    },
    async touch(id: string, at: string): Promise<void> {
      await db.updateTable('web_sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
    },
    async delete(id: string): Promise<void> {
      await db.deleteFrom('web_sessions').where('id', '=', id).execute();
    },
    /** Deletes the session if it is the user's: whether it was. */
    async deleteOfUser(id: string, userId: string): Promise<boolean> {
      const result = await db.deleteFrom('web_sessions').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    /** Ends every session of the user but `keepId` (none kept when it is null). */
    async deleteForUser(userId: string, keepId: string | null): Promise<void> {
      let query = db.deleteFrom('web_sessions').where('user_id', '=', userId);
      if (keepId !== null) query = query.where('id', '!=', keepId);
      await query.execute();
    },
    async purgeExpired(before: string): Promise<void> {
      await db.deleteFrom('web_sessions').where('expires_at', '<', before).execute();
      await db.deleteFrom('account_tokens').where('expires_at', '<', before).execute();
    },

    async insertToken(row: Insertable<AccountTokensTable>): Promise<void> {
      await db.insertInto('account_tokens').values(row).execute();
    },
    /**
     * Marks the token used and returns it, when it is unused, of this purpose and not
     * expired at `at`; else undefined. Only one of two concurrent uses gets it.
     */
    useToken(digest: string, purpose: AccountTokensTable['purpose'], at: string): Promise<AccountTokenRow | undefined> {
      return db
        .updateTable('account_tokens')
        .set({ used_at: at })
        .where('digest', '=', digest)
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .where('expires_at', '>', at)
        .returningAll()
        .executeTakeFirst();
    },
  };
}
