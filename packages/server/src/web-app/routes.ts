import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * The pages of the web app (packages/web): the server answers each with the app's
 * index.html and the browser routes from there. A task's `url` is such a page. Any other
 * address stays the API's JSON 404.
 */
export const webAppPages = ['/', '/sign-in', '/sign-up', '/verify-email', '/forgot-password', '/reset-password', '/projects/*', '/join/*', '/settings'];

/** Where `npm run build` puts the web app. */
export function webAppDirectory(): string {
  return path.join(path.dirname(createRequire(import.meta.url).resolve('@gantry/web/package.json')), 'dist');
}

// The app loads only its own script and styles and talks only to this server; pictures
// (avatars) may come from any https address.
const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  'content-security-policy': "default-src 'self'; img-src 'self' https: data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'referrer-policy': 'same-origin',
};

/** Serves the built web app: its pages, and its hashed assets cached for a year. */
export async function webAppRoutes(app: FastifyInstance, directory = webAppDirectory()): Promise<void> {
  const indexFile = path.join(directory, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ directory }, 'the web app is not built (npm run build): only the API is served');
    return;
  }
  const index = readFileSync(indexFile);
  for (const page of webAppPages) app.get(page, async (_request, reply) => reply.headers(pageHeaders).send(index));
  await app.register(fastifyStatic, {
    root: path.join(directory, 'assets'),
    prefix: '/assets/',
    immutable: true,
    maxAge: '365d',
    index: false,
  });
}
