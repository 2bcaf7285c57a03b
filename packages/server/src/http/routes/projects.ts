import { routes } from '@gantry/contract';
import type { FastifyInstance } from 'fastify';
import { listProjectMembers } from '../../domain/members.js';
import { createProject, getFullProjectJson, listProjects, updateProject } from '../../domain/projects/projects.js';
import { RawJson, registerRoute, type RouteDeps } from '../register-route.js';

export function projectRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { ctx } = deps;
  registerRoute(app, deps, routes.listProjects, async ({ actor, query }) => ({
    projects: await listProjects(ctx, actor, { includeArchived: query.archived === '1' }),
  }));
  registerRoute(app, deps, routes.createProject, async ({ actor, body }) => ({ project: await createProject(ctx, actor, body) }));
  registerRoute(app, deps, routes.getProject, async ({ actor, params }) => new RawJson(await getFullProjectJson(ctx, actor, params.projectId)));
  registerRoute(app, deps, routes.updateProject, async ({ actor, params, body }) => updateProject(ctx, actor, params.projectId, body));
  registerRoute(app, deps, routes.listProjectMembers, async ({ actor, params }) => ({
    members: await listProjectMembers(ctx, actor, params.projectId),
  }));
}
