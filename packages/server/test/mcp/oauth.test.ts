import type * as oauth from 'oauth4webapi';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../src/mcp/server.js';
import { launchBrowser } from '../support/browser.js';
import { authorizationRequest, discover, exchangeCode, register, signInAndConsent } from '../support/oauth-client.js';
import { planningClient } from '../support/planning.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { callOk, connectLegacy, connectModern, rawPost } from './support.js';

// docs/mcp.md › Access with OAuth: a token issued for the MCP server (resource {BASE_URL}/mcp)
// acts at /mcp with its scope; a token for the REST API does not.
describe('MCP with OAuth access tokens', () => {
  let server: TestServer;
  let browser: Browser;
  let as: oauth.AuthorizationServer;
  let projectId: string;
  const bob = { email: 'bob@example.com', password: 'correct horse battery' };

  /** Registration, Bob's sign-in and consent in the browser, and the code exchange. */
  async function tokenFor(resource: string, scope: string): Promise<string> {
    const client = await register(as);
    const request = await authorizationRequest(as, client, { scope, resource });
    const { callback } = await signInAndConsent(browser, request.url, bob);
    return (await exchangeCode(as, client, request, callback)).access_token;
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    const created = await server.cli('user', 'create', '--email', bob.email, '--name', 'Bob', '--password', bob.password, '--json');
    expect(created.code, created.stderr).toBe(0);
    const key = await server.cli('key', 'create', '--email', bob.email, '--scope', 'write', '--json');
    projectId = (await planningClient(server, (key.json as { key: string }).key).createProject({ name: 'Signed in' })).id;
    as = await discover(server);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('serves every tool to a token for the MCP server, through either client', async () => {
    const token = await tokenFor(`${server.url}/mcp`, 'service:read service:write');
    for (const connect of [connectLegacy, connectModern]) {
      const client = await connect(server, token);
      expect((await client.listTools()).tools).toHaveLength(Object.keys(tools).length);
      const projects = await callOk<{ projects: { id: string }[] }>(client, 'list_projects');
      expect(projects.structuredContent.projects.map((p) => p.id)).toEqual([projectId]);
      await callOk(client, 'what_if', { projectId, createTasks: [{ name: 'Maybe' }] });
      await client.close();
    }
  }, 60_000);

  it('narrows a read token to the read tools and challenges a write call', async () => {
    const token = await tokenFor(`${server.url}/mcp`, 'service:read');
    const client = await connectModern(server, token);
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['get_calendar', 'get_plan', 'get_task', 'list_calendars', 'list_projects', 'list_resources', 'list_versions', 'list_workspaces', 'search_tasks']);
    await client.close();
    const refused = await rawPost(server, { method: 'tools/call', params: { name: 'apply_changes', arguments: { projectId } } }, { authorization: `Bearer ${token}` });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", scope="service:write"/);
  }, 60_000);

  it('refuses a token issued for the REST API', async () => {
    const token = await tokenFor(`${server.url}/api`, 'service:read service:write');
    const refused = await rawPost(server, { method: 'tools/list' }, { authorization: `Bearer ${token}` });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", resource_metadata=/);
    expect((await server.request('GET', '/api/auth/me', { key: token })).status).toBe(200);
  }, 60_000);
});
