import { API_KEY_PREFIX, authenticateApiKey } from './api-keys.js';
import type { Actor, DomainContext } from './context.js';
import { authenticateAccessToken, protectedResources } from './oauth-grants.js';

const bearer = /^Bearer\s+(\S+)\s*$/i;

/** The token of an `Authorization: Bearer …` header (the scheme in any case), if it holds one. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return bearer.exec(authorization ?? '')?.[1];
}

/**
 * The one authentication path of every adapter: the `Authorization: Bearer …` header holds
 * an API key (`gnt_…`) or an OAuth access token, and either yields the same kind of actor.
 * A token must have been issued for the resource the call is addressed to. Null for a
 * missing, unknown, revoked or expired credential.
 */
export async function authenticateBearer(ctx: DomainContext, authorization: string | undefined, resource: 'api' | 'mcp'): Promise<Actor | null> {
  const token = bearerToken(authorization);
  if (!token) return null;
  if (token.startsWith(API_KEY_PREFIX)) return authenticateApiKey(ctx, token);
  return authenticateAccessToken(ctx, token, protectedResources(ctx.baseUrl)[resource]);
}
