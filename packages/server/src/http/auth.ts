import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticateApiKey } from '../domain/api-keys.js';
import { rateLimitIdentity, type Actor, type DomainContext } from '../domain/context.js';
import { AppError } from '../domain/errors.js';
import type { SlidingWindowLimiter } from './sliding-window-limiter.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}

export interface RateLimiters {
  reads: SlidingWindowLimiter;
  writes: SlidingWindowLimiter;
}

const bearer = /^Bearer\s+(\S+)\s*$/i;

/** 401 for a missing, unknown, revoked or expired key; sets `request.actor`. */
export async function authenticate(ctx: DomainContext, request: FastifyRequest): Promise<Actor> {
  const match = bearer.exec(request.headers.authorization ?? '');
  const actor = match?.[1] ? await authenticateApiKey(ctx, match[1]) : null;
  if (!actor) {
    throw new AppError('unauthorized', 'a valid API key is required: Authorization: Bearer gnt_…');
  }
  request.actor = actor;
  return actor;
}

function isRead(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

/**
 * Counts the call against the credential's read or write budget (separate sliding windows)
 * and answers 429 with `Retry-After` when it is spent.
 */
export function enforceRateLimit(limiters: RateLimiters, actor: Actor, request: FastifyRequest, reply: FastifyReply): void {
  const read = isRead(request.method);
  const decision = (read ? limiters.reads : limiters.writes).take(rateLimitIdentity(actor));
  reply.header('x-ratelimit-limit', decision.limit);
  reply.header('x-ratelimit-remaining', decision.remaining);
  if (!decision.allowed) {
    const retryAfterSec = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
    reply.header('retry-after', retryAfterSec);
    throw new AppError('rate_limited', `${read ? 'read' : 'write'} rate limit exceeded; retry in ${retryAfterSec} s`, { retryAfterSec });
  }
}
