import type * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { discover } from '../support/oauth-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
let as: oauth.AuthorizationServer;
const grace = { email: 'grace@example.com', password: 'correct horse battery' };

beforeAll(async () => {
  server = await startTestServer();
  expect((await server.cli('user', 'create', '--email', grace.email, '--name', 'Grace', '--password', grace.password)).code).toBe(0);
  as = await discover(server);
}, 60_000);
afterAll(() => server?.close());

// docs/oauth.md › The rules: redirect URIs per OAuth 2.1 and RFC 8252.
describe('redirect URIs an app may register', () => {
  const registration = (metadata: Record<string, unknown>) =>
    fetch(as.registration_endpoint as string, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Hostile', token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'], ...metadata }),
    });

  test('refuses plain http beyond loopback, user info, fragments and private-use schemes that are not reverse domain names (invalid_redirect_uri)', async () => {
    for (const [applicationType, uri] of [
      ['web', 'http://app.example/cb'],
      ['web', 'http://127.0.0.2/cb'],
      ['web', 'http://localhost.app.example/cb'],
      ['web', 'https://user:pass@app.example/cb'],
      ['web', 'https://user@app.example/cb'],
      ['web', 'http://user:pass@127.0.0.1:8765/cb'],
      ['web', 'https://app.example/cb#fragment'],
      ['native', 'http://app.example/cb'],
      ['native', 'myapp:/cb'],
      ['native', 'com.example.app://user:pass@host/cb'],
    ] as const) {
      const response = await registration({ application_type: applicationType, redirect_uris: ['https://app.example/fine', uri] });
      expect(response.status, `${applicationType} ${uri}`).toBe(400);
      const body = (await response.json()) as { error: string; error_description: string };
      expect(body.error, `${applicationType} ${uri}`).toBe('invalid_redirect_uri');
      expect(body.error_description, `${applicationType} ${uri}`).toMatch(/^redirect_uris /);
    }
  });

  test('accepts https, http on loopback (127.0.0.1, [::1], localhost) and reverse-domain schemes for native apps', async () => {
    for (const [applicationType, uris] of [
      ['web', ['https://app.example/cb', 'http://127.0.0.1:8765/cb', 'http://[::1]:8765/cb', 'http://localhost:8765/cb']],
      ['native', ['com.example.app:/oauth/cb', 'http://127.0.0.1/cb', 'https://app.example/native-cb']],
    ] as const) {
      const response = await registration({ application_type: applicationType, redirect_uris: uris });
      expect(response.status, `${applicationType} ${JSON.stringify(await response.clone().text())}`).toBe(201);
      expect(((await response.json()) as { redirect_uris: string[] }).redirect_uris).toEqual(uris);
    }
  });
});
