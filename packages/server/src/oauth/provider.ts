import { createPrivateKey, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import Provider, { errors, interactionPolicy, type Configuration, type JWK, type KoaContextWithOIDC } from 'oidc-provider';
import type { Clock } from '../clock.js';
import type { DomainContext } from '../domain/context.js';
import { sameSecret } from '../domain/secrets.js';
import { authenticateWebSession, sessionTokenOf } from '../domain/sessions.js';
import type { Store } from '../store/store.js';
import { clientSecretDigest, storeAdapter } from './adapter.js';
import { validateRedirectUris } from './redirect-uris.js';

/** Where the authorization server answers (the spec's addresses). */
export const oauthPaths = {
  authorization: '/oauth/authorize',
  token: '/api/oauth/token',
  registration: '/api/oauth/register',
  revocation: '/api/oauth/revoke',
  jwks: '/api/oauth/jwks',
  interaction: '/oauth/interaction',
} as const;

export const oauthScopes = ['service:read', 'service:write'] as const;

/** Every scope an app may ask for: ours, `offline_access` (refresh tokens) and `openid`, which oidc-provider adds itself. */
const requestableScopes = new Set<string>([...oauthScopes, 'offline_access', 'openid']);

/**
 * RFC 6749 §4.1.2.1: a scope this server does not know is `invalid_scope`, sent back to the
 * app (oidc-provider would drop it and, with nothing left, deny the request later). Run as
 * an `extraParams` check: after the redirect URI is checked, so the error goes back to it.
 */
async function refuseUnknownScopes(_ctx: KoaContextWithOIDC, scope: string | undefined): Promise<void> {
  const unknown = (scope ?? '').split(' ').filter((each) => each !== '' && !requestableScopes.has(each));
  if (unknown.length > 0) throw new errors.InvalidScope(`the scope ${unknown.join(' ')} is not supported (supported: ${[...requestableScopes].join(' ')})`, unknown.join(' '));
}

/** The protected resources a token can be issued for: the REST API and the MCP server. */
export function oauthResources(baseUrl: string): { api: string; mcp: string } {
  return { api: `${baseUrl}/api`, mcp: `${baseUrl}/mcp` };
}

export const accessTokenTtlSec = 10 * 60;
const refreshTokenTtlSec = 30 * 24 * 60 * 60;

/** A secret generated once per instance and kept in the store, so every process shares it (generated only when there is none yet). */
async function instanceSecret(store: Store, clock: Clock, name: string, generate: () => string): Promise<string> {
  return (await store.q.oauth.findInstanceSecret(name)) ?? store.q.oauth.instanceSecret(name, generate(), clock.now().toISOString());
}

function generateSigningKey(): string {
  // Exported to JWK from a key object of its own, not from the one generated: on Node 20 a
  // garbage collection during that export can free the generation job, whose cleanup then
  // waits for the lock the export holds, and the process hangs (seen in CI).
  const { privateKey } = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const jwk = createPrivateKey(privateKey).export({ format: 'jwk' });
  return JSON.stringify({ ...jwk, kid: randomUUID(), alg: 'ES256', use: 'sig' });
}


export interface OAuthProviderOptions {
  store: Store;
  clock: Clock;
  baseUrl: string;
  /** Fetches client metadata documents through the destination guard; without it, URL client ids are not accepted. */
  publicFetch?: DomainContext['publicFetch'];
}

/**
 * The OAuth 2.1 authorization server (panva's certified `oidc-provider`): authorization
 * code with PKCE (S256 only) for public and confidential clients, dynamic registration
 * (RFC 7591), revocation (RFC 7009), resource indicators (RFC 8707) for the REST API and
 * the MCP server, refresh tokens rotated on every use (a reused one revokes its grant),
 * `iss` in authorization responses (RFC 9207), and client ids that are URLs of metadata
 * documents. Everything it keeps lives in our store.
 */
/**
 * The sign-in step is asked for unless the browser holds a web session of the person the
 * authorization server remembers (one sign-in: signing out of the web app signs out here
 * too), or the person has just signed in in this interaction.
 */
function signInPolicy(options: Pick<DomainContext, 'store' | 'clock' | 'baseUrl'>): interactionPolicy.DefaultPolicy {
  const policy = interactionPolicy.base();
  const webSession = new interactionPolicy.Check('no_web_session', 'The person is not signed in to the web app in this browser', async (ctx: KoaContextWithOIDC) => {
    const { oidc } = ctx;
    if (!oidc.session?.accountId || oidc.result?.login) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
    const token = sessionTokenOf(ctx.get('cookie'));
    const session = token ? await authenticateWebSession(options, token) : null;
    return session?.actor.userId === oidc.session.accountId ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT;
  });
  policy.get('login')?.checks.add(webSession);
  return policy;
}

export async function createOAuthProvider({ store, clock, baseUrl, publicFetch }: OAuthProviderOptions): Promise<Provider> {
  const resources = oauthResources(baseUrl);
  const cookieKey = await instanceSecret(store, clock, 'oauth-cookie-key', () => randomBytes(32).toString('base64url'));
  const signingKey = JSON.parse(await instanceSecret(store, clock, 'oauth-signing-key', generateSigningKey)) as JWK;

  const configuration: Configuration = {
    adapter: storeAdapter(store, clock),
    jwks: { keys: [signingKey] },
    cookies: { keys: [cookieKey] },
    routes: {
      authorization: oauthPaths.authorization,
      token: oauthPaths.token,
      registration: oauthPaths.registration,
      revocation: oauthPaths.revocation,
      jwks: oauthPaths.jwks,
    },
    scopes: [...oauthScopes, 'offline_access'],
    extraParams: { scope: refuseUnknownScopes },
    extraClientMetadata: { properties: ['redirect_uris'], validator: validateRedirectUris },
    claims: { openid: ['sub'] },
    responseTypes: ['code'],
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'ES256',
    },
    pkce: { required: () => true },
    // Refresh tokens for every client allowed the grant (MCP clients rarely ask for `offline_access`).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    // Revoking any token of a grant ends the grant itself (by default an access token's revocation
    // keeps it): the app leaves the person's connected apps and asks for consent again.
    revokeGrantPolicy: () => true,
    ttl: {
      AccessToken: accessTokenTtlSec,
      AuthorizationCode: 60,
      RefreshToken: refreshTokenTtlSec,
      Grant: 365 * 24 * 60 * 60,
      // As long as a web session: the sign-in step is asked again when the web session ended (signInPolicy).
      Session: 30 * 24 * 60 * 60,
      Interaction: 60 * 60,
    },
    features: {
      devInteractions: { enabled: false },
      // Off: tokens bound to a DPoP key would need proofs our resources do not check; PAR is not at a spec address.
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      registration: { enabled: true },
      // Client ID Metadata Documents: a client_id that is an https URL names its own metadata,
      // fetched (at most 5 KiB, 2.5 s, cached per its Cache-Control) through the guard.
      clientIdMetadataDocument: { enabled: publicFetch !== undefined, ack: 'draft-02' },
      // A token can be revoked only by the app it was issued to.
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx, _client, oneOf) => oneOf ?? resources.api,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resourceIndicator) => {
          if (resourceIndicator !== resources.api && resourceIndicator !== resources.mcp) throw new errors.InvalidTarget();
          return { scope: oauthScopes.join(' '), audience: resourceIndicator, accessTokenTTL: accessTokenTtlSec, accessTokenFormat: 'opaque' };
        },
      },
    },
    ...(publicFetch ? { fetch: publicFetch } : {}),
    interactions: { policy: signInPolicy({ store, clock, baseUrl }), url: (_ctx, interaction) => `${oauthPaths.interaction}/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const user = await store.q.users.findById(sub);
      return user ? { accountId: user.id, claims: () => ({ sub: user.id }) } : undefined;
    },
    renderError: async (ctx, out) => {
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = out;
    },
  };

  const provider = new Provider(baseUrl, configuration);
  // An https BASE_URL in front of a plain-HTTP server means a TLS-terminating proxy: trust its
  // X-Forwarded-Proto, so the sign-in cookies are marked Secure.
  provider.proxy = new URL(baseUrl).protocol === 'https:';
  // Client secrets are stored as digests (adapter.ts); compare the presented one the same way.
  provider.Client.prototype.compareClientSecret = function compareClientSecret(this: { clientSecret?: string }, actual: string) {
    return Promise.resolve(this.clientSecret !== undefined && sameSecret(this.clientSecret, clientSecretDigest(actual)));
  };
  return provider;
}
