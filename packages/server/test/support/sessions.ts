import { expect } from 'vitest';
import type { TestServer } from './test-server.js';

export interface SignedIn {
  /** `gantry_session=…`, as a `Cookie` header. */
  cookie: string;
  csrfToken: string;
  /** `cookie` and `x-csrf-token`: what a browser of the web app sends with an unsafe request. */
  headers: Record<string, string>;
}

/** The session cookie a response sets (`name=value`), or undefined. */
export function sessionCookieOf(headers: Headers): string | undefined {
  return headers
    .getSetCookie()
    .map((each) => each.split(';')[0] as string)
    .find((pair) => pair.startsWith('gantry_session='));
}

/** Signs in as the web app does (`POST /api/auth/session`): the cookie and CSRF token to send. */
export async function signIn(server: TestServer, email: string, password: string): Promise<SignedIn> {
  const response = await server.request<{ csrfToken: string }>('POST', '/api/auth/session', { body: { email, password } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const cookie = sessionCookieOf(response.headers);
  expect(cookie).toBeDefined();
  const { csrfToken } = response.body;
  return { cookie: cookie as string, csrfToken, headers: { cookie: cookie as string, 'x-csrf-token': csrfToken } };
}

/** A password long enough for `gantry user create` and sign-in. */
export const testPassword = 'a long enough password';

export interface Person extends SignedIn {
  userId: string;
  email: string;
}

/** A person made with `gantry user create --password` (verified), signed in in the web app. */
export async function signedInPerson(server: TestServer, email: string, name = email.split('@')[0] as string): Promise<Person> {
  const created = await server.cli('user', 'create', '--email', email, '--name', name, '--password', testPassword, '--json');
  expect(created.code, created.stderr).toBe(0);
  const userId = (created.json as { user: { id: string } }).user.id;
  return { userId, email, ...(await signIn(server, email, testPassword)) };
}

/** For a browser's cookies (e.g. after the OAuth sign-in page): the headers of an unsafe request of its web session. */
export async function sessionHeaders(server: TestServer, cookie: string): Promise<Record<string, string>> {
  const session = await server.request<{ csrfToken: string }>('GET', '/api/auth/session', { headers: { cookie } });
  expect(session.status).toBe(200);
  return { cookie, 'x-csrf-token': session.body.csrfToken };
}
