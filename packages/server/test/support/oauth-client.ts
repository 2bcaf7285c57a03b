import * as oauth from 'oauth4webapi';
import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import type { TestServer } from './test-server.js';

/** Tests talk plain HTTP to loopback; oauth4webapi insists on HTTPS unless told. */
export const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** Where the test apps say they receive the authorization response; the browser intercepts it, nothing listens. */
export const redirectUri = 'http://127.0.0.1:9/callback';

export async function discover(server: TestServer): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(server.url);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
}

/** Registers an app (RFC 7591): public by default, confidential with `token_endpoint_auth_method`. */
export async function register(as: oauth.AuthorizationServer, metadata: Partial<oauth.Client> = {}): Promise<oauth.Client> {
  const response = await oauth.dynamicClientRegistrationRequest(
    as,
    { redirect_uris: [redirectUri], client_name: 'Example Planner', token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], ...metadata },
    insecure,
  );
  return oauth.processDynamicClientRegistrationResponse(response);
}

export interface AuthorizationRequest {
  url: URL;
  state: string;
  verifier: string;
}

export async function authorizationRequest(as: oauth.AuthorizationServer, client: oauth.Client, params: Record<string, string>): Promise<AuthorizationRequest> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint as string);
  const all = {
    client_id: client.client_id,
    redirect_uri: redirectUri,
    response_type: 'code',
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...params,
  };
  for (const [name, value] of Object.entries(all)) url.searchParams.set(name, value);
  return { url, state, verifier };
}

/**
 * A person in the browser: opens the authorization URL, signs in, reads the consent page
 * and allows (or denies); returns the URL the browser was sent back to, the consent text
 * and the browser's cookies for the server (its sign-in session).
 */
export async function signInAndConsent(
  browser: Browser,
  url: URL,
  person: { email: string; password: string },
  answer: 'Allow' | 'Deny' = 'Allow',
): Promise<{ callback: URL; consentText: string; cookie: string }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    let callback: URL | undefined;
    await page.route(`${redirectUri}**`, async (route) => {
      callback = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'back in the app' });
    });
    await page.goto(url.href);
    await page.fill('#email', person.email);
    await page.fill('#password', person.password);
    await page.click('button[type=submit]');
    await page.waitForSelector(`button:text("${answer}")`);
    const consentText = await page.innerText('main');
    await page.click(`button:text("${answer}")`);
    await expect.poll(() => callback, { timeout: 10_000 }).toBeDefined();
    const cookies = await context.cookies(url.origin);
    return { callback: callback as URL, consentText, cookie: cookies.map(({ name, value }) => `${name}=${value}`).join('; ') };
  } finally {
    await context.close();
  }
}

/** Exchanges the code of an authorization response for tokens. */
export async function exchangeCode(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  request: AuthorizationRequest,
  callback: URL,
  auth: oauth.ClientAuth = oauth.None(),
  resource?: string,
): Promise<oauth.TokenEndpointResponse> {
  const params = oauth.validateAuthResponse(as, client, callback, request.state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirectUri, request.verifier, {
    ...insecure,
    ...(resource ? { additionalParameters: { resource } } : {}),
  });
  return oauth.processAuthorizationCodeResponse(as, client, response);
}
