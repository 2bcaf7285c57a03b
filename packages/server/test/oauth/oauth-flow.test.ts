import { get } from 'node:http';
import * as oauth from 'oauth4webapi';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { authorizationRequest, discover, exchangeCode, insecure, register, signInAndConsent } from '../support/oauth-client.js';
import { presentEvent } from '../../src/domain/events.js';
import { sessionHeaders } from '../support/sessions.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
let browser: Browser;
let as: oauth.AuthorizationServer;
let api: string;
let mcp: string;
const alice = { email: 'alice@example.com', password: 'correct horse battery' };
let aliceKey: string;
let aliceId: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  api = `${server.url}/api`;
  mcp = `${server.url}/mcp`;
  const created = await server.cli('user', 'create', '--email', alice.email, '--name', 'Alice', '--password', alice.password, '--json');
  expect(created.code, created.stderr).toBe(0);
  aliceId = (created.json as { user: { id: string } }).user.id;
  const key = await server.cli('key', 'create', '--email', alice.email, '--scope', 'write', '--json');
  aliceKey = (key.json as { key: string }).key;
  as = await discover(server);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Registration, the person's sign-in and consent in the browser, and the code exchange. */
async function authorize(params: Record<string, string> = {}, options: { client?: oauth.Client; auth?: oauth.ClientAuth } = {}) {
  const client = options.client ?? (await register(as));
  const request = await authorizationRequest(as, client, { scope: 'service:read service:write', resource: api, ...params });
  const { callback, consentText, cookie } = await signInAndConsent(browser, request.url, alice);
  const tokens = await exchangeCode(as, client, request, callback, options.auth);
  return { client, tokens, consentText, callback, cookie };
}

function call(token: string, method: string, path: string, body?: unknown) {
  return server.request(method, path, { key: token, ...(body === undefined ? {} : { body }) });
}

async function refresh(client: oauth.Client, refreshToken: string, auth: oauth.ClientAuth = oauth.None()) {
  return oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, insecure);
}

async function oauthError(response: Response): Promise<string> {
  const body = (await response.json()) as { error?: string };
  return body.error ?? `none (HTTP ${response.status})`;
}

describe('discovery', () => {
  test('the metadata names the spec addresses, both grants and S256 only; every address clients probe answers the same', async () => {
    expect(as).toMatchObject({
      issuer: server.url,
      authorization_endpoint: `${server.url}/oauth/authorize`,
      token_endpoint: `${server.url}/api/oauth/token`,
      registration_endpoint: `${server.url}/api/oauth/register`,
      revocation_endpoint: `${server.url}/api/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(as.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(as.scopes_supported).toEqual(expect.arrayContaining(['service:read', 'service:write']));
    for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server/mcp', '/.well-known/openid-configuration/mcp', '/mcp/.well-known/openid-configuration']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(((await response.json()) as { issuer: string }).issuer, path).toBe(server.url);
    }
    expect((await fetch(`${server.url}/.well-known/oauth-authorization-server/elsewhere`)).status).toBe(404);
  });

  test("every address of the metadata is BASE_URL's, whatever host the request names", async () => {
    const { port } = new URL(server.url);
    for (const headers of [{ host: 'evil.example' }, { host: `localhost:${port}`, 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }]) {
      const metadata = await new Promise<Record<string, unknown>>((resolve, reject) => {
        get({ host: '127.0.0.1', port, path: '/.well-known/oauth-authorization-server', headers }, (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve(JSON.parse(text) as Record<string, unknown>));
        }).on('error', reject);
      });
      const addresses = Object.entries(metadata).filter(([name]) => name.endsWith('_endpoint') || name === 'jwks_uri' || name === 'issuer');
      expect(addresses.length, JSON.stringify(headers)).toBeGreaterThan(5);
      for (const [name, value] of addresses) expect(value === server.url || String(value).startsWith(`${server.url}/`), `${name}: ${String(value)}`).toBe(true);
    }
  });

  test('protected-resource metadata (RFC 9728) for the MCP server and the REST API', async () => {
    for (const [path, resource] of [
      ['/.well-known/oauth-protected-resource', mcp],
      ['/.well-known/oauth-protected-resource/mcp', mcp],
      ['/.well-known/oauth-protected-resource/api', api],
    ] as const) {
      const response = await fetch(`${server.url}${path}`, { headers: { origin: 'https://inspector.example' } });
      const metadata = (await response.json()) as Record<string, unknown>;
      expect(metadata, path).toMatchObject({ resource, authorization_servers: [server.url], scopes_supported: ['service:read', 'service:write'] });
      // Readable by browser clients of any origin, preflight included.
      expect(response.headers.get('access-control-allow-origin'), path).toBe('*');
      const preflight = await fetch(`${server.url}${path}`, { method: 'OPTIONS', headers: { origin: 'https://inspector.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'mcp-protocol-version' } });
      expect(preflight.status, path).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin'), path).toBe('*');
    }
  });
});

describe('the authorization code flow, end to end', () => {
  test('register → sign in and consent → token → REST call as the person → refresh rotates → a replayed refresh token revokes the grant', async () => {
    const { client, tokens, consentText, callback } = await authorize();
    expect(callback.searchParams.get('iss')).toBe(server.url);
    expect(consentText).toContain('Example Planner');
    expect(consentText).toContain('service:write');
    expect(consentText).toContain('Alice');
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBeLessThanOrEqual(600);
    expect(tokens.refresh_token).toBeTruthy();

    const me = await call(tokens.access_token, 'GET', '/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user: { email: alice.email } });
    const created = await call(tokens.access_token, 'POST', '/api/projects', { name: 'Made by an app', key: 'APP' });
    expect(created.status).toBe(201);
    const projectId = (created.body as { project: { id: string } }).project.id;
    // An app never deletes, even with the confirmation the web app sends.
    const deleted = await call(tokens.access_token, 'DELETE', `/api/projects/${projectId}?confirm=APP`);
    expect(deleted.status).toBe(403);
    expect(deleted.body).toMatchObject({ error: 'forbidden', details: { reason: 'destructive' } });

    // Every call is in the audit log under the grant, with the client named.
    const grants = await server.store.q.oauth.listByAccount('Grant', aliceId);
    const grantId = (JSON.parse(grants.at(-1)?.payload ?? '{}') as { jti: string }).jti;
    await expect.poll(async () => (await server.store.q.apiKeys.listAuditEntries(grantId)).map((entry) => `${entry.method} ${entry.path} ${entry.status} ${entry.client_id}`)).toEqual([
      `GET /api/auth/me 200 ${client.client_id}`,
      `POST /api/projects 201 ${client.client_id}`,
      `DELETE /api/projects/${projectId} 403 ${client.client_id}`,
    ]);

    // The change's event names the person and the app that acted for them.
    const [createdEvent] = await server.store.q.events.listForProject(projectId);
    expect(createdEvent && presentEvent(createdEvent)).toMatchObject({ type: 'project.created', actor: { id: aliceId, name: 'Alice', client: { id: client.client_id, name: 'Example Planner' } } });

    const rotated = await oauth.processRefreshTokenResponse(as, client, await refresh(client, tokens.refresh_token as string));
    expect(rotated.refresh_token).toBeTruthy();
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect((await call(rotated.access_token, 'GET', '/api/auth/me')).status).toBe(200);

    const replay = await refresh(client, tokens.refresh_token as string);
    expect(replay.status).toBe(400);
    expect(await oauthError(replay)).toBe('invalid_grant');
    // The replay revoked the whole grant: the rotated refresh token and its access token stop working.
    expect(await oauthError(await refresh(client, rotated.refresh_token as string))).toBe('invalid_grant');
    expect((await call(rotated.access_token, 'GET', '/api/auth/me')).status).toBe(401);
  }, 60_000);
});

describe('apps and people', () => {
  test('a confidential client authenticates with its secret, which the store keeps only as a digest; a wrong secret is invalid_client', async () => {
    const client = await register(as, { token_endpoint_auth_method: 'client_secret_basic', client_name: 'Server-side app' });
    const secret = client.client_secret as string;
    expect(secret.length).toBeGreaterThan(30);
    const { tokens } = await authorize({}, { client, auth: oauth.ClientSecretBasic(secret) });
    expect((await call(tokens.access_token, 'GET', '/api/auth/me')).status).toBe(200);
    const wrong = await refresh(client, tokens.refresh_token as string, oauth.ClientSecretBasic(`${secret}x`));
    expect(await oauthError(wrong)).toBe('invalid_client');

    const everything = await allArtifacts();
    expect(everything).toContain(client.client_id); // the search below can find what is there
    for (const secretValue of [secret, tokens.access_token, tokens.refresh_token as string]) expect(everything.includes(secretValue)).toBe(false);
  }, 60_000);

  test('a person who denies sends the app back with access_denied (and iss)', async () => {
    const client = await register(as);
    const request = await authorizationRequest(as, client, { scope: 'service:read', resource: api });
    const { callback } = await signInAndConsent(browser, request.url, alice, 'Deny');
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('iss')).toBe(server.url);
    expect(callback.searchParams.get('code')).toBeNull();
  }, 60_000);

  test('a wrong password shows the sign-in page again with a message, and signs no one in', async () => {
    const client = await register(as);
    const request = await authorizationRequest(as, client, { scope: 'service:read', resource: api });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(request.url.href);
    await page.fill('#email', alice.email);
    await page.fill('#password', 'not her password');
    await page.click('button[type=submit]');
    await expect.poll(async () => page.innerText('main')).toContain('not right');
    expect(await page.locator('#password').count()).toBe(1);
    await context.close();
  }, 60_000);

  test('failed sign-ins are limited per e-mail address: after 10 within 15 minutes, even the right password is refused (429) before any is checked', async () => {
    const client = await register(as);
    const request = await authorizationRequest(as, client, { scope: 'service:read', resource: api });
    const started = await fetch(request.url, { redirect: 'manual' });
    const interaction = started.headers.get('location') as string;
    const cookie = started.headers.getSetCookie().map((each) => each.split(';')[0]).join('; ');
    const attempt = (password: string) =>
      fetch(new URL(`${interaction}/login`, server.url), {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: 'Dave@Example.com', password }),
        redirect: 'manual',
      });
    expect((await server.cli('user', 'create', '--email', 'dave@example.com', '--password', 'daves real password')).code).toBe(0);
    for (let i = 0; i < 10; i += 1) expect((await attempt(`guess ${i}`)).status).toBe(401);
    const refused = await attempt('daves real password');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.text()).toContain('Too many sign-in attempts');
  }, 60_000);

  test('a read grant reads, with a rate-limit budget of its own, but cannot write (403 forbidden, insufficient_scope)', async () => {
    const { tokens } = await authorize({ scope: 'service:read' });
    expect(tokens.scope).toBe('service:read');
    // Each grant has its own read budget, apart from the person's keys and other grants.
    for (let i = 0; i < 3; i += 1) await call(aliceKey, 'GET', '/api/projects');
    const first = await call(tokens.access_token, 'GET', '/api/projects');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-remaining')).toBe(String(Number(first.headers.get('x-ratelimit-limit')) - 1));
    const write = await call(tokens.access_token, 'POST', '/api/projects', { name: 'Refused', key: 'NOPE' });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ error: 'forbidden', details: { reason: 'insufficient_scope' } });
  }, 60_000);

  test('a token used after its person lost access to a project gets 404, like any invisible project', async () => {
    const bob = await server.cli('user', 'create', '--email', 'bob@example.com', '--json');
    expect(bob.code, bob.stderr).toBe(0);
    const bobKey = ((await server.cli('key', 'create', '--email', 'bob@example.com', '--scope', 'write', '--json')).json as { key: string }).key;
    const project = await call(bobKey, 'POST', '/api/projects', { name: "Bob's", key: 'BOB' });
    const projectId = (project.body as { project: { id: string } }).project.id;
    expect((await server.cli('project', 'add-member', '--project', projectId, '--email', alice.email, '--role', 'editor')).code).toBe(0);
    const { tokens } = await authorize();
    expect((await call(tokens.access_token, 'GET', `/api/projects/${projectId}`)).status).toBe(200);
    await server.store.q.projects.removeMember(projectId, aliceId);
    const after = await call(tokens.access_token, 'GET', `/api/projects/${projectId}`);
    expect(after.status).toBe(404);
    expect((await call(aliceKey, 'GET', `/api/projects/${projectId}`)).status).toBe(404);
  }, 60_000);
});

describe('the person manages the apps they allowed', () => {
  test('GET /api/auth/grants lists them for the signed-in person; DELETE disconnects one at once; keys and tokens cannot do either', async () => {
    const { client, tokens, cookie } = await authorize({ scope: 'service:read' });
    const listed = await server.request<{ grants: { id: string; clientId: string; clientName: string; scopes: string[]; resources: string[] }[] }>('GET', '/api/auth/grants', {
      headers: { cookie },
    });
    expect(listed.status).toBe(200);
    const grant = listed.body.grants.find((each) => each.clientId === client.client_id);
    expect(grant).toMatchObject({ clientName: 'Example Planner', scopes: ['service:read'], resources: [api] });

    for (const credential of [aliceKey, tokens.access_token]) {
      expect((await server.request('GET', '/api/auth/grants', { key: credential })).status).toBe(401);
      expect((await server.request('DELETE', `/api/auth/grants/${grant?.id}`, { key: credential })).status).toBe(401);
    }
    expect((await call(tokens.access_token, 'GET', '/api/auth/me')).status).toBe(200);

    // The sign-in page signed the person in to the web app: the same session, with its CSRF rule.
    const forged = await server.request('DELETE', `/api/auth/grants/${grant?.id}`, { headers: { cookie } });
    expect(forged.body).toMatchObject({ error: 'forbidden', details: { reason: 'csrf' } });
    const headers = await sessionHeaders(server, cookie);
    const revoked = await server.request('DELETE', `/api/auth/grants/${grant?.id}`, { headers });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ id: grant?.id, revoked: true });
    expect((await call(tokens.access_token, 'GET', '/api/auth/me')).status).toBe(401);
    expect(await oauthError(await refresh(client, tokens.refresh_token as string))).toBe('invalid_grant');
    const after = await server.request<{ grants: { id: string }[] }>('GET', '/api/auth/grants', { headers: { cookie } });
    expect(after.body.grants.map((each) => each.id)).not.toContain(grant?.id);
    expect((await server.request('DELETE', `/api/auth/grants/${grant?.id}`, { headers })).status).toBe(404);
  }, 60_000);

  test("one person cannot see or revoke another's grants (404)", async () => {
    const { client } = await authorize({ scope: 'service:read' });
    const grants = await server.store.q.oauth.listByAccount('Grant', aliceId);
    const grantId = grants.map((row) => JSON.parse(row.payload) as { jti: string; clientId: string }).find((grant) => grant.clientId === client.client_id)?.jti;
    const carol = { email: 'carol@example.com', password: 'another good password' };
    expect((await server.cli('user', 'create', '--email', carol.email, '--password', carol.password)).code).toBe(0);
    const theirs = await authorizationRequest(as, await register(as), { scope: 'service:read', resource: api });
    const { cookie } = await signInAndConsent(browser, theirs.url, carol);
    const listed = await server.request<{ grants: { id: string }[] }>('GET', '/api/auth/grants', { headers: { cookie } });
    expect(listed.body.grants.map((grant) => grant.id)).not.toContain(grantId);
    expect(listed.body.grants).toHaveLength(1);
    expect((await server.request('DELETE', `/api/auth/grants/${grantId}`, { headers: await sessionHeaders(server, cookie) })).status).toBe(404);
  }, 60_000);
});

async function allArtifacts(): Promise<string> {
  const rows = await Promise.all(['Grant', 'Session', 'AccessToken', 'RefreshToken', 'Client'].map((model) => server.store.q.oauth.listByModel(model)));
  return JSON.stringify(rows);
}

describe('refused, each with the RFC error', () => {
  test('plain PKCE and missing PKCE are refused at the authorization endpoint', async () => {
    const client = await register(as);
    for (const params of [{ code_challenge_method: 'plain', code_challenge: 'a'.repeat(43) }, { code_challenge: '', code_challenge_method: '' }]) {
      const request = await authorizationRequest(as, client, { scope: 'service:read', resource: api, ...params });
      for (const [name, value] of Object.entries(params)) if (value === '') request.url.searchParams.delete(name);
      const response = await fetch(request.url, { redirect: 'manual' });
      expect(response.status, JSON.stringify(params)).toBe(303);
      const location = new URL(response.headers.get('location') as string);
      expect(location.searchParams.get('error'), JSON.stringify(params)).toBe('invalid_request');
    }
  });

  test('a redirect URI other than a registered one is refused without redirecting', async () => {
    const client = await register(as);
    const request = await authorizationRequest(as, client, { scope: 'service:read', resource: api, redirect_uri: 'http://127.0.0.1:9/callback/elsewhere' });
    const response = await fetch(request.url, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_redirect_uri');
  });

  test('an authorization code used twice is refused, and the tokens it gave stop working', async () => {
    const client = await register(as);
    const request = await authorizationRequest(as, client, { scope: 'service:read', resource: api });
    const { callback } = await signInAndConsent(browser, request.url, alice);
    const tokens = await exchangeCode(as, client, request, callback);
    expect((await call(tokens.access_token, 'GET', '/api/auth/me')).status).toBe(200);
    const params = oauth.validateAuthResponse(as, client, callback, request.state);
    const again = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, 'http://127.0.0.1:9/callback', request.verifier, insecure);
    expect(await oauthError(again)).toBe('invalid_grant');
    expect((await call(tokens.access_token, 'GET', '/api/auth/me')).status).toBe(401);
  }, 60_000);

  test('a token issued for another resource is refused; an unknown resource is invalid_target', async () => {
    const { tokens } = await authorize({ resource: mcp });
    const refused = await call(tokens.access_token, 'GET', '/api/auth/me');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: 'unauthorized' });
    // The 401 tells an OAuth client where to learn how to get the right token (RFC 9728).
    const challenge = refused.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] as string;
    expect(((await (await fetch(metadataUrl)).json()) as { resource: string }).resource).toBe(api);

    const client = await register(as);
    const request = await authorizationRequest(as, client, { scope: 'service:read', resource: 'https://elsewhere.example/api' });
    const response = await fetch(request.url, { redirect: 'manual' });
    expect(new URL(response.headers.get('location') as string).searchParams.get('error')).toBe('invalid_target');
  }, 60_000);

  test('revocation (RFC 7009): revoking either token ends every token of the grant; only the app that holds a token can revoke it', async () => {
    const first = await authorize();
    const other = await register(as);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, other, oauth.None(), first.tokens.access_token, insecure));
    expect((await call(first.tokens.access_token, 'GET', '/api/auth/me')).status).toBe(200);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, first.client, oauth.None(), first.tokens.access_token, insecure));
    expect((await call(first.tokens.access_token, 'GET', '/api/auth/me')).status).toBe(401);
    expect(await oauthError(await refresh(first.client, first.tokens.refresh_token as string))).toBe('invalid_grant');

    const second = await authorize();
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, second.client, oauth.None(), second.tokens.refresh_token as string, insecure));
    expect((await call(second.tokens.access_token, 'GET', '/api/auth/me')).status).toBe(401);
    expect(await oauthError(await refresh(second.client, second.tokens.refresh_token as string))).toBe('invalid_grant');
  }, 60_000);

  test('an expired access token is refused (tokens live 10 minutes)', async () => {
    const { tokens } = await authorize();
    expect((await call(tokens.access_token, 'GET', '/api/auth/me')).status).toBe(200);
    server.clock.advance(10 * 60 * 1000 + 1000);
    expect((await call(tokens.access_token, 'GET', '/api/auth/me')).status).toBe(401);
    // The hourly purge drops what expired (the access tokens), and keeps what still lives (grants).
    const grants = (await server.store.q.oauth.listByModel('Grant')).length;
    expect((await server.store.q.oauth.listByModel('AccessToken')).length).toBeGreaterThan(0);
    await server.store.q.oauth.purgeExpired(server.clock.now().toISOString());
    expect(await server.store.q.oauth.listByModel('AccessToken')).toEqual([]);
    expect((await server.store.q.oauth.listByModel('Grant')).length).toBe(grants);
  }, 60_000);
});
