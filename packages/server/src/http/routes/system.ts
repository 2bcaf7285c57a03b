import { buildOpenApiDocument, openApiDocumentPaths, routes, type OpenApiAudience } from '@gantry/contract';
import type { FastifyInstance } from 'fastify';
import type { DomainContext } from '../../domain/context.js';
import { bearerToken } from '../../domain/credentials.js';
import { AppError } from '../../domain/errors.js';
import { sameSecret } from '../../domain/secrets.js';
import type { ServiceMetrics } from '../metrics.js';

/**
 * Public routes: liveness with store reachability, the OpenAPI documents (what integrations
 * may call, and the web app's own operations); and the metrics for Prometheus, only when
 * the operator gave their scraper a token (`GANTRY_METRICS_TOKEN`): without one there is
 * no `/metrics` (404), and with one a request without it is 401.
 */
export function systemRoutes(app: FastifyInstance, ctx: DomainContext, metrics: ServiceMetrics, metricsToken: string | undefined): void {
  app.get('/healthz', async (request, reply) => {
    try {
      await ctx.store.ping();
      return { status: 'ok', store: { dialect: ctx.store.dialect, reachable: true } };
    } catch (error) {
      request.log.warn({ err: error }, 'health check: store unreachable');
      return reply
        .code(503)
        .send({ error: 'service_unavailable', status: 'unavailable', store: { dialect: ctx.store.dialect, reachable: false } });
    }
  });

  if (metricsToken !== undefined) {
    // Figures by route template and counts only, but they tell how busy the service is and which routes it has.
    app.get('/metrics', async (request, reply) => {
      if (!sameSecret(bearerToken(request.headers.authorization) ?? '', metricsToken)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new AppError('unauthorized', '/metrics needs Authorization: Bearer <GANTRY_METRICS_TOKEN>');
      }
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  }

  for (const [audience, path] of Object.entries(openApiDocumentPaths) as [OpenApiAudience, string][]) {
    const document = JSON.stringify(buildOpenApiDocument(audience, Object.values(routes), ctx.baseUrl));
    app.get(path, async (_request, reply) => reply.type('application/json; charset=utf-8').send(document));
  }
}
