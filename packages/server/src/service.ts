import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from './http/app.js';
import { oauthRoutes } from './oauth/routes.js';

/** The whole service on one HTTP app: the REST API with the OAuth authorization server mounted beside it. */
export function buildService(deps: Omit<AppDeps, 'mount'>): FastifyInstance {
  return buildApp({ ...deps, mount: [oauthRoutes] });
}
