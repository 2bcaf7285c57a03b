import { limits, type RouteDef } from '@gantry/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Actor, DomainContext } from '../domain/context.js';
import { invalid, notFound } from '../domain/errors.js';
import { IdempotentRequest } from '../domain/idempotency.js';
import { authenticate, enforceRateLimit, requireScope, type RateLimiters } from './auth.js';
import { fieldProblems, rawValueProblems } from './problems.js';

type Output<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface RouteInput<D extends RouteDef> {
  actor: Actor;
  params: Output<NonNullable<D['params']>>;
  query: Output<NonNullable<D['query']>>;
  body: NonNullable<D['body']> extends { schema: infer B } ? Output<B> : undefined;
  request: FastifyRequest;
}

/** A response body with a success status other than the operation's default one. */
export class WithStatus<T> {
  constructor(
    readonly status: number,
    readonly body: T,
  ) {}
}

/** A response body already serialised as UTF-8 JSON (e.g. from a cache). */
export class RawJson {
  constructor(readonly bytes: Buffer) {}
}

type Body<D extends RouteDef> = z.input<D['response']['schema']>;
export type RouteHandler<D extends RouteDef> = (input: RouteInput<D>) => Promise<Body<D> | WithStatus<Body<D>> | RawJson>;

export interface RouteDeps {
  ctx: DomainContext;
  limiters: RateLimiters;
}

async function respond<D extends RouteDef>(def: D, handler: RouteHandler<D>, input: RouteInput<D>): Promise<{ status: number; body: unknown }> {
  const result = await handler(input);
  return result instanceof WithStatus ? { status: result.status, body: result.body } : { status: def.response.status, body: result };
}

/**
 * Binds a handler to an operation of the contract. Before the handler runs: the key is
 * authenticated (401), counted against its rate limit (429) and checked for the
 * operation's scope (403) — all before the body is even parsed; then path ids that are
 * not UUIDs are 404 and every parameter, query and body problem is one 400.
 */
export function registerRoute<D extends RouteDef>(app: FastifyInstance, deps: RouteDeps, def: D, handler: RouteHandler<D>): void {
  app.route({
    method: def.method,
    url: def.path.replace(/\{(\w+)\}/g, ':$1'),
    onRequest: async (request, reply) => {
      const actor = await authenticate(deps.ctx, request);
      enforceRateLimit(deps.limiters, actor, request, reply);
      requireScope(actor, def.scope);
    },
    handler: async (request, reply) => {
      const params = def.params?.safeParse(request.params);
      if (params && !params.success) throw notFound();

      const problems = [...rawValueProblems(request.query, limits.requestBodyMaxDepth), ...rawValueProblems(request.body, limits.requestBodyMaxDepth)];
      const query = def.query?.safeParse(request.query ?? {});
      if (query && !query.success) problems.push(...fieldProblems(query.error, 'query'));
      const body = def.body ? (def.body.pick?.(request.body) ?? def.body.schema).safeParse(request.body ?? {}) : undefined;
      if (body && !body.success) problems.push(...fieldProblems(body.error, 'body'));
      if (problems.length > 0) throw invalid(problems);

      const input = { actor: request.actor as Actor, params: params?.data, query: query?.data, body: body?.data, request } as RouteInput<D>;
      const idempotencyKey = request.headers['idempotency-key'];
      if (def.method !== 'POST' || typeof idempotencyKey !== 'string') {
        const { status, body: payload } = await respond(def, handler, input);
        if (payload instanceof RawJson) return reply.code(status).type('application/json; charset=utf-8').send(payload.bytes);
        return reply.code(status).send(payload);
      }
      const claim = await IdempotentRequest.begin(deps.ctx, input.actor, idempotencyKey, { method: def.method, path: request.url, body: request.body });
      if (!(claim instanceof IdempotentRequest)) return reply.header('idempotent-replayed', 'true').code(claim.status).send(claim.body);
      try {
        const { status, body: payload } = await respond(def, handler, input);
        await claim.complete(status, payload);
        return reply.code(status).send(payload);
      } catch (error) {
        await claim.release();
        throw error;
      }
    },
  });
}
