import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from './http/app.js';
import { mcpRoutes } from './mcp/route.js';
import { oauthRoutes } from './oauth/routes.js';
import { webAppRoutes } from './web-app/routes.js';

/**
 * The whole service on one HTTP app: the REST API with the OAuth authorization server,
 * the MCP server and the web app mounted beside it.
 */
export function buildService(deps: Omit<AppDeps, 'mount'>): FastifyInstance {
  return buildApp({ ...deps, mount: [oauthRoutes, mcpRoutes, (app) => webAppRoutes(app)] });
}
