import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type * as oauth from 'oauth4webapi';
import type { Browser } from 'playwright-core';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { authorizationRequest, discover, exchangeCode, redirectUri, signInAndConsent } from '../support/oauth-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// An app identified by the URL of its metadata document (Client ID Metadata Documents):
// served over HTTPS from loopback, under a name the test resolver maps to 127.0.0.1.
const host = 'planner.loopback.test';
let documentServer: Server;
let origin: string;
let documentUrl: string;
let fetched = 0;
let connections = 0;
let server: TestServer;
let browser: Browser;
const alice = { email: 'alice@example.com', password: 'correct horse battery' };

beforeAll(async () => {
  const pems = await generate([{ name: 'commonName', value: host }], {
    keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: host }] }],
  });
  // /oauth/client.json is a good document; /oauth/plain-http.json names a redirect URI no app may register.
  const redirects: Record<string, string> = { '/oauth/client.json': redirectUri, '/oauth/plain-http.json': 'http://planner.example/callback' };
  documentServer = createServer({ key: pems.private, cert: pems.cert }, (request, response) => {
    fetched += 1;
    const redirect = redirects[request.url ?? ''];
    if (!redirect) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' }).end(
      JSON.stringify({
        client_id: `${origin}${request.url}`,
        client_name: 'Metadata Planner',
        client_uri: `https://${host}/`,
        redirect_uris: [redirect],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      }),
    );
  });
  documentServer.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => documentServer.listen(0, '127.0.0.1', resolve));
  origin = `https://${host}:${(documentServer.address() as AddressInfo).port}`;
  documentUrl = `${origin}/oauth/client.json`;
  [server, browser] = await Promise.all([startTestServer({ GANTRY_WEBHOOK_ALLOW_PRIVATE: '1' }, { trustedCa: pems.cert }), launchBrowser()]);
  const created = await server.cli('user', 'create', '--email', alice.email, '--name', 'Alice', '--password', alice.password, '--json');
  expect(created.code, created.stderr).toBe(0);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  documentServer?.close();
});

/** An authorization request of the app identified by `clientId`, as a browser would open it. */
function authorizationUrl(at: TestServer, clientId: string, redirect: string): URL {
  const url = new URL(`${at.url}/oauth/authorize`);
  for (const [name, value] of Object.entries({
    client_id: clientId,
    redirect_uri: redirect,
    response_type: 'code',
    scope: 'service:read',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  })) {
    url.searchParams.set(name, value);
  }
  return url;
}

describe('Client ID Metadata Documents', () => {
  test('an https client_id is fetched and validated; the person sees the app and where it came from; the flow works as for a registered app', async () => {
    const as = await discover(server);
    const client: oauth.Client = { client_id: documentUrl, token_endpoint_auth_method: 'none' };
    const request = await authorizationRequest(as, client, { scope: 'service:read', resource: `${server.url}/api` });
    const { callback, consentText } = await signInAndConsent(browser, request.url, alice);
    expect(consentText).toContain('Metadata Planner');
    expect(consentText).toContain(`metadata document at ${documentUrl}`);
    expect(fetched).toBeGreaterThan(0);
    const tokens = await exchangeCode(as, client, request, callback);
    const me = await server.request('GET', '/api/auth/me', { key: tokens.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user: { email: alice.email } });
  }, 60_000);

  test('a metadata document whose address is private is refused (invalid_client) without connecting, when private addresses are not allowed', async () => {
    const guarded = await startTestServer();
    try {
      const before = connections;
      const response = await fetch(authorizationUrl(guarded, documentUrl, redirectUri), { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBe('invalid_client');
      expect(connections).toBe(before); // refused at name resolution: no socket was ever opened
    } finally {
      await guarded.close();
    }
  });

  // docs/oauth.md › The rules: the redirect URIs a registration may name, a document may not name either.
  test('a metadata document naming a plain-http redirect URI beyond loopback is refused, and nothing redirects there', async () => {
    const response = await fetch(authorizationUrl(server, `${origin}/oauth/plain-http.json`, 'http://planner.example/callback'), { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_redirect_uri');
    expect(body.error_description).toMatch(/^redirect_uris must use https/);
  });
});
