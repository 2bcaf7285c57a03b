import { routes } from '@gantry/contract';
import type { FastifyInstance } from 'fastify';
import { getCurrentUser } from '../../domain/users.js';
import { listWorkspaces } from '../../domain/workspaces.js';
import { registerRoute, type RouteDeps } from '../register-route.js';

export function accountRoutes(app: FastifyInstance, deps: RouteDeps): void {
  registerRoute(app, deps, routes.getMe, async ({ actor }) => ({ user: await getCurrentUser(deps.ctx, actor) }));
  registerRoute(app, deps, routes.listWorkspaces, async ({ actor }) => ({ workspaces: await listWorkspaces(deps.ctx, actor) }));
}
