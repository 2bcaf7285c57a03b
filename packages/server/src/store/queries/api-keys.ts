import type { Insertable, Selectable } from 'kysely';
import type { ApiAuditLogTable, ApiKeysTable } from '../schema.js';
import type { Executor } from './executor.js';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export function apiKeyQueries(db: Executor) {
  return {
    async insert(row: Insertable<ApiKeysTable>): Promise<void> {
      await db.insertInto('api_keys').values(row).execute();
    },
    findById(id: string): Promise<ApiKeyRow | undefined> {
      return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** The key with its owner, by the hash of the presented token. */
    findByHashWithUser(tokenHash: string) {
      return db
        .selectFrom('api_keys as k')
        .innerJoin('users as u', 'u.id', 'k.user_id')
        .selectAll('k')
        .select(['u.email', 'u.name as user_name', 'u.avatar_url', 'u.locale', 'u.email_verified'])
        .where('k.token_hash', '=', tokenHash)
        .executeTakeFirst();
    },
    async revoke(id: string, at: string): Promise<void> {
      await db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    },
    async insertAuditEntries(rows: Insertable<ApiAuditLogTable>[]): Promise<void> {
      if (rows.length > 0) await db.insertInto('api_audit_log').values(rows).execute();
    },
    listAuditEntries(apiKeyId: string) {
      return db
        .selectFrom('api_audit_log')
        .selectAll()
        .where('api_key_id', '=', apiKeyId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
  };
}
