import { randomUUID } from 'node:crypto';
import { limits } from '@gantry/contract';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { DomainContext } from '../domain/context.js';
import { AppError, forbidden } from '../domain/errors.js';
import { VersionedMemo } from '../domain/memo.js';
import { PlanCache } from '../domain/planning/plan-cache.js';
import { ReadCache } from '../domain/projects/read-cache.js';
import type { Store } from '../store/store.js';
import { AuditLog } from './audit-log.js';
import { authenticate } from './auth.js';
import { installErrorHandler } from './error-handler.js';
import type { RouteDeps } from './register-route.js';
import { accountRoutes } from './routes/account.js';
import { projectRoutes } from './routes/projects.js';
import { systemRoutes } from './routes/system.js';
import { taskRoutes } from './routes/tasks.js';
import { webhookRoutes } from './routes/webhooks.js';
import { SlidingWindowLimiter } from './sliding-window-limiter.js';

export interface AppDeps {
  config: Config;
  store: Store;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** The webhook destination policy (webhooks/destination-guard), given by the composition root. */
  webhookDestinations?: DomainContext['webhookDestinations'];
}

/** Paths of projects and tasks: deleting them is never allowed through keys. */
const destructivePath = /^\/api\/projects(\/[^/]+(\/tasks(\/[^/]+)?)?)?\/?$/;
const requestIdPattern = /^[\w.:-]{1,128}$/;

/**
 * Builds the HTTP app without listening: the REST API, health and OpenAPI routes, with
 * authentication, rate limits, the audit log and the error mapping wired in.
 */
export function buildApp(deps: AppDeps): FastifyInstance {
  const ctx: DomainContext = {
    store: deps.store,
    clock: deps.clock,
    baseUrl: deps.config.baseUrl,
    planCache: new PlanCache(),
    readCache: new ReadCache(),
    memo: new VersionedMemo(),
    webhookDestinations: deps.webhookDestinations,
  };
  const app = Fastify({
    loggerInstance: deps.logger,
    bodyLimit: limits.requestBodyMaxBytes,
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID();
    },
    forceCloseConnections: 'idle',
    // Requests that arrive while closing get our own 503 body (below), not Fastify's.
    return503OnClosing: false,
  });

  // JSON only: anything else is answered 400 with the content-type named.
  app.removeContentTypeParser('text/plain');

  const routeDeps: RouteDeps = {
    ctx,
    limiters: {
      reads: new SlidingWindowLimiter(deps.config.rateLimits.readsPerMinute, limits.rateLimitWindowMs, deps.clock),
      writes: new SlidingWindowLimiter(deps.config.rateLimits.writesPerMinute, limits.rateLimitWindowMs, deps.clock),
    },
  };
  const audit = new AuditLog(deps.store, deps.logger);

  app.decorateRequest('actor', null);
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (closing) {
      reply.header('connection', 'close');
      throw new AppError('service_unavailable', 'the server is shutting down; retry shortly');
    }
  });
  app.addHook('onResponse', async (request, reply) => {
    const actor = request.actor;
    if (!actor?.apiKeyId) return;
    audit.record({
      apiKeyId: actor.apiKeyId,
      userId: actor.userId,
      method: request.method,
      path: request.url.split('?')[0] ?? request.url,
      status: reply.statusCode,
      requestId: request.id,
      durationMs: Math.round(reply.elapsedTime),
      at: deps.clock.now().toISOString(),
    });
  });
  app.addHook('onClose', async () => audit.close());

  installErrorHandler(app, limits.requestBodyMaxBytes);
  app.setNotFoundHandler(async (request) => {
    if (request.method === 'DELETE' && destructivePath.test(request.url.split('?')[0] ?? '')) {
      await authenticate(ctx, request);
      throw forbidden('destructive', 'projects and tasks cannot be deleted through the API; delete them in the web app');
    }
    throw new AppError('not_found', `no route ${request.method} ${request.url.split('?')[0]}`);
  });

  systemRoutes(app, ctx);
  accountRoutes(app, routeDeps);
  projectRoutes(app, routeDeps);
  taskRoutes(app, routeDeps);
  webhookRoutes(app, routeDeps);
  return app;
}
