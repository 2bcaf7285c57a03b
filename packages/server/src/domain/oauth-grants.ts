import type { OAuthGrant, Scope } from '@gantry/contract';
import type { Actor, DomainContext } from './context.js';
import { nowIso } from './context.js';
import { notFound } from './errors.js';
import { secretDigest } from './secrets.js';
import { displayName } from './users.js';

/** The protected resources an OAuth access token is issued for (its audience): the REST API and the MCP server. */
export function protectedResources(baseUrl: string): { api: string; mcp: string } {
  return { api: `${baseUrl}/api`, mcp: `${baseUrl}/mcp` };
}

/** The fields of a stored access token this service reads (the authorization server writes more). */
interface AccessTokenPayload {
  accountId: string;
  clientId: string;
  grantId: string;
  aud?: string | string[];
  scope?: string;
  exp: number;
}

/** The name an app goes by: its registered name, else its client id (a metadata-document app's URL). */
async function clientNameOf(ctx: DomainContext, clientId: string): Promise<string> {
  const client = await ctx.store.q.oauth.find('Client', secretDigest(clientId));
  return (client ? (JSON.parse(client.payload) as { client_name?: string }).client_name : undefined) ?? clientId;
}

function scopeOf(granted: string | undefined): Scope | null {
  const scopes = new Set(granted?.split(' '));
  return scopes.has('service:write') ? 'write' : scopes.has('service:read') ? 'read' : null;
}

/**
 * The actor an OAuth access token acts as, or null when it is unknown, expired, revoked
 * (its grant revoked or replayed), issued for another resource than `audience`, or
 * without a scope of this service. The token acts as its user, narrowed to its scope,
 * exactly like an API key of that scope; its grant is the credential.
 */
export async function authenticateAccessToken(ctx: DomainContext, token: string, audience: string): Promise<Actor | null> {
  const digest = secretDigest(token);
  const lookup = async () => {
    const row = await ctx.store.q.oauth.find('AccessToken', digest);
    if (!row) return null;
    const payload = JSON.parse(row.payload) as AccessTokenPayload;
    const [user, clientName] = await Promise.all([ctx.store.q.users.findById(payload.accountId), clientNameOf(ctx, payload.clientId)]);
    return user ? { payload, expiresAt: row.expires_at, user, clientName } : null;
  };
  const found = ctx.memo ? await ctx.memo.get(ctx.store, `oauth:${digest}`, lookup) : await lookup();
  if (!found) return null;
  const { payload, user } = found;
  const now = nowIso(ctx);
  if ((found.expiresAt !== null && found.expiresAt <= now) || payload.exp * 1000 <= ctx.clock.now().getTime()) return null;
  if (!(Array.isArray(payload.aud) ? payload.aud : [payload.aud]).includes(audience)) return null;
  const scope = scopeOf(payload.scope);
  if (!scope) return null;
  return {
    userId: user.id,
    name: displayName(user),
    scope,
    workspaceId: null,
    credential: { kind: 'oauth', id: payload.grantId, clientId: payload.clientId, clientName: found.clientName },
  };
}

interface GrantPayload {
  jti: string;
  accountId: string;
  clientId: string;
  resources?: Record<string, string>;
}

/** The apps a person allowed to act for them, oldest first. */
export async function listGrants(ctx: DomainContext, actor: Actor): Promise<OAuthGrant[]> {
  const rows = await ctx.store.q.oauth.listByAccount('Grant', actor.userId);
  const now = nowIso(ctx);
  return Promise.all(
    rows
      .filter((row) => row.expires_at === null || row.expires_at > now)
      .map(async (row) => {
        const grant = JSON.parse(row.payload) as GrantPayload;
        const resources = grant.resources ?? {};
        const scopes = [...new Set(Object.values(resources).flatMap((scope) => scope.split(' ')))].filter(
          (scope): scope is OAuthGrant['scopes'][number] => scope === 'service:read' || scope === 'service:write',
        );
        return {
          id: grant.jti,
          clientId: grant.clientId,
          clientName: await clientNameOf(ctx, grant.clientId),
          scopes: scopes.sort(),
          resources: Object.keys(resources).sort(),
          createdAt: row.created_at,
          expiresAt: row.expires_at,
        };
      }),
  );
}

/** Ends one of the person's grants: the grant and every code and token issued under it. */
export async function revokeGrant(ctx: DomainContext, actor: Actor, grantId: string): Promise<void> {
  const row = await ctx.store.q.oauth.find('Grant', secretDigest(grantId));
  if (!row || (JSON.parse(row.payload) as GrantPayload).accountId !== actor.userId) throw notFound(`grant ${grantId}`);
  await ctx.store.transaction(async (tx) => {
    await tx.oauth.destroyByGrant(grantId);
    await tx.oauth.destroy('Grant', secretDigest(grantId));
  });
}
