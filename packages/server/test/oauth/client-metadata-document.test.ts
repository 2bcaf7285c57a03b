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
  documentServer = createServer({ key: pems.private, cert: pems.cert }, (request, response) => {
    fetched += 1;
    if (request.url !== '/oauth/client.json') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' }).end(
      JSON.stringify({
        client_id: documentUrl,
        client_name: 'Metadata Planner',
        client_uri: `https://${host}/`,
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      }),
    );
  });
  documentServer.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => documentServer.listen(0, '127.0.0.1', resolve));
  documentUrl = `https://${host}:${(documentServer.address() as AddressInfo).port}/oauth/client.json`;
  [server, browser] = await Promise.all([startTestServer({ GANTRY_WEBHOOK_ALLOW_PRIVATE: '1' }, { trustedCa: pems.cert }), launchBrowser()]);
  const created = await server.cli('user', 'create', '--email', alice.email, '--name', 'Alice', '--password', alice.password, '--json');
  expect(created.code, created.stderr).toBe(0);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  documentServer?.close();
});

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
      const url = new URL(`${guarded.url}/oauth/authorize`);
      for (const [name, value] of Object.entries({
        client_id: documentUrl,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'service:read',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      })) {
        url.searchParams.set(name, value);
      }
      const response = await fetch(url, { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBe('invalid_client');
      expect(connections).toBe(before); // refused at name resolution: no socket was ever opened
    } finally {
      await guarded.close();
    }
  });
});
