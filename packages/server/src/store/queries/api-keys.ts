import { sql, type Insertable, type Selectable } from 'kysely';
import type { ApiKeysTable, AuditLogTable } from '../schema.js';
import type { Dialect, Executor } from './executor.js';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export function apiKeyQueries(db: Executor, dialect: Dialect) {
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
    /** A user's keys, newest first, each with the time of its latest audited call. */
    listForUser(userId: string) {
      return db
        .selectFrom('api_keys as k')
        .selectAll('k')
        .select((eb) => eb.selectFrom('audit_log as a').select((a) => a.fn.max('a.created_at').as('at')).whereRef('a.credential_id', '=', 'k.id').as('last_used_at'))
        .where('k.user_id', '=', userId)
        .orderBy('k.created_at', 'desc')
        .orderBy('k.id')
        .execute();
    },
    async revoke(id: string, at: string): Promise<void> {
      await db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    },
    /**
     * Every row in one statement whose text never changes, the rows passed as one JSON
     * parameter that the database unpacks: the statement is prepared once, however many
     * rows a batch holds (a multi-row VALUES list would be a new statement for each batch
     * size, and building it costs more than storing the rows). SQLite gets each row as an
     * array, read by position (a third less work per row than objects read by key).
     */
    async insertAuditEntries(rows: Insertable<AuditLogTable>[]): Promise<void> {
      if (rows.length === 0) return;
      const columns = sql`id, credential_kind, credential_id, client_id, user_id, method, path, status, request_id, duration_ms, created_at, calls`;
      if (dialect === 'sqlite') {
        const json = JSON.stringify(
          rows.map((r) => [r.id, r.credential_kind, r.credential_id, r.client_id, r.user_id, r.method, r.path, r.status, r.request_id, r.duration_ms, r.created_at, r.calls]),
        );
        await sql`insert into audit_log (${columns})
          select value->>0, value->>1, value->>2, value->>3, value->>4, value->>5, value->>6, value->>7, value->>8, value->>9, value->>10, value->>11
          from json_each(${json})`.execute(db);
        return;
      }
      await sql`insert into audit_log (${columns})
        select ${columns} from json_to_recordset(${JSON.stringify(rows)}::json) as entry(id text, credential_kind text, credential_id text,
          client_id text, user_id text, method text,
          path text, status integer, request_id text, duration_ms integer, created_at text, calls integer)`.execute(db);
    },
    /** Calls made with one credential (an API key's id or an OAuth grant's), oldest first. */
    listAuditEntries(credentialId: string) {
      return db
        .selectFrom('audit_log')
        .selectAll()
        .where('credential_id', '=', credentialId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
  };
}
