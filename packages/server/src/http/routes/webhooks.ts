import { listedEvents, routes } from '@gantry/contract';
import type { FastifyInstance } from 'fastify';
import { listDeliveries, pingWebhook, resendDelivery } from '../../domain/webhooks/deliveries.js';
import { createWebhook, deleteWebhook, listWebhooks, presentWebhook, requireWebhook, rotateWebhookSecret } from '../../domain/webhooks/subscriptions.js';
import { registerRoute, type RouteDeps } from '../register-route.js';

export function webhookRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { ctx } = deps;
  registerRoute(app, deps, routes.createWebhook, async ({ actor, body }) => createWebhook(ctx, actor, body));
  registerRoute(app, deps, routes.listWebhooks, async ({ actor }) => ({ webhooks: await listWebhooks(ctx, actor) }));
  registerRoute(app, deps, routes.listEventTypes, async () => ({ events: [...listedEvents] }));
  registerRoute(app, deps, routes.getWebhook, async ({ actor, params }) => ({ webhook: presentWebhook(await requireWebhook(ctx, actor, params.webhookId)) }));
  registerRoute(app, deps, routes.deleteWebhook, async ({ actor, params }) => {
    await deleteWebhook(ctx, actor, params.webhookId);
    return { id: params.webhookId, deleted: true as const };
  });
  registerRoute(app, deps, routes.rotateWebhookSecret, async ({ actor, params }) => rotateWebhookSecret(ctx, actor, params.webhookId));
  registerRoute(app, deps, routes.pingWebhook, async ({ actor, params }) => ({ delivery: await pingWebhook(ctx, actor, params.webhookId) }));
  registerRoute(app, deps, routes.listDeliveries, async ({ actor, params, query }) => listDeliveries(ctx, actor, params.webhookId, query));
  registerRoute(app, deps, routes.resendDelivery, async ({ actor, params }) => ({ delivery: await resendDelivery(ctx, actor, params.webhookId, params.deliveryId) }));
}
