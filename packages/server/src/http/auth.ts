import type { FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitIdentity, type Actor, type ClientInfo, type DomainContext } from '../domain/context.js';
import { authenticateBearer } from '../domain/credentials.js';
import { AppError, destructiveRefused } from '../domain/errors.js';
import { authenticateWebSession, checkCsrf, sessionTokenOf } from '../domain/sessions.js';
import type { SlidingWindowLimiter } from '../rate-limits/sliding-window-limiter.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}

export interface RateLimiters {
  reads: SlidingWindowLimiter;
  writes: SlidingWindowLimiter;
  /** A web session's writes: a person editing a plan by keyboard writes faster than an integration is allowed to. */
  sessionWrites: SlidingWindowLimiter;
}

/**
 * An API key or an OAuth access token issued for the resource called — the REST API unless
 * said otherwise (`authenticateBearer`) — or, for the REST API when no `Authorization` is
 * sent, the web session cookie (with its CSRF rules). 401 for a missing, unknown, revoked
 * or expired credential, or a token for another resource; sets `request.actor`.
 */
export async function authenticate(ctx: DomainContext, request: FastifyRequest, resource: 'api' | 'mcp' = 'api'): Promise<Actor> {
  if (request.headers.authorization === undefined && resource === 'api' && sessionTokenOf(request.headers.cookie)) return authenticatePerson(ctx, request);
  const actor = await authenticateBearer(ctx, request.headers.authorization, resource);
  if (!actor) {
    throw new AppError('unauthorized', 'a valid API key or OAuth access token is required: Authorization: Bearer …');
  }
  request.actor = actor;
  return actor;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The person signed in in this browser (the web session cookie), for what only the person
 * may do; API keys and OAuth tokens are not accepted here. 401 otherwise; 403 `csrf` for
 * an unsafe request from another site or without the session's `X-CSRF-Token`.
 */
export async function authenticatePerson(ctx: DomainContext, request: FastifyRequest): Promise<Actor> {
  // A request with both acts as its bearer credential (docs/api.md › Web sessions), which cannot do this.
  if (request.headers.authorization !== undefined) {
    throw new AppError('unauthorized', 'only the signed-in person can do this, without an Authorization header: API keys and OAuth tokens cannot');
  }
  const token = sessionTokenOf(request.headers.cookie);
  const session = token ? await authenticateWebSession(ctx, token) : null;
  if (!session) {
    throw new AppError('unauthorized', token ? 'the web session is unknown or has ended: sign in again' : 'only the signed-in person can do this: sign in in the browser (API keys and OAuth tokens cannot)');
  }
  checkCsrf(ctx, session, request);
  request.actor = session.actor;
  return session.actor;
}

/** Who calls, for what is done without a credential (its limits, a new session's record). */
export function clientInfo(request: FastifyRequest): ClientInfo {
  return { address: request.ip, userAgent: header(request, 'user-agent') ?? null };
}

/** A read, for the rate limits and the audit log: GET and HEAD; every other method writes. */
export function isRead(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

/**
 * Counts the call against the credential's read or write budget (separate sliding windows)
 * and answers 429 with `Retry-After` when it is spent. The HTTP method tells which, unless
 * the caller knows better (an MCP request is always a POST).
 */
export async function enforceRateLimit(limiters: RateLimiters, actor: Actor, request: FastifyRequest, reply: FastifyReply, kind: 'read' | 'write' = isRead(request.method) ? 'read' : 'write'): Promise<void> {
  const read = kind === 'read';
  const limiter = read ? limiters.reads : actor.credential.kind === 'session' ? limiters.sessionWrites : limiters.writes;
  const decision = await limiter.take(rateLimitIdentity(actor));
  reply.header('x-ratelimit-limit', decision.limit);
  reply.header('x-ratelimit-remaining', decision.remaining);
  if (!decision.allowed) {
    const retryAfterSec = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
    reply.header('retry-after', retryAfterSec);
    throw new AppError('rate_limited', `${read ? 'read' : 'write'} rate limit exceeded; retry in ${retryAfterSec} s`, { retryAfterSec });
  }
}

/**
 * A deletion of a project or task sent with a bearer credential (API key or OAuth token):
 * refused with 403 `destructive` once the credential is known (401 otherwise), and counted
 * against its write budget, as any authenticated write.
 */
export async function refuseBearerDeletion(ctx: DomainContext, limiters: RateLimiters, request: FastifyRequest, reply: FastifyReply): Promise<never> {
  await enforceRateLimit(limiters, await authenticate(ctx, request), request, reply);
  throw destructiveRefused();
}
