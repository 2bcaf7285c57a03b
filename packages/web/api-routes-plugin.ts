import { routes } from '@gantry/contract';
import type { Plugin } from 'vite';

const moduleId = 'virtual:api-routes';
const resolvedId = `\0${moduleId}`;

/**
 * `virtual:api-routes`: each route of the contract by name, as `[method, path]`. The web app's
 * typed client builds its requests from it, so paths come from the one schema source while no
 * schema code ships to the browser.
 */
export function apiRoutes(): Plugin {
  const table = Object.fromEntries(Object.entries(routes).map(([name, route]) => [name, [route.method, route.path]]));
  return {
    name: 'gantry-api-routes',
    resolveId: (source) => (source === moduleId ? resolvedId : undefined),
    load: (id) => (id === resolvedId ? `export default ${JSON.stringify(table)};` : undefined),
  };
}
