import { routes } from '@gantry/contract';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../domain/errors.js';
import { presentUser } from '../../domain/users.js';
import { listWorkspaces } from '../../domain/workspaces.js';
import { registerRoute, type RouteDeps } from '../register-route.js';

export function accountRoutes(app: FastifyInstance, deps: RouteDeps): void {
  registerRoute(app, deps, routes.getMe, async ({ actor }) => {
    const user = await deps.ctx.store.q.users.findById(actor.userId);
    if (!user) throw notFound('user');
    return { user: presentUser(user) };
  });
  registerRoute(app, deps, routes.listWorkspaces, async ({ actor }) => ({ workspaces: await listWorkspaces(deps.ctx, actor) }));
}
