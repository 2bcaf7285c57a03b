import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Clock } from '../clock.js';
import { secretDigest as artifactKey } from '../domain/secrets.js';
import type { OAuthArtifactRow, Store } from '../store/store.js';

/** A client secret as stored: its digest, marked so that it is never digested twice. */
export function clientSecretDigest(secret: string): string {
  return `sha256:${artifactKey(secret)}`;
}

function payloadOf(row: OAuthArtifactRow | undefined, now: string, jti: string | undefined): AdapterPayload | undefined {
  if (!row || (row.expires_at !== null && row.expires_at <= now)) return undefined;
  const payload = JSON.parse(row.payload) as AdapterPayload;
  if (jti !== undefined) payload.jti = jti;
  if (row.consumed_at !== null) payload.consumed = Math.floor(Date.parse(row.consumed_at) / 1000);
  return payload;
}

/**
 * oidc-provider's storage over our store, one adapter per model (Client, Grant, Session,
 * Interaction, AuthorizationCode, AccessToken, RefreshToken, …). Ids are stored hashed and
 * dropped from the payload (a token's `jti` is the token itself); a client's secret is
 * stored as its digest, which is what `compareClientSecret` checks against (provider.ts).
 */
export function storeAdapter(store: Store, clock: Clock) {
  return class StoreAdapter implements Adapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      // A grant's id is a reference, not a bearer secret: kept, so a person's grants can be listed and revoked.
      const { jti, ...rest } = payload;
      if (this.model === 'Grant') rest.jti = jti;
      if (this.model === 'Client' && typeof rest.client_secret === 'string' && !rest.client_secret.startsWith('sha256:')) {
        rest.client_secret = clientSecretDigest(rest.client_secret);
      }
      const now = clock.now();
      await store.q.oauth.upsert({
        model: this.model,
        id: artifactKey(id),
        payload: JSON.stringify(rest),
        grant_id: rest.grantId ?? null,
        uid: rest.uid ?? null,
        account_id: rest.accountId ?? null,
        expires_at: expiresIn ? new Date(now.getTime() + expiresIn * 1000).toISOString() : null,
        consumed_at: null,
        created_at: now.toISOString(),
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return payloadOf(await store.q.oauth.find(this.model, artifactKey(id)), clock.now().toISOString(), id);
    }

    /** Sessions by their public uid; the session's own id is not known here, its key stands in. */
    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const row = await store.q.oauth.findByUid(this.model, uid);
      return payloadOf(row, clock.now().toISOString(), row?.id);
    }

    async findByUserCode(): Promise<undefined> {
      return undefined; // the device flow is not enabled
    }

    async consume(id: string): Promise<void> {
      await store.q.oauth.consume(this.model, artifactKey(id), clock.now().toISOString());
    }

    async destroy(id: string): Promise<void> {
      await store.q.oauth.destroy(this.model, artifactKey(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await store.q.oauth.destroyByGrant(grantId);
    }
  };
}
