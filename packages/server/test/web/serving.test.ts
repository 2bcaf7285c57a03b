import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webAppDirectory, webAppRoutes } from '../../src/web-app/routes.js';
import { startTestServer, provisionUser, type TestServer } from '../support/test-server.js';

describe('the server serves the web app', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("answers a task's url with the app's page, locked down by its headers", async () => {
    const { key } = await provisionUser(server, 'page@example.com');
    const { body } = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key, body: { name: 'Pages' } });
    const { body: written } = await server.request<{ tasks: { id: string }[] }>('POST', `/api/projects/${body.project.id}/tasks`, { key, body: { name: 'First' } });
    const { body: read } = await server.request<{ task: { url: string } }>('GET', `/api/projects/${body.project.id}/tasks/${written.tasks[0]!.id}`, { key });
    expect(read.task.url.startsWith(server.config.baseUrl)).toBe(true);

    const page = await fetch(read.task.url.replace(server.config.baseUrl, server.url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();

    const asset = await fetch(`${server.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('serves every page of the app, and leaves other addresses to the API (JSON 404)', async () => {
    for (const page of ['/', '/sign-in', '/sign-up', '/verify-email?token=x', '/forgot-password', '/reset-password?token=x', '/settings', '/projects/x/tasks/y']) {
      const answer = await fetch(`${server.url}${page}`);
      expect(answer.status, page).toBe(200);
      expect(await answer.text()).toContain('<div id="root">');
    }
    for (const missing of ['/nothing', '/assets/nothing.js', '/api/nothing']) {
      const answer = await fetch(`${server.url}${missing}`);
      expect(answer.status, missing).toBe(404);
      expect(((await answer.json()) as { error: string }).error).toBe('not_found');
    }
  });

  it('builds the app into the directory it serves', () => {
    expect(readdirSync(webAppDirectory())).toContain('index.html');
  });

  it('serves only the API when the app is not built', async () => {
    const app = Fastify();
    await app.register((scope) => webAppRoutes(scope, mkdtempSync(path.join(tmpdir(), 'gantry-no-web-'))));
    expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(404);
    await app.close();
  });
});
