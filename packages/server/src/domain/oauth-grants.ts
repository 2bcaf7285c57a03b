import type { Scope } from '@gantry/contract';
import type { Actor, DomainContext } from './context.js';
import { nowIso } from './context.js';
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
    const [user, client] = await Promise.all([ctx.store.q.users.findById(payload.accountId), ctx.store.q.oauth.find('Client', secretDigest(payload.clientId))]);
    const clientName = client ? (JSON.parse(client.payload) as { client_name?: string }).client_name : undefined;
    return user ? { payload, expiresAt: row.expires_at, user, clientName: clientName ?? payload.clientId } : null;
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
