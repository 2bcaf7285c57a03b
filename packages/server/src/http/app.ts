import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { limits } from '@gantry/contract';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { AccountLimits } from '../domain/account-limits.js';
import type { Actor, DomainContext } from '../domain/context.js';
import { AppError, invalid } from '../domain/errors.js';
import { decodeXmlFileOffThread } from '../domain/exchange/off-thread.js';
import { VersionedMemo } from '../domain/memo.js';
import { PlanCache } from '../domain/planning/plan-cache.js';
import { ReadCache } from '../domain/projects/read-cache.js';
import type { Store } from '../store/store.js';
import { AuditLog } from './audit-log.js';
import { authenticate, enforceRateLimit, refuseBearerDeletion } from './auth.js';
import { errorBody, installErrorHandler } from './error-handler.js';
import { bindOperations, FileBody, type RouteDeps } from './bind-operations.js';
import { jsonTextProblem } from './json-text-bounds.js';
import { ServiceMetrics } from './metrics.js';
import { systemRoutes } from './routes/system.js';
import { MemoryWindows } from '../rate-limits/memory-windows.js';
import { SharedWindows } from '../rate-limits/shared-windows.js';
import { SlidingWindowLimiter, type SlidingWindows } from '../rate-limits/sliding-window-limiter.js';

export interface AppDeps {
  config: Config;
  store: Store;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** The webhook destination policy (webhooks/destination-guard), given by the composition root. */
  webhookDestinations?: DomainContext['webhookDestinations'];
  /** Outbound requests to user-named addresses through the same guard (webhooks/http-sender › guardedFetch). */
  publicFetch?: DomainContext['publicFetch'];
  /** Further adapters served by the same app (the OAuth server, MCP), given by the composition root. */
  mount?: readonly Mount[];
  /** Where rate limits count, given by the composition root when `REDIS_URL` is set; else the store's shared windows (PostgreSQL), else this process's memory. */
  rateWindows?: SlidingWindows;
  /** `/metrics` also reports the process (CPU, memory, event-loop lag): for the server process, not for apps tests build. */
  processMetrics?: boolean;
}

/** An adapter that adds its routes to the app, with the app's domain context, authentication and rate limits. */
export type Mount = (app: FastifyInstance, ctx: DomainContext, http: MountedHttp) => Promise<void>;

/** What the app lends a mounted adapter that serves authenticated calls (MCP). */
export interface MountedHttp {
  /** The app's one authentication (API key or OAuth access token for `resource`): 401 otherwise; sets `request.actor`, so the call is audited. */
  authenticate(request: FastifyRequest, resource: 'api' | 'mcp'): Promise<Actor>;
  /** Counts the call against the credential's read or write budget, shared with REST (429 when spent). */
  rateLimit(actor: Actor, request: FastifyRequest, reply: FastifyReply, kind: 'read' | 'write'): Promise<void>;
}

/**
 * Sent with every response (API, web app and its assets, OAuth, MCP, errors): a browser
 * takes each body as the type it is declared, never as a script or page it guesses.
 */
const noSniff = ['X-Content-Type-Options', 'nosniff'] as const;

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Node refused the request before Fastify saw it: answer in our error format, then close
 * (408 when the request did not arrive in time, as Node would, else 400).
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) return;
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const message = timedOut ? 'the request did not arrive in time' : error.code === 'HPE_HEADER_OVERFLOW' ? 'the request headers are too large' : 'the request is not valid HTTP';
  const body = JSON.stringify(errorBody(invalid([{ path: timedOut ? 'body' : 'headers', message }])));
  const status = timedOut ? '408 Request Timeout' : '400 Bad Request';
  socket.end(
    [`HTTP/1.1 ${status}`, 'Connection: close', 'Content-Type: application/json; charset=utf-8', `Content-Length: ${Buffer.byteLength(body)}`, `X-Request-Id: ${randomUUID()}`, noSniff.join(': '), '', body].join('\r\n'),
  );
}

/**
 * Paths of projects and tasks with no DELETE route (the lists, a trailing slash): deleting
 * there is refused as destructive, like a bearer deletion of one project or task.
 */
const destructivePath = /^\/api\/projects(\/[^/]+(\/tasks(\/[^/]+)?)?)?\/?$/;
const requestIdPattern = /^[\w.:-]{1,128}$/;

/** The store's windows shared by every node (falling back to this node's own while the store is away), or this process's own. */
function sharedOrLocalWindows(store: Store, logger: FastifyBaseLogger): SlidingWindows {
  if (!store.sharedWindows) return new MemoryWindows();
  return new SharedWindows(store.sharedWindows, (error) => logger.warn({ err: error }, 'rate limits count on this node alone for now: the database did not answer'));
}

/**
 * Builds the HTTP app without listening: the REST API, health and OpenAPI routes and any
 * mounted adapters, with authentication, rate limits, the audit log and the error
 * mapping wired in.
 */
export function buildApp(deps: AppDeps): FastifyInstance {
  const windows = deps.rateWindows ?? sharedOrLocalWindows(deps.store, deps.logger);
  const metrics = new ServiceMetrics(deps.store, deps.clock, { processMetrics: deps.processMetrics ?? false });
  const ctx: DomainContext = {
    store: deps.store,
    clock: deps.clock,
    baseUrl: deps.config.baseUrl,
    planCache: new PlanCache(),
    readCache: new ReadCache(),
    memo: new VersionedMemo(),
    webhookDestinations: deps.webhookDestinations,
    publicFetch: deps.publicFetch,
    // One set for the process: the REST sign-in and the OAuth sign-in page (mounted with this ctx) share it.
    accountLimits: new AccountLimits(deps.clock, windows),
    observeRecalculation: (seconds) => metrics.observeRecalculation(seconds),
  };
  const app = Fastify({
    loggerInstance: deps.logger,
    bodyLimit: limits.requestBodyMaxBytes,
    // Behind the proxies named in GANTRY_TRUST_PROXY, the client's address is the one they forward.
    trustProxy: deps.config.trustProxy ? [...deps.config.trustProxy] : false,
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID();
    },
    forceCloseConnections: 'idle',
    // Requests that arrive while closing get our own 503 body (below), not Fastify's.
    return503OnClosing: false,
    // Requests the router refuses never reach a route: answered in our format. A path
    // parameter too long to be an id names nothing (ids are UUIDs): 404, like a bad id.
    frameworkErrors: (error, request, raw) => {
      const reply = raw as FastifyReply;
      reply.header('x-request-id', request.id).header(...noSniff);
      const refused =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new AppError('not_found', `no such resource: ${request.url.split('?')[0]}`)
          : invalid([{ path: 'url', message: error.code === 'FST_ERR_BAD_URL' ? 'is not a valid URL (bad percent-encoding)' : error.message }]);
      return reply.code(refused.status).send(errorBody(refused));
    },
    // Requests Node's HTTP parser refuses (headers over its size limit, broken framing).
    clientErrorHandler: answerClientError,
  });

  // JSON (and, for the routes that take a file, XML): anything else is answered 400 with the content-type named. A JSON body may
  // be empty (clients often send the header on every request); one beyond the request
  // limits is refused before it is parsed; keys that could poison prototypes
  // (`__proto__`, `constructor.prototype`) are refused, named as such.
  app.removeContentTypeParser(['text/plain', 'application/json']);
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    const excess = jsonTextProblem(text);
    if (excess) return done(invalid([excess]), undefined);
    parseJson(request, text, (error, value) => {
      // Valid JSON the safe parser refused holds such keys (parsing it plainly is harmless).
      if (error && isJson(text)) return done(invalid([{ path: 'body', message: 'must not contain the keys __proto__ or constructor.prototype' }]), undefined);
      done(error, value);
    });
  });

  // A file sent as the body (an import's XML): decoded as the file says (not by the header's charset), as text for the routes that take one (bind-operations.ts).
  app.addContentTypeParser(['application/xml', 'text/xml'], { parseAs: 'buffer' }, async (_request: FastifyRequest, body: Buffer) => new FileBody(await decodeXmlFileOffThread(body)));

  const routeDeps: RouteDeps = {
    ctx,
    limiters: {
      reads: new SlidingWindowLimiter('reads', deps.config.rateLimits.readsPerMinute, limits.rateLimitWindowMs, deps.clock, windows),
      writes: new SlidingWindowLimiter('writes', deps.config.rateLimits.writesPerMinute, limits.rateLimitWindowMs, deps.clock, windows),
      sessionWrites: new SlidingWindowLimiter('session-writes', deps.config.rateLimits.sessionWritesPerMinute, limits.rateLimitWindowMs, deps.clock, windows),
    },
  };
  const audit = new AuditLog(deps.store, deps.logger);

  app.decorateRequest('actor', null);
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    // On the raw response: routes that answer it themselves (oidc-provider's) send it too.
    reply.raw.setHeader(...noSniff);
    reply.header('x-request-id', request.id);
    if (closing) {
      reply.header('connection', 'close');
      throw new AppError('service_unavailable', 'the server is shutting down; retry shortly');
    }
  });
  app.addHook('onResponse', async (request, reply) => {
    const elapsedMs = reply.elapsedTime;
    // By route template (`/api/projects/:projectId`), never by path: ids would make a series per project.
    metrics.observeRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, elapsedMs / 1000);
    const actor = request.actor;
    if (!actor) return;
    audit.record({
      credential: actor.credential,
      userId: actor.userId,
      method: request.method,
      path: request.url.split('?')[0] ?? request.url,
      status: reply.statusCode,
      requestId: request.id,
      durationMs: Math.round(elapsedMs),
      at: deps.clock.now(),
    });
  });
  app.addHook('onClose', async () => audit.close());

  installErrorHandler(app, limits.requestBodyMaxBytes, deps.config.baseUrl);
  app.setNotFoundHandler(async (request, reply) => {
    if (request.method === 'DELETE' && destructivePath.test(request.url.split('?')[0] ?? '')) {
      // A list of projects or tasks is never deleted; with a credential, this is the destructive refusal.
      return refuseBearerDeletion(ctx, routeDeps.limiters, request, reply);
    }
    throw new AppError('not_found', `no route ${request.method} ${request.url.split('?')[0]}`);
  });

  systemRoutes(app, ctx, metrics, deps.config.metricsToken);
  bindOperations(app, routeDeps);
  const http: MountedHttp = {
    authenticate: (request, resource) => authenticate(ctx, request, resource),
    rateLimit: (actor, request, reply, kind) => enforceRateLimit(routeDeps.limiters, actor, request, reply, kind),
  };
  for (const mount of deps.mount ?? []) void app.register((scope) => mount(scope, ctx, http));
  return app;
}
