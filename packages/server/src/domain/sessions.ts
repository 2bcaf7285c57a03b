import { randomBytes, randomUUID } from 'node:crypto';
import type { User, WebSession as SessionView } from '@gantry/contract';
import type { Queries } from '../store/store.js';
import { nowIso, type Actor, type DomainContext } from './context.js';
import { AppError, notFound } from './errors.js';
import { sameSecret, secretDigest } from './secrets.js';
import { displayName, presentUser } from './users.js';

/** The web session's cookie: the web app, the REST API and the OAuth sign-in page share it. */
const SESSION_COOKIE = 'gantry_session';
/** A session lasts 30 days from sign-in. */
const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** How stale `last_seen_at` may get before a request refreshes it (one write an hour, not one per request). */
const touchEveryMs = 60 * 60 * 1000;

/** What the browser told about itself when the session started. */
export interface SessionMeta {
  userAgent?: string | null;
}

export interface StartedSession {
  /** The cookie's value: shown once, stored only as its digest. */
  token: string;
  /** Sent back as `X-CSRF-Token` with every unsafe request of the session. */
  csrfToken: string;
  sessionId: string;
}

function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Signs the user in: a new web session (in `tx` when given, to commit with the change that signs in). */
export async function startSession(ctx: DomainContext, userId: string, meta: SessionMeta = {}, tx: Queries = ctx.store.q): Promise<StartedSession> {
  const token = randomToken();
  const csrfToken = randomToken();
  const sessionId = randomUUID();
  const now = ctx.clock.now();
  await tx.sessions.insert({
    id: sessionId,
    token_digest: secretDigest(token),
    user_id: userId,
    csrf_token: csrfToken,
    user_agent: meta.userAgent?.slice(0, 500) ?? null,
    created_at: now.toISOString(),
    last_seen_at: now.toISOString(),
    expires_at: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
  });
  return { token, csrfToken, sessionId };
}

export interface WebSession {
  /** The person, acting as themself with the write scope; the session is the credential. */
  actor: Actor;
  csrfToken: string;
}

/** The session this cookie token belongs to, or null (unknown, ended or expired). */
export async function authenticateWebSession(ctx: DomainContext, token: string): Promise<WebSession | null> {
  const digest = secretDigest(token);
  const lookup = () => ctx.store.q.sessions.findByDigestWithUser(digest);
  // As an API key's lookup: reused until anything is written (a sign-out or a touch is a write).
  const row = ctx.memo ? await ctx.memo.get(ctx.store, `session:${digest}`, lookup) : await lookup();
  const now = ctx.clock.now();
  if (!row || row.expires_at <= now.toISOString()) return null;
  if (now.getTime() - Date.parse(row.last_seen_at) > touchEveryMs) await ctx.store.q.sessions.touch(row.id, now.toISOString());
  return {
    actor: { userId: row.user_id, name: displayName({ name: row.user_name, email: row.email }), scope: 'write', workspaceId: null, credential: { kind: 'session', id: row.id } },
    csrfToken: row.csrf_token,
  };
}

/** The session token in a `Cookie` header, if any. */
export function sessionTokenOf(cookieHeader: string | undefined): string | undefined {
  for (const pair of (cookieHeader ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === SESSION_COOKIE) return pair.slice(at + 1).trim() || undefined;
  }
  return undefined;
}

/** The `Set-Cookie` value that keeps `token` in the browser, or (null) that clears the cookie. */
export function sessionCookie(baseUrl: string, token: string | null): string {
  const secure = new URL(baseUrl).protocol === 'https:' ? '; Secure' : '';
  const lifetime = token === null ? 'Max-Age=0' : `Max-Age=${SESSION_TTL_MS / 1000}`;
  return `${SESSION_COOKIE}=${token ?? ''}; ${lifetime}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}


/** A request's headers, as Node gives them. */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

function headerOf(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Whether a request a browser sent with its cookies comes from the service's own pages:
 * its `Origin`, when sent, is BASE_URL's origin (`null`, as a sandboxed frame sends, is
 * not), and its `Sec-Fetch-Site`, when sent, is `same-origin` (or `none`: the person's own
 * navigation). Another site's form, script or frame fails one or the other; a sibling
 * subdomain (`same-site`) counts as another site.
 */
export function fromOwnPages(ctx: Pick<DomainContext, 'baseUrl'>, headers: RequestHeaders): boolean {
  const origin = headerOf(headers, 'origin');
  if (origin !== undefined && origin !== new URL(ctx.baseUrl).origin) return false;
  const site = headerOf(headers, 'sec-fetch-site');
  return site === undefined || site === 'same-origin' || site === 'none';
}

/**
 * 403 `csrf` for an unsafe request (anything but GET and HEAD) of a web session that
 * comes from another site than the service's own pages (`fromOwnPages`), or that does not
 * send the session's CSRF token as `X-CSRF-Token`.
 */
export function checkCsrf(ctx: Pick<DomainContext, 'baseUrl'>, session: WebSession, request: { method: string; headers: RequestHeaders }): void {
  if (request.method === 'GET' || request.method === 'HEAD') return;
  if (!fromOwnPages(ctx, request.headers)) {
    throw new AppError('forbidden', `requests signed in by the session cookie must come from ${new URL(ctx.baseUrl).origin}`, { reason: 'csrf' });
  }
  const csrfToken = headerOf(request.headers, 'x-csrf-token');
  if (csrfToken === undefined || !sameSecret(csrfToken, session.csrfToken)) {
    throw new AppError('forbidden', "send the session's CSRF token (csrfToken of GET /api/auth/session) as X-CSRF-Token", { reason: 'csrf' });
  }
}

function sessionIdOf(actor: Actor): string {
  if (actor.credential.kind !== 'session') throw new AppError('unauthorized', 'only a signed-in person has a web session');
  return actor.credential.id;
}

/** The signed-in person and their session's CSRF token (`GET /api/auth/session`). */
export async function currentSession(ctx: DomainContext, actor: Actor): Promise<{ user: User; csrfToken: string }> {
  const row = await ctx.store.q.sessions.findById(sessionIdOf(actor));
  const user = await ctx.store.q.users.findById(actor.userId);
  if (!row || !user) throw new AppError('unauthorized', 'the session has ended');
  return { user: presentUser(user), csrfToken: row.csrf_token };
}

/** Signs out: the actor's session ends. */
export async function endSession(ctx: DomainContext, actor: Actor): Promise<void> {
  await ctx.store.q.sessions.delete(sessionIdOf(actor));
}

/** The person's sessions that have not expired, the most recently used first (`GET /api/auth/sessions`). */
export async function listSessions(ctx: DomainContext, actor: Actor): Promise<SessionView[]> {
  const [currentId, now] = [sessionIdOf(actor), nowIso(ctx)];
  const rows = (await ctx.store.q.sessions.listForUser(actor.userId)).filter((row) => row.expires_at > now);
  rows.sort((a, b) => (a.last_seen_at < b.last_seen_at ? 1 : a.last_seen_at > b.last_seen_at ? -1 : 0));
  return rows.map((row) => ({ id: row.id, userAgent: row.user_agent, createdAt: row.created_at, lastSeenAt: row.last_seen_at, expiresAt: row.expires_at, current: row.id === currentId }));
}

/** Ends one of the person's own sessions (404 for any other); answers whether it was the asking browser's. */
export async function endSessionById(ctx: DomainContext, actor: Actor, sessionId: string): Promise<{ current: boolean }> {
  if (!(await ctx.store.q.sessions.deleteOfUser(sessionId, actor.userId))) throw notFound('session');
  return { current: sessionIdOf(actor) === sessionId };
}
