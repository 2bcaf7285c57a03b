import type * as oauth from 'oauth4webapi';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { authorizationRequest, discover, exchangeCode, redirectUri, register } from '../support/oauth-client.js';
import { sessionHeaders, signIn } from '../support/sessions.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
let browser: Browser;
let as: oauth.AuthorizationServer;
const frank = { email: 'frank@example.com', password: 'correct horse battery' };

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  expect((await server.cli('user', 'create', '--email', frank.email, '--name', 'Frank', '--password', frank.password)).code).toBe(0);
  as = await discover(server);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A browser holding the web session of `cookie` (`gantry_session=…`), as the web app leaves it. */
async function browserSignedIn(cookie: string): Promise<BrowserContext> {
  const context = await browser.newContext();
  const [name, value] = cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: server.url, httpOnly: true, sameSite: 'Lax' }]);
  return context;
}

/** Opens an authorization request in the browser: what the person is shown first, and a way to answer the consent page. */
async function startAuthorization(context: BrowserContext, params: Record<string, string> = {}) {
  const client = await register(as);
  const request = await authorizationRequest(as, client, { scope: 'service:read', resource: `${server.url}/api`, ...params });
  const page = await context.newPage();
  let callback: URL | undefined;
  await page.route(`${redirectUri}**`, async (route) => {
    callback = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: 'text/plain', body: 'back in the app' });
  });
  await page.goto(request.url.href);
  await page.waitForSelector('#email, button:text("Allow")');
  const shown = (await page.$('#email')) ? 'sign-in' : 'consent';
  const allow = async () => {
    await page.click('button:text("Allow")');
    await expect.poll(() => callback, { timeout: 10_000 }).toBeDefined();
    return exchangeCode(as, client, request, callback as URL);
  };
  return { page, shown, allow };
}

// docs/oauth.md › Signing in: one sign-in for the web app and the OAuth pages.
describe('one sign-in for the web app and OAuth', () => {
  test('a browser signed in to the web app goes straight to the consent page, and the app gets a token', async () => {
    const { cookie } = await signIn(server, frank.email, frank.password);
    const context = await browserSignedIn(cookie);
    try {
      const { page, shown, allow } = await startAuthorization(context);
      expect(shown).toBe('consent');
      expect(await page.innerText('main')).toContain('Frank');
      const tokens = await allow();
      const me = await server.request<{ user: { email: string } }>('GET', '/api/auth/me', { key: tokens.access_token });
      expect(me.body.user.email).toBe(frank.email);
    } finally {
      await context.close();
    }
  }, 60_000);

  test('an app that asks for a fresh sign-in (prompt=login) gets the sign-in page, web session or not', async () => {
    const { cookie } = await signIn(server, frank.email, frank.password);
    const context = await browserSignedIn(cookie);
    try {
      expect((await startAuthorization(context, { prompt: 'login' })).shown).toBe('sign-in');
    } finally {
      await context.close();
    }
  }, 60_000);

  test('signing in on the OAuth page signs the browser in to the web app; signing out there asks for the sign-in again', async () => {
    const context = await browser.newContext();
    try {
      const first = await startAuthorization(context);
      expect(first.shown).toBe('sign-in');
      await first.page.fill('#email', frank.email);
      await first.page.fill('#password', frank.password);
      await first.page.click('button[type=submit]');
      await first.page.waitForSelector('button:text("Allow")');
      await first.allow();

      const cookie = (await context.cookies(server.url)).map(({ name, value }) => `${name}=${value}`).join('; ');
      expect(cookie).toMatch(/gantry_session=/);
      const session = await server.request<{ user: { email: string } }>('GET', '/api/auth/session', { headers: { cookie } });
      expect(session.body.user.email).toBe(frank.email);

      // Signed in: the next app goes straight to consent.
      expect((await startAuthorization(context)).shown).toBe('consent');

      // Signed out of the web app: the OAuth pages ask again, though the authorization server's own session lives on.
      expect((await server.request('DELETE', '/api/auth/session', { headers: await sessionHeaders(server, cookie) })).status).toBe(204);
      expect((await startAuthorization(context)).shown).toBe('sign-in');
    } finally {
      await context.close();
    }
  }, 90_000);
});
