import { buildOpenApiDocument, openApiDocumentPaths, routes, type OpenApiAudience } from '@gantry/contract';
import type { FastifyInstance } from 'fastify';
import type { DomainContext } from '../../domain/context.js';
import type { ServiceMetrics } from '../metrics.js';

/**
 * Public routes: liveness with store reachability, the OpenAPI documents (what integrations
 * may call, and the web app's own operations), and the metrics for Prometheus.
 */
export function systemRoutes(app: FastifyInstance, ctx: DomainContext, metrics: ServiceMetrics): void {
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

  // Figures by route template and counts only: nothing about any user or project.
  app.get('/metrics', async (_request, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()));

  for (const [audience, path] of Object.entries(openApiDocumentPaths) as [OpenApiAudience, string][]) {
    const document = JSON.stringify(buildOpenApiDocument(audience, Object.values(routes), ctx.baseUrl));
    app.get(path, async (_request, reply) => reply.type('application/json; charset=utf-8').send(document));
  }
}
