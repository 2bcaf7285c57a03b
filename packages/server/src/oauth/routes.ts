import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { errors, type Interaction } from 'oidc-provider';
import { signIn, type SignedIn } from '../domain/accounts.js';
import type { DomainContext } from '../domain/context.js';
import { AppError } from '../domain/errors.js';
import { protectedResources } from '../domain/oauth-grants.js';
import { authenticateWebSession, fromOwnPages, sessionCookie, sessionTokenOf } from '../domain/sessions.js';
import { displayName } from '../domain/users.js';
import { consentPage, problemPage, signInPage } from './pages.js';
import { createOAuthProvider, oauthPaths, oauthScopes } from './provider.js';

/** Addresses answered by the authorization server itself, each under every method it accepts. */
const providerRoutes: { url: string; method: ('GET' | 'POST')[] }[] = [
  { url: oauthPaths.authorization, method: ['GET', 'POST'] },
  { url: `${oauthPaths.authorization}/:uid`, method: ['GET'] },
  { url: oauthPaths.token, method: ['POST'] },
  { url: oauthPaths.registration, method: ['POST'] },
  { url: `${oauthPaths.registration}/:clientId`, method: ['GET'] },
  { url: oauthPaths.revocation, method: ['POST'] },
  { url: oauthPaths.jwks, method: ['GET'] },
  { url: '/.well-known/openid-configuration', method: ['GET'] },
];

/**
 * Every address a client may probe for the server's metadata (RFC 8414, OpenID discovery,
 * and the path-inserted and path-appended forms some MCP clients try for a resource's
 * path): all answer the same document.
 */
const metadataAliases = [
  '/.well-known/oauth-authorization-server',
  ...['api', 'mcp'].flatMap((path) => [`/.well-known/oauth-authorization-server/${path}`, `/.well-known/openid-configuration/${path}`, `/${path}/.well-known/openid-configuration`]),
];

const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  // Not no-referrer: under it a browser sends `Origin: null` with the page's own forms, which the forms refuse.
  'referrer-policy': 'same-origin',
};

function sendPage(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).headers(pageHeaders).send(body);
}

function redirectHost(uri: unknown): string {
  try {
    return new URL(String(uri)).host || String(uri);
  } catch {
    return String(uri);
  }
}

/**
 * The OAuth 2.1 authorization server on the HTTP app: oidc-provider's endpoints at the
 * spec's addresses, its metadata under every discovery address, the protected-resource
 * metadata of the REST API and the MCP server (RFC 9728), and the sign-in and consent
 * pages. oidc-provider reads request bodies itself, so its routes get the raw stream.
 */
export async function oauthRoutes(app: FastifyInstance, ctx: DomainContext): Promise<void> {
  const provider = await createOAuthProvider(ctx);
  const callback = provider.callback();
  const resources = protectedResources(ctx.baseUrl);
  const origin = new URL(ctx.baseUrl);

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    const passThrough = async (request: FastifyRequest, reply: FastifyReply) => {
      // oidc-provider writes every address (metadata endpoints, redirects) from the request's
      // host: make it BASE_URL's, so a Host or X-Forwarded-Host header cannot move them.
      const { headers } = request.raw;
      headers.host = origin.host;
      if (provider.proxy) Object.assign(headers, { 'x-forwarded-host': origin.host, 'x-forwarded-proto': origin.protocol.slice(0, -1) });
      reply.hijack();
      await callback(request.raw, reply.raw);
    };
    for (const route of providerRoutes) scope.route({ ...route, handler: passThrough });
    for (const alias of metadataAliases) {
      scope.get(alias, async (request, reply) => {
        request.raw.url = '/.well-known/openid-configuration';
        return passThrough(request, reply);
      });
    }
  });

  for (const [path, resource, name] of [
    ['/.well-known/oauth-protected-resource', resources.mcp, 'Gantry MCP server'],
    ['/.well-known/oauth-protected-resource/mcp', resources.mcp, 'Gantry MCP server'],
    ['/.well-known/oauth-protected-resource/api', resources.api, 'Gantry REST API'],
  ] as const) {
    // Public documents: browser-based clients (the MCP Inspector) read them from other origins.
    app.get(path, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').header('access-control-allow-origin', '*').send({
        resource,
        resource_name: name,
        authorization_servers: [ctx.baseUrl],
        scopes_supported: [...oauthScopes],
        bearer_methods_supported: ['header'],
      }),
    );
    app.options(path, async (_request, reply) =>
      reply
        .code(204)
        .header('access-control-allow-origin', '*')
        .header('access-control-allow-methods', 'GET')
        .header('access-control-allow-headers', '*')
        .header('access-control-max-age', '3600')
        .send(),
    );
  }

  await app.register(async (scope) => interactionRoutes(scope, ctx, provider));
}

interface SignInForm {
  email?: string;
  password?: string;
}

/** Why the sign-in step may be asked for when a browser's web session answers it. */
const reusableSignIn = new Set(['no_session', 'no_web_session']);

/** What the sign-in page says when the domain refuses a sign-in. */
function refusal(error: AppError): { status: number; message: string } {
  if (error.code === 'rate_limited') return { status: 429, message: `Too many sign-in attempts. Try again in ${Math.ceil(Number(error.details?.retryAfterSec ?? 60) / 60)} minutes.` };
  if (error.details?.reason === 'email_unverified') return { status: 403, message: 'Confirm your e-mail address first: we have mailed you a new link.' };
  return { status: 401, message: 'The e-mail or the password is not right.' };
}

/**
 * The sign-in and consent steps oidc-provider hands over to us (`interactions.url`). Signing
 * in is the web app's sign-in (`signIn`, with its limits) and starts a web session; a
 * browser that has one skips the sign-in page. The forms answer only the service's own
 * pages, by the web session's rule (`fromOwnPages`): another site cannot post them with
 * the browser's cookies to sign someone in or to allow an app.
 */
async function interactionRoutes(scope: FastifyInstance, ctx: DomainContext, provider: Provider): Promise<void> {
  scope.addHook('onRequest', async (request, reply) => {
    if (request.method === 'POST' && !fromOwnPages(ctx, request.headers)) return sendPage(reply, 403, problemPage('The form was sent from another site, not from this page.'));
  });
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  /** The interaction this browser is in, or a page saying it expired (the cookie binds it to the browser). */
  async function details(request: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply): Promise<Interaction | null> {
    try {
      const found = await provider.interactionDetails(request.raw, reply.raw);
      if (found.uid === request.params.uid) return found;
    } catch (error) {
      if (!(error instanceof errors.SessionNotFound)) throw error;
    }
    sendPage(reply, 400, problemPage('This sign-in has expired or was started in another browser.'));
    return null;
  }

  async function clientName(clientId: unknown): Promise<{ name: string; origin: string }> {
    const client = await provider.Client.find(String(clientId));
    const name = client?.clientName ?? String(clientId);
    const fromUrl = /^https:\/\//.test(String(clientId));
    return { name, origin: fromUrl ? `Identified by its metadata document at ${String(clientId)}` : `Registered itself with this server as ${String(clientId)}` };
  }

  /** Hands the step's result back to oidc-provider, which answers with the redirect itself. */
  async function finish(reply: FastifyReply, request: FastifyRequest, result: Parameters<Provider['interactionFinished']>[2], merge: boolean): Promise<void> {
    reply.hijack();
    try {
      await provider.interactionFinished(request.raw, reply.raw, result, { mergeWithLastSubmission: merge });
    } catch (error) {
      // The interaction ended meanwhile (expired, or finished in another tab).
      request.log.warn({ err: error }, 'could not finish the OAuth interaction');
      if (!reply.raw.headersSent) reply.raw.writeHead(400, pageHeaders).end(problemPage('This sign-in has expired or was already answered.'));
    }
  }

  const base = `${oauthPaths.interaction}/:uid`;

  scope.get<{ Params: { uid: string } }>(base, async (request, reply) => {
    const interaction = await details(request, reply);
    if (!interaction) return reply;
    const { params, prompt, session } = interaction;
    const client = await clientName(params.client_id);
    const path = `${oauthPaths.interaction}/${encodeURIComponent(interaction.uid)}`;
    if (prompt.name === 'login' || !session) {
      // The web session stands in for signing in, unless the app asked for a fresh sign-in (max_age, prompt=login) or a given person.
      const token = prompt.reasons.every((reason) => reusableSignIn.has(reason)) ? sessionTokenOf(request.headers.cookie) : undefined;
      const signedIn = token ? await authenticateWebSession(ctx, token) : null;
      if (signedIn) return finish(reply, request, { login: { accountId: signedIn.actor.userId } }, false);
      return sendPage(reply, 200, signInPage({ action: `${path}/login`, clientName: client.name }));
    }
    const user = await ctx.store.q.users.findById(session.accountId);
    const missing = (prompt.details.missingResourceScopes ?? {}) as Record<string, string[]>;
    return sendPage(
      reply,
      200,
      consentPage({
        confirmAction: `${path}/confirm`,
        denyAction: `${path}/deny`,
        clientName: client.name,
        clientOrigin: client.origin,
        redirectHost: redirectHost(params.redirect_uri),
        userName: user ? displayName(user) : session.accountId,
        scopes: [...new Set(Object.values(missing).flat())],
        resources: Object.keys(missing),
      }),
    );
  });

  scope.post<{ Params: { uid: string }; Body: SignInForm }>(`${base}/login`, async (request, reply) => {
    const interaction = await details(request, reply);
    if (!interaction) return reply;
    const { email = '', password = '' } = request.body ?? {};
    const page = async (status: number, error: string) =>
      sendPage(reply, status, signInPage({ action: `${oauthPaths.interaction}/${encodeURIComponent(interaction.uid)}/login`, clientName: (await clientName(interaction.params.client_id)).name, email, error }));
    let signedIn: SignedIn;
    try {
      // Signed in to the web app as well: the browser keeps the session the redirect sets.
      signedIn = await signIn(ctx, email, password, { address: request.ip, userAgent: request.headers['user-agent'] ?? null });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const { status, message } = refusal(error);
      if (error.code === 'rate_limited') reply.header('retry-after', error.details?.retryAfterSec);
      return page(status, message);
    }
    reply.raw.setHeader('set-cookie', sessionCookie(ctx.baseUrl, signedIn.token));
    await finish(reply, request, { login: { accountId: signedIn.user.id } }, false);
  });

  scope.post<{ Params: { uid: string } }>(`${base}/confirm`, async (request, reply) => {
    const interaction = await details(request, reply);
    if (!interaction) return reply;
    const { params, prompt, session, grantId } = interaction;
    if (prompt.name !== 'consent' || !session) return sendPage(reply, 400, problemPage('There is nothing to allow at this step.'));
    const grant = (grantId ? await provider.Grant.find(grantId) : undefined) ?? new provider.Grant({ accountId: session.accountId, clientId: String(params.client_id) });
    const missing = (prompt.details.missingResourceScopes ?? {}) as Record<string, string[]>;
    for (const [resource, scopes] of Object.entries(missing)) grant.addResourceScope(resource, scopes.join(' '));
    const missingOidc = prompt.details.missingOIDCScope as string[] | undefined;
    if (missingOidc) grant.addOIDCScope(missingOidc.join(' '));
    await finish(reply, request, { consent: { grantId: await grant.save() } }, true);
  });

  scope.post<{ Params: { uid: string } }>(`${base}/deny`, async (request, reply) => {
    if (!(await details(request, reply))) return reply;
    await finish(reply, request, { error: 'access_denied', error_description: 'the person denied the request' }, false);
  });
}
