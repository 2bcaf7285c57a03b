import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawPost } from '../mcp/support.js';
import { fieldPaths, type ErrorBody } from '../support/planning.js';
import { sessionCookieOf, signedInPerson, signIn } from '../support/sessions.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

const hour = 60 * 60 * 1000;

/** The mails queued for `to`, oldest first. */
async function mailsTo(server: TestServer, to: string) {
  return (await server.store.q.outbox.listMail({ pendingOnly: false, limit: 10_000 })).filter((mail) => mail.to_address === to);
}

/** The token of the last link to `page` mailed to `to`. */
async function mailedToken(server: TestServer, to: string, page: 'verify-email' | 'reset-password'): Promise<string> {
  const links = (await mailsTo(server, to)).flatMap((mail) => [...mail.body.matchAll(/(\S+)\/(verify-email|reset-password)\?token=([\w-]+)/g)]);
  const link = links.filter((match) => match[2] === page).at(-1);
  expect(link?.[1], `a ${page} link mailed to ${to}`).toBe(server.config.baseUrl);
  return link?.[3] as string;
}

const password = 'a long enough password';

/** Signs up and verifies through the API, as the web app does: the signed-in session. */
async function signUpAndVerify(server: TestServer, email: string) {
  expect((await server.request('POST', '/api/auth/signup', { body: { email, password, name: 'New Person' } })).status).toBe(202);
  const verified = await server.request<{ user: { id: string }; csrfToken: string }>('POST', '/api/auth/verify-email', { body: { token: await mailedToken(server, email, 'verify-email') } });
  expect(verified.status).toBe(200);
  const cookie = sessionCookieOf(verified.headers) as string;
  return { userId: verified.body.user.id, cookie, csrfToken: verified.body.csrfToken, headers: { cookie, 'x-csrf-token': verified.body.csrfToken } };
}

// docs/api.md › Web sessions: signing up, verifying, signing in and out, resetting the
// password, the cookie and CSRF rules, and which routes take the session.
describe('web sessions', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('signs up, mails a verification link, verifies, signs in, and the cookie works on the REST API', async () => {
    const signUp = await server.request('POST', '/api/auth/signup', { body: { email: 'New@Example.com', password, name: 'Newt', locale: 'de' } });
    expect(signUp.status).toBe(202);
    expect(signUp.body).toEqual({ verificationSent: true });
    expect(sessionCookieOf(signUp.headers)).toBeUndefined();
    const [mail] = await mailsTo(server, 'new@example.com');
    expect(mail?.subject).toMatch(/confirm/i);
    const token = await mailedToken(server, 'new@example.com', 'verify-email');
    expect(token.length).toBeGreaterThanOrEqual(43);

    // Not signed in yet, and cannot sign in before verifying.
    const early = await server.request('POST', '/api/auth/session', { body: { email: 'new@example.com', password } });
    expect(early.status).toBe(403);
    expect(early.body).toMatchObject({ error: 'forbidden', details: { reason: 'email_unverified' } });

    const verified = await server.request<{ user: { id: string; email: string; emailVerified: boolean; locale: string; name: string }; csrfToken: string }>('POST', '/api/auth/verify-email', { body: { token } });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ email: 'new@example.com', emailVerified: true, locale: 'de', name: 'Newt' });
    const setCookie = verified.headers.getSetCookie().find((each) => each.startsWith('gantry_session=')) as string;
    expect(setCookie).toMatch(/^gantry_session=[\w-]{43,}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/);
    const cookie = sessionCookieOf(verified.headers) as string;
    const headers = { cookie, 'x-csrf-token': verified.body.csrfToken };

    const session = await server.request<{ user: { email: string }; csrfToken: string }>('GET', '/api/auth/session', { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(session.body).toEqual({ user: verified.body.user, csrfToken: verified.body.csrfToken });
    const workspaces = await server.request<{ workspaces: { personal: boolean }[] }>('GET', '/api/workspaces', { headers: { cookie } });
    expect(workspaces.body.workspaces).toEqual([expect.objectContaining({ personal: true })]);
    const created = await server.request<{ project: { id: string } }>('POST', '/api/projects', { headers, body: { name: 'From the web app' } });
    expect(created.status).toBe(201);
    const projects = await server.request<{ projects: { id: string }[] }>('GET', '/api/projects', { headers: { cookie } });
    expect(projects.status).toBe(200);
    expect(projects.body.projects.map((project) => project.id)).toEqual([created.body.project.id]);

    // Stored as a digest only; audited as the session.
    const [row] = await server.store.q.sessions.listForUser(verified.body.user.id);
    expect(row).toBeDefined();
    expect(JSON.stringify(row)).not.toContain(cookie.slice('gantry_session='.length));
    await new Promise((resolve) => setTimeout(resolve, 400));
    const audit = await server.store.q.apiKeys.listAuditEntries(row?.id as string);
    expect(audit.map((entry) => [entry.credential_kind, entry.method, entry.path, entry.status])).toContainEqual(['session', 'POST', '/api/projects', 201]);
  });

  it('answers sign-up the same for a registered address, and mails a password-reset link instead (no enumeration)', async () => {
    await provisionUser(server, 'taken@example.com');
    const before = await server.store.q.users.findByEmail('taken@example.com');
    const taken = await server.request('POST', '/api/auth/signup', { body: { email: 'taken@example.com', password } });
    const fresh = await server.request('POST', '/api/auth/signup', { body: { email: 'fresh@example.com', password } });
    expect([taken.status, taken.body]).toEqual([fresh.status, fresh.body]);
    expect(await server.store.q.users.findByEmail('taken@example.com')).toEqual(before);
    const [mail] = await mailsTo(server, 'taken@example.com');
    expect(mail?.subject).toMatch(/already have/);
    expect(mail?.body).not.toContain('/verify-email');
    await mailedToken(server, 'taken@example.com', 'reset-password');

    const unknownReset = await server.request('POST', '/api/auth/password-reset', { body: { email: 'nobody@example.com' } });
    const knownReset = await server.request('POST', '/api/auth/password-reset', { body: { email: 'taken@example.com' } });
    expect([unknownReset.status, unknownReset.body]).toEqual([202, { resetSent: true }]);
    expect([knownReset.status, knownReset.body]).toEqual([202, { resetSent: true }]);
    expect(await mailsTo(server, 'nobody@example.com')).toEqual([]);
  });

  it('carries the page to go on to (an invite link) in the mailed link, for a new address and a registered one; only a path of the web app', async () => {
    const next = '/join/Zm9vYmFy-_1';
    await provisionUser(server, 'returning@example.com');
    for (const email of ['newcomer@example.com', 'returning@example.com']) {
      expect((await server.request('POST', '/api/auth/signup', { body: { email, password, next } })).status).toBe(202);
      const [mail] = await mailsTo(server, email);
      expect(mail?.body).toMatch(/\/(verify-email|reset-password)\?token=[\w-]+&next=%2Fjoin%2FZm9vYmFy-_1\n/);
    }
    for (const elsewhere of ['https://evil.example/join/x', '//evil.example', '/\\evil.example', 'join/x']) {
      const refused = await server.request<ErrorBody>('POST', '/api/auth/signup', { body: { email: 'elsewhere@example.com', password, next: elsewhere } });
      expect(refused.status, elsewhere).toBe(400);
      expect(fieldPaths(refused.body)).toEqual(['next']);
    }
    expect(await mailsTo(server, 'elsewhere@example.com')).toEqual([]);
  });

  it('refuses a wrong password or an unknown e-mail (401), and an unverified address (403, with a fresh link)', async () => {
    await signUpAndVerify(server, 'sign@example.com');
    for (const body of [{ email: 'sign@example.com', password: 'not the password' }, { email: 'nobody@example.com', password }, { email: 'sign@example.com', password: '' }]) {
      const refused = await server.request('POST', '/api/auth/session', { body });
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ error: 'unauthorized' });
      expect(sessionCookieOf(refused.headers)).toBeUndefined();
    }
    expect((await signIn(server, 'SIGN@example.com', password)).csrfToken).toMatch(/^[\w-]{43,}$/);

    expect((await server.request('POST', '/api/auth/signup', { body: { email: 'later@example.com', password } })).status).toBe(202);
    const unverified = await server.request('POST', '/api/auth/session', { body: { email: 'later@example.com', password } });
    expect(unverified.status).toBe(403);
    expect(unverified.body).toMatchObject({ details: { reason: 'email_unverified' } });
    expect(await mailsTo(server, 'later@example.com')).toHaveLength(2);
    const missing = await server.request('POST', '/api/auth/session', { body: {} });
    expect(missing.status).toBe(400);
  });

  it('refuses a session write without the CSRF token, with a wrong one or from another site (403 csrf), and writes nothing', async () => {
    const person = await signUpAndVerify(server, 'csrf@example.com');
    const attempts: Record<string, string>[] = [
      { cookie: person.cookie },
      { cookie: person.cookie, 'x-csrf-token': 'wrong' },
      { cookie: person.cookie, 'x-csrf-token': `${person.csrfToken}x` },
      { ...person.headers, origin: 'https://attacker.example' },
      { ...person.headers, origin: 'null' },
      // The browser's Sec-Fetch-Site, when sent, must say the request comes from the service's own pages too.
      { ...person.headers, 'sec-fetch-site': 'cross-site' },
      { ...person.headers, 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of attempts) {
      for (const [method, path, body] of [
        ['POST', '/api/projects', { name: 'Forged' }],
        ['PATCH', '/api/auth/me', { name: 'Forged' }],
        ['DELETE', '/api/auth/session', undefined],
      ] as const) {
        const refused = await server.request(method, path, { headers, ...(body ? { body } : {}) });
        expect(refused.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(refused.body).toMatchObject({ error: 'forbidden', details: { reason: 'csrf' } });
      }
    }
    const projects = await server.request<{ projects: unknown[] }>('GET', '/api/projects', { headers: { cookie: person.cookie } });
    expect(projects.body.projects).toEqual([]);
    const me = await server.request<{ user: { name: string } }>('GET', '/api/auth/me', { headers: { cookie: person.cookie } });
    expect(me.body.user.name).toBe('New Person');
    expect((await server.request('GET', '/api/auth/session', { headers: { cookie: person.cookie } })).status).toBe(200);

    // The service's own origin is fine; a bearer request is not subject to any of it.
    const own = await server.request('POST', '/api/projects', { headers: { ...person.headers, origin: new URL(server.config.baseUrl).origin, 'sec-fetch-site': 'same-origin' }, body: { name: 'Mine' } });
    expect(own.status).toBe(201);
    const { key } = await provisionUser(server, 'bearer@example.com');
    expect((await server.request('POST', '/api/projects', { key, headers: { origin: 'https://elsewhere.example' }, body: { name: 'Integration' } })).status).toBe(201);
  });

  it('signs out: the session ends, its cookie is cleared, and it no longer works', async () => {
    const person = await signUpAndVerify(server, 'out@example.com');
    const other = await signIn(server, 'out@example.com', password);
    const sessionId = (await server.store.q.sessions.listForUser(person.userId)).at(-1)?.id as string;
    const out = await server.request('DELETE', '/api/auth/session', { headers: other.headers });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie()).toContainEqual(expect.stringMatching(/^gantry_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/));
    expect(await server.store.q.sessions.findById(sessionId)).toBeUndefined();
    for (const [method, path] of [['GET', '/api/auth/session'], ['GET', '/api/projects'], ['DELETE', '/api/auth/session']] as const) {
      expect((await server.request(method, path, { headers: other.headers })).status, `${method} ${path}`).toBe(401);
    }
    // The person's other browser stays signed in.
    expect((await server.request('GET', '/api/auth/session', { headers: { cookie: person.cookie } })).status).toBe(200);
  });

  it('lists the browsers signed in, and signs any of them out from another; a key may not, nor may another person', async () => {
    const person = await signUpAndVerify(server, 'browsers@example.com');
    const signInFrom = async (userAgent: string) => {
      const response = await server.request<{ csrfToken: string }>('POST', '/api/auth/session', { body: { email: 'browsers@example.com', password }, headers: { 'user-agent': userAgent } });
      expect(response.status).toBe(200);
      const cookie = sessionCookieOf(response.headers) as string;
      return { cookie, headers: { cookie, 'x-csrf-token': response.body.csrfToken } };
    };
    const laptop = await signInFrom('Laptop browser');
    const phone = await signInFrom('Phone browser');
    type Listed = { sessions: { id: string; userAgent: string | null; createdAt: string; lastSeenAt: string; expiresAt: string; current: boolean }[] };
    const listed = await server.request<Listed>('GET', '/api/auth/sessions', { headers: { cookie: laptop.cookie } });
    expect(listed.status).toBe(200);
    expect(listed.body.sessions).toHaveLength(3);
    expect(listed.body.sessions.filter((session) => session.current).map((session) => session.userAgent)).toEqual(['Laptop browser']);
    const phoneSession = listed.body.sessions.find((session) => session.userAgent === 'Phone browser')!;
    expect(phoneSession).toMatchObject({ current: false, createdAt: expect.any(String), lastSeenAt: expect.any(String), expiresAt: expect.any(String) });

    // Keys are not the person: 401; another person's session, or none, is not found.
    const stranger = await signedInPerson(server, 'someone-else@example.com');
    const key = ((await server.cli('key', 'create', '--email', stranger.email, '--scope', 'write', '--json')).json as { key: string }).key;
    expect((await server.request('GET', '/api/auth/sessions', { key })).status).toBe(401);
    expect((await server.request('DELETE', `/api/auth/sessions/${phoneSession.id}`, { headers: stranger.headers })).status).toBe(404);
    expect((await server.request('DELETE', `/api/auth/sessions/${crypto.randomUUID()}`, { headers: laptop.headers })).status).toBe(404);

    // The laptop signs the phone out: the phone's cookie stops working at once, the laptop's does not.
    const out = await server.request('DELETE', `/api/auth/sessions/${phoneSession.id}`, { headers: laptop.headers });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie()).toEqual([]);
    expect((await server.request('GET', '/api/auth/session', { headers: { cookie: phone.cookie } })).status).toBe(401);
    expect((await server.request<Listed>('GET', '/api/auth/sessions', { headers: { cookie: laptop.cookie } })).body.sessions.map((session) => session.userAgent)).not.toContain('Phone browser');

    // Ending its own session signs the laptop out, as signing out does.
    const laptopId = listed.body.sessions.find((session) => session.current)!.id;
    const own = await server.request('DELETE', `/api/auth/sessions/${laptopId}`, { headers: laptop.headers });
    expect(own.status).toBe(204);
    expect(own.headers.getSetCookie()).toContainEqual(expect.stringMatching(/^gantry_session=; Max-Age=0/));
    expect((await server.request('GET', '/api/auth/session', { headers: { cookie: laptop.cookie } })).status).toBe(401);
    expect((await server.request('GET', '/api/auth/session', { headers: { cookie: person.cookie } })).status).toBe(200);
  });

  it('resets the password with the mailed link: the old password stops working, other sessions end, this browser is signed in', async () => {
    const person = await signUpAndVerify(server, 'reset@example.com');
    const elsewhere = await signIn(server, 'reset@example.com', password);
    expect((await server.request('POST', '/api/auth/password-reset', { body: { email: 'Reset@Example.com' } })).status).toBe(202);
    const token = await mailedToken(server, 'reset@example.com', 'reset-password');

    const short = await server.request('POST', '/api/auth/password-reset/complete', { body: { token, password: 'short' } });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ details: { fields: [{ path: 'password' }] } });

    const newPassword = 'a brand new password';
    const done = await server.request<{ user: { email: string }; csrfToken: string }>('POST', '/api/auth/password-reset/complete', { body: { token, password: newPassword } });
    expect(done.status).toBe(200);
    expect(done.body.user.email).toBe('reset@example.com');
    const cookie = sessionCookieOf(done.headers) as string;
    expect((await server.request('GET', '/api/auth/session', { headers: { cookie } })).status).toBe(200);
    for (const old of [person.cookie, elsewhere.cookie]) expect((await server.request('GET', '/api/auth/session', { headers: { cookie: old } })).status).toBe(401);
    expect((await server.request('POST', '/api/auth/session', { body: { email: 'reset@example.com', password } })).status).toBe(401);
    await signIn(server, 'reset@example.com', newPassword);

    const again = await server.request('POST', '/api/auth/password-reset/complete', { body: { token, password: 'yet another password' } });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'invalid_request', details: { fields: [{ path: 'token' }] } });
    await signIn(server, 'reset@example.com', newPassword);
  });

  it('makes mailed tokens single use and expiring: verification after 24 hours, reset after 1 hour', async () => {
    expect((await server.request('POST', '/api/auth/signup', { body: { email: 'slow@example.com', password } })).status).toBe(202);
    const verifyToken = await mailedToken(server, 'slow@example.com', 'verify-email');
    expect((await server.request('POST', '/api/auth/password-reset', { body: { email: 'slow@example.com' } })).status).toBe(202);
    const resetToken = await mailedToken(server, 'slow@example.com', 'reset-password');

    // Neither token works for the other purpose.
    expect((await server.request('POST', '/api/auth/verify-email', { body: { token: resetToken } })).status).toBe(400);
    expect((await server.request('POST', '/api/auth/password-reset/complete', { body: { token: verifyToken, password } })).status).toBe(400);

    server.clock.advance(hour + 1000);
    const lateReset = await server.request('POST', '/api/auth/password-reset/complete', { body: { token: resetToken, password: 'too late password' } });
    expect(lateReset.status).toBe(400);
    expect(lateReset.body).toMatchObject({ details: { fields: [{ path: 'token' }] } });
    server.clock.advance(23 * hour);
    const lateVerify = await server.request('POST', '/api/auth/verify-email', { body: { token: verifyToken } });
    expect(lateVerify.status).toBe(400);
    expect(lateVerify.body).toMatchObject({ details: { fields: [{ path: 'token' }] } });
    expect((await server.store.q.users.findByEmail('slow@example.com'))?.email_verified).toBe(0);

    // Signing in mails a fresh link, which works once.
    expect((await server.request('POST', '/api/auth/session', { body: { email: 'slow@example.com', password } })).status).toBe(403);
    const fresh = await mailedToken(server, 'slow@example.com', 'verify-email');
    expect((await server.request('POST', '/api/auth/verify-email', { body: { token: fresh } })).status).toBe(200);
    expect((await server.request('POST', '/api/auth/verify-email', { body: { token: fresh } })).status).toBe(400);
    expect((await server.request('POST', '/api/auth/verify-email', { body: { token: 'made-up' } })).status).toBe(400);
  });

  it('ends a session 30 days after sign-in', async () => {
    const person = await signUpAndVerify(server, 'month@example.com');
    server.clock.advance(29 * 24 * hour);
    expect((await server.request('GET', '/api/auth/session', { headers: { cookie: person.cookie } })).status).toBe(200);
    server.clock.advance(24 * hour + 1000);
    expect((await server.request('GET', '/api/auth/session', { headers: { cookie: person.cookie } })).status).toBe(401);
  });

  it('PATCH /api/auth/me changes name, avatar and language, and validates each (400 fields)', async () => {
    const person = await signUpAndVerify(server, 'me@example.com');
    const bad = await server.request('PATCH', '/api/auth/me', { headers: person.headers, body: { locale: 'xx', avatarUrl: 'http://example.com/me.png', name: '' } });
    expect(bad.status).toBe(400);
    const fields = (bad.body as { details: { fields: { path: string }[] } }).details.fields.map((field) => field.path).sort();
    expect(fields).toEqual(['avatarUrl', 'locale', 'name']);
    for (const avatarUrl of ['javascript:alert(1)', 'not a url', 'https://']) {
      expect((await server.request('PATCH', '/api/auth/me', { headers: person.headers, body: { avatarUrl } })).status, avatarUrl).toBe(400);
    }
    expect((await server.request<{ user: { name: string } }>('GET', '/api/auth/me', { headers: { cookie: person.cookie } })).body.user.name).toBe('New Person');

    const changed = await server.request('PATCH', '/api/auth/me', { headers: person.headers, body: { name: 'Renamed', avatarUrl: 'https://example.com/me.png', locale: 'pt' } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ user: { name: 'Renamed', avatarUrl: 'https://example.com/me.png', locale: 'pt' } });
    const cleared = await server.request('PATCH', '/api/auth/me', { headers: person.headers, body: { avatarUrl: null } });
    expect(cleared.body).toMatchObject({ user: { name: 'Renamed', avatarUrl: null, locale: 'pt' } });
  });

  it('keeps session-only routes from keys and tokens, and the session from MCP', async () => {
    const person = await signUpAndVerify(server, 'only@example.com');
    const { key } = await provisionUser(server, 'keyholder@example.com');
    for (const [method, path, body] of [
      ['GET', '/api/auth/session', undefined],
      ['DELETE', '/api/auth/session', undefined],
      ['PATCH', '/api/auth/me', { name: 'Key' }],
      ['GET', '/api/auth/grants', undefined],
    ] as const) {
      const refused = await server.request(method, path, { key, ...(body ? { body } : {}) });
      expect(refused.status, `${method} ${path}`).toBe(401);
    }
    // A key with a session cookie beside it acts as the key (Authorization wins).
    const both = await server.request<{ user: { email: string } }>('GET', '/api/auth/me', { key, headers: { cookie: person.cookie } });
    expect(both.body.user.email).toBe('keyholder@example.com');

    const initialize = { method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const mcp = await rawPost(server, initialize, person.headers);
    expect(mcp.status).toBe(401);
  });

  it('marks the cookie Secure when BASE_URL is https', async () => {
    const secure = await startTestServer({ BASE_URL: 'https://gantry.example.com' });
    try {
      expect((await secure.cli('user', 'create', '--email', 'secure@example.com', '--password', password)).code).toBe(0);
      const signedIn = await secure.request('POST', '/api/auth/session', { body: { email: 'secure@example.com', password } });
      expect(signedIn.status).toBe(200);
      expect(signedIn.headers.getSetCookie()).toContainEqual(expect.stringMatching(/^gantry_session=[\w-]{43,}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax; Secure$/));
    } finally {
      await secure.close();
    }
  });
});

// Requests without a credential are limited per client address, so they cannot flood the
// mail outbox; mails to one address are limited on their own.
describe('limits of requests without a credential', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('mails one address at most 5 account mails an hour, answering the same', async () => {
    expect((await server.cli('user', 'create', '--email', 'victim@example.com', '--password', password)).code).toBe(0);
    for (let i = 0; i < 7; i += 1) {
      const response = await server.request('POST', '/api/auth/password-reset', { body: { email: 'victim@example.com' } });
      expect([response.status, response.body]).toEqual([202, { resetSent: true }]);
    }
    expect(await mailsTo(server, 'victim@example.com')).toHaveLength(5);
    server.clock.advance(hour + 1000);
    expect((await server.request('POST', '/api/auth/password-reset', { body: { email: 'victim@example.com' } })).status).toBe(202);
    expect(await mailsTo(server, 'victim@example.com')).toHaveLength(6);
  });

  it('refuses the 51st sign-up, reset or sign-in from one address within 15 minutes (429), and lets them through again after', async () => {
    server.clock.advance(hour);
    // Resets are cheap (no password to hash); a sign-up and a sign-in count in the same budget.
    for (let i = 0; i < 50; i += 1) {
      const path = i === 0 ? '/api/auth/signup' : i === 1 ? '/api/auth/session' : '/api/auth/password-reset';
      const response = await server.request('POST', path, { body: { email: `flood${i}@example.com`, password } });
      expect(response.status, `${i} ${path}`).not.toBe(429);
    }
    for (const path of ['/api/auth/signup', '/api/auth/password-reset', '/api/auth/session', '/api/auth/verify-email']) {
      const refused = await server.request('POST', path, { body: { email: 'one-more@example.com', password, token: 'x' } });
      expect(refused.status, path).toBe(429);
      expect(refused.body).toMatchObject({ error: 'rate_limited' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(await server.store.q.users.findByEmail('one-more@example.com')).toBeUndefined();
    server.clock.advance(15 * 60 * 1000 + 1000);
    expect((await server.request('POST', '/api/auth/password-reset', { body: { email: 'one-more@example.com' } })).status).toBe(202);
  });
});
