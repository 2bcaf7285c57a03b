import type { Insertable, Selectable } from 'kysely';
import type { OAuthArtifactsTable } from '../schema.js';
import type { Executor } from './executor.js';

export type OAuthArtifactRow = Selectable<OAuthArtifactsTable>;

/** The authorization server's artifacts (by model and hashed id) and the instance's secrets. */
export function oauthQueries(db: Executor) {
  return {
    async upsert(row: Insertable<OAuthArtifactsTable>): Promise<void> {
      await db
        .insertInto('oauth_artifacts')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['model', 'id']).doUpdateSet({
            payload: row.payload,
            grant_id: row.grant_id ?? null,
            uid: row.uid ?? null,
            account_id: row.account_id ?? null,
            expires_at: row.expires_at ?? null,
          }),
        )
        .execute();
    },
    find(model: string, id: string): Promise<OAuthArtifactRow | undefined> {
      return db.selectFrom('oauth_artifacts').selectAll().where('model', '=', model).where('id', '=', id).executeTakeFirst();
    },
    findByUid(model: string, uid: string): Promise<OAuthArtifactRow | undefined> {
      return db.selectFrom('oauth_artifacts').selectAll().where('model', '=', model).where('uid', '=', uid).executeTakeFirst();
    },
    async consume(model: string, id: string, at: string): Promise<void> {
      await db.updateTable('oauth_artifacts').set({ consumed_at: at }).where('model', '=', model).where('id', '=', id).execute();
    },
    async destroy(model: string, id: string): Promise<void> {
      await db.deleteFrom('oauth_artifacts').where('model', '=', model).where('id', '=', id).execute();
    },
    /** Every code and token issued under a grant (the grant itself is a `Grant` row, deleted by id). */
    async destroyByGrant(grantId: string): Promise<void> {
      await db.deleteFrom('oauth_artifacts').where('grant_id', '=', grantId).execute();
    },
    listByAccount(model: string, accountId: string): Promise<OAuthArtifactRow[]> {
      return db.selectFrom('oauth_artifacts').selectAll().where('model', '=', model).where('account_id', '=', accountId).orderBy('created_at').execute();
    },
    listByModel(model: string): Promise<OAuthArtifactRow[]> {
      return db.selectFrom('oauth_artifacts').selectAll().where('model', '=', model).execute();
    },
    async purgeExpired(before: string): Promise<void> {
      await db.deleteFrom('oauth_artifacts').where('expires_at', '<', before).execute();
    },
    /** The secret stored under `name`, created from `value` by whichever process asks first. */
    async findInstanceSecret(name: string): Promise<string | undefined> {
      return (await db.selectFrom('instance_secrets').select('value').where('name', '=', name).executeTakeFirst())?.value;
    },
    /** Stores `value` under `name` unless another process stored one first; answers the one kept. */
    async instanceSecret(name: string, value: string, at: string): Promise<string> {
      await db
        .insertInto('instance_secrets')
        .values({ name, value, created_at: at })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await db.selectFrom('instance_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
      return row.value;
    },
  };
}
