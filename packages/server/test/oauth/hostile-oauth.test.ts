import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { authorizationRequest, discover, exchangeCode, insecure, redirectUri, register } from '../support/oauth-client.js';
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

/**
 * A browser reduced to its cookie jar: it follows the server's redirects and stops where
 * one leaves the server (the app's redirect URI). Headers are sent as given, so a test
 * can send what another site's page would make a browser send.
 */
class CookieBrowser {
  private readonly cookies = new Map<string, string>();

  get cookie(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async send(url: string | URL, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { cookie: this.cookie, ...init.headers };
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(new URL(url, server.url), { method: init.method ?? 'GET', headers, body: init.form && new URLSearchParams(init.form), redirect: 'manual' });
    for (const each of response.headers.getSetCookie()) {
      const [pair = ''] = each.split(';');
      const at = pair.indexOf('=');
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(each)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** Sends, then follows redirects on the server: the last page it answered, or where it sent the browser away to. */
  async follow(url: string | URL, init: Parameters<CookieBrowser['send']>[1] = {}): Promise<{ page: Response; url: URL } | { away: URL }> {
    let response = await this.send(url, init);
    let at = new URL(url, server.url);
    while (response.status >= 300 && response.status < 400) {
      at = new URL(response.headers.get('location') as string, at);
      if (at.origin !== server.url) return { away: at };
      response = await this.send(at);
    }
    return { page: response, url: at };
  }
}

/** Opens an authorization request in `person`'s browser: the page the server shows (sign-in or consent), or the app's callback. */
async function open(person: CookieBrowser, client: oauth.Client, params: Record<string, string> = {}) {
  const request = await authorizationRequest(as, client, { scope: 'service:read', resource: `${server.url}/api`, ...params });
  return { request, landed: await person.follow(request.url) };
}

function pageOf(landed: Awaited<ReturnType<CookieBrowser['follow']>>): { page: Response; url: URL } {
  if ('away' in landed) throw new Error(`expected a page of the server, was sent to ${landed.away.href}`);
  return landed;
}

function awayOf(landed: Awaited<ReturnType<CookieBrowser['follow']>>): URL {
  if (!('away' in landed)) throw new Error(`expected to be sent back to the app, stayed at ${landed.url.href} (${landed.page.status})`);
  return landed.away;
}

const sameOrigin = () => ({ origin: server.url, 'sec-fetch-site': 'same-origin' });

/** Signs `person` in on the sign-in page the authorization request showed, as the page's own form does: the consent page's address. */
async function signInOnPage(person: CookieBrowser, interaction: URL): Promise<URL> {
  const consent = pageOf(await person.follow(`${interaction.pathname}/login`, { method: 'POST', form: grace, headers: sameOrigin() }));
  expect(await consent.page.text()).toContain('Allow');
  return consent.url;
}

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

// docs/oauth.md › The rules: the sign-in and consent forms answer only their own pages.
describe('the sign-in and consent forms refuse requests from other sites', () => {
  const crossSite: Record<string, string>[] = [{ origin: 'https://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }];

  test('a form posted by another site, with the interaction cookies, is refused (403) and issues no code; the page itself goes on', async () => {
    const person = new CookieBrowser();
    const client = await register(as);
    const { request, landed } = await open(person, client);
    const interaction = pageOf(landed).url;

    for (const headers of crossSite) {
      const login = await person.send(`${interaction.pathname}/login`, { method: 'POST', form: grace, headers });
      expect(login.status, JSON.stringify(headers)).toBe(403);
      expect(await login.text()).toContain('another site');
      expect(person.cookie).not.toMatch(/gantry_session=/);
    }
    const consent = await signInOnPage(person, interaction);

    for (const headers of crossSite) {
      for (const step of ['confirm', 'deny']) {
        const answered = await person.send(`${consent.pathname}/${step}`, { method: 'POST', headers });
        expect(answered.status, `${step} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
    expect((await server.store.q.oauth.listByModel('AuthorizationCode')).length).toBe(0);

    // From the page itself — and from a browser that sends neither header — it goes on.
    const callback = awayOf(await person.follow(`${consent.pathname}/confirm`, { method: 'POST' }));
    const tokens = await exchangeCode(as, client, request, callback);
    expect((await server.request('GET', '/api/auth/me', { key: tokens.access_token })).status).toBe(200);
  }, 60_000);
});

// docs/oauth.md › The rules › Revocation: a revoked grant is gone, whichever token was revoked.
describe('revocation ends the grant', () => {
  test.each(['access_token', 'refresh_token'] as const)('revoking the %s removes the app from the connected apps and asks the person again next time', async (kind) => {
    const person = new CookieBrowser();
    const client = await register(as);
    const first = await open(person, client);
    const consent = await signInOnPage(person, pageOf(first.landed).url);
    const tokens = await exchangeCode(as, client, first.request, awayOf(await person.follow(`${consent.pathname}/confirm`, { method: 'POST', headers: sameOrigin() })));
    const connected = async () => (await server.request<{ grants: { clientId: string }[] }>('GET', '/api/auth/grants', { headers: { cookie: person.cookie } })).body.grants.map((grant) => grant.clientId);
    expect(await connected()).toContain(client.client_id);

    // Allowed once, the app comes back without asking.
    const again = await open(person, client);
    expect(awayOf(again.landed).searchParams.get('code')).toBeTruthy();

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), tokens[kind] as string, insecure));
    expect((await server.request('GET', '/api/auth/me', { key: tokens.access_token })).status).toBe(401);
    expect(await connected()).not.toContain(client.client_id);
    const afterRevocation = pageOf((await open(person, client)).landed);
    expect(afterRevocation.page.status).toBe(200);
    expect(await afterRevocation.page.text()).toContain('Allow');
  }, 60_000);
});

// docs/oauth.md › The rules › Scopes: RFC 6749 §4.1.2.1.
describe('scopes', () => {
  test('an unknown scope is invalid_scope, sent back to the app before anyone signs in', async () => {
    const client = await register(as);
    for (const scope of ['bogus', 'service:read service:admin', 'service:wirte']) {
      const { request, landed } = await open(new CookieBrowser(), client, { scope });
      const callback = awayOf(landed);
      expect(callback.origin + callback.pathname).toBe(redirectUri);
      expect(callback.searchParams.get('error'), scope).toBe('invalid_scope');
      expect(callback.searchParams.get('error_description'), scope).toMatch(/not supported/);
      expect(callback.searchParams.get('state')).toBe(request.state);
      expect(callback.searchParams.get('iss')).toBe(server.url);
    }
  });

  test('every scope the metadata lists is accepted', async () => {
    const client = await register(as);
    const { landed } = await open(new CookieBrowser(), client, { scope: (as.scopes_supported ?? []).join(' ') });
    expect(pageOf(landed).page.status).toBe(200);
  });
});
