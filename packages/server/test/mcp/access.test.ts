import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planningClient } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';
import { callOk, connectLegacy, connectModern, rawPost } from './support.js';

// docs/mcp.md › Access: the MCP endpoint authenticates like the REST API (401 with an
// OAuth challenge), filters the tools by the credential's scope, refuses a write tool to a
// read credential with a scope challenge (403), counts calls against the key's budgets and
// records them in the audit log.
describe('MCP access', () => {
  let server: TestServer;
  let owner: Awaited<ReturnType<typeof provisionUser>>;
  let readKey: string;
  let readKeyId: string;
  let projectId: string;
  let metadata: string;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_READS: '1000', GANTRY_RATE_LIMIT_WRITES: '999' });
    owner = await provisionUser(server, 'access@example.com');
    const created = await server.cli('key', 'create', '--email', 'access@example.com', '--scope', 'read', '--json');
    ({ key: readKey, apiKey: { id: readKeyId } } = created.json as { key: string; apiKey: { id: string } });
    projectId = (await planningClient(server, owner.key).createProject({ name: 'Guarded' })).id;
    metadata = `${server.config.baseUrl}/.well-known/oauth-protected-resource/mcp`;
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers 401 with a challenge naming the protected-resource metadata, without a key or with a bad one', async () => {
    const initialize = { method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const missing = await rawPost(server, initialize);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadata}", scope="service:read service:write"`);
    const bad = await rawPost(server, initialize, { authorization: 'Bearer gnt_not_a_key' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", resource_metadata="${metadata}", scope="service:read service:write"`);
    for (const method of ['GET', 'DELETE']) {
      const other = await fetch(`${server.url}/mcp`, { method });
      expect(other.status, method).toBe(401);
      expect(other.headers.get('www-authenticate'), method).toContain(`resource_metadata="${metadata}"`);
    }
    await expect(connectModern(server, 'gnt_not_a_key')).rejects.toThrow();
    await expect(connectLegacy(server, 'gnt_not_a_key')).rejects.toThrow();
  });

  it("refuses a request a browser page of another origin sends (403), and lets the service's own origin through", async () => {
    const initialize = { method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const foreign = await rawPost(server, initialize, { authorization: `Bearer ${owner.key}`, origin: 'https://attacker.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { data: { reason: 'origin' } } });
    const own = await rawPost(server, initialize, { authorization: `Bearer ${owner.key}`, origin: new URL(server.config.baseUrl).origin });
    expect(own.status).toBe(200);
  });

  it('offers a read credential the read tools only, for either protocol revision', async () => {
    for (const connect of [connectLegacy, connectModern]) {
      const client = await connect(server, readKey);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['get_calendar', 'get_plan', 'get_task', 'list_calendars', 'list_projects', 'list_resources', 'list_versions', 'list_workspaces', 'search_tasks']);
      await callOk(client, 'get_plan', { projectId });
      await client.close();
    }
  });

  it('refuses a write tool to a read credential with a 403 scope challenge and a JSON-RPC error', async () => {
    const call = { id: 7, method: 'tools/call', params: { name: 'apply_changes', arguments: { projectId, createTasks: [{ name: 'Sneaky' }] } } };
    const refused = await rawPost(server, call, { authorization: `Bearer ${readKey}` });
    expect(refused.status).toBe(403);
    const challenge = refused.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer error="insufficient_scope", scope="service:write", resource_metadata="([^"]+)"/);
    expect(challenge).toContain(`resource_metadata="${metadata}"`);
    const body = (await refused.json()) as { jsonrpc: string; id: number; error: { code: number; message: string; data: { reason: string } } };
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { data: { reason: 'insufficient_scope' } } });
    expect((await planningClient(server, owner.key).fullProject(projectId)).body.tasks).toEqual([]);

    // The same through the SDK clients: the call fails, nothing is written.
    for (const connect of [connectLegacy, connectModern]) {
      const client = await connect(server, readKey);
      await expect(client.callTool({ name: 'what_if', arguments: { projectId, createTasks: [{ name: 'Sneaky' }] } })).rejects.toThrow();
      await client.close();
    }
    // A batch holding a write call is refused whole.
    const batch = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${readKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', ...call }]),
    });
    expect(batch.status).toBe(403);
    // A write key may call the same tool.
    const allowed = await rawPost(server, call, { authorization: `Bearer ${owner.key}` });
    expect(allowed.status).toBe(200);
  });

  it('counts reads against the read budget and write tools against the write budget', async () => {
    const auth = { authorization: `Bearer ${readKey}` };
    const list = await rawPost(server, { method: 'tools/list' }, auth);
    expect(list.headers.get('x-ratelimit-limit')).toBe('1000');
    const readTool = await rawPost(server, { method: 'tools/call', params: { name: 'list_projects', arguments: {} } }, auth);
    expect(readTool.headers.get('x-ratelimit-limit')).toBe('1000');
    const writeTool = await rawPost(server, { method: 'tools/call', params: { name: 'save_baseline', arguments: { projectId } } }, auth);
    expect(writeTool.status).toBe(403);
    expect(writeTool.headers.get('x-ratelimit-limit')).toBe('999');

    // Each message of a batch counts, as sent alone: five reads take five from the read budget.
    const remaining = async (body: unknown) => {
      const response = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-03-26' },
        body: JSON.stringify(body),
      });
      return Number(response.headers.get('x-ratelimit-remaining'));
    };
    const before = await remaining({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const calls = Array.from({ length: 5 }, (_, index) => ({ jsonrpc: '2.0', id: index + 2, method: 'tools/call', params: { name: 'list_projects', arguments: {} } }));
    expect(await remaining(calls)).toBe(before - 5);
  });

  it('records MCP calls in the audit log with the key', async () => {
    await rawPost(server, { method: 'tools/list' }, { authorization: `Bearer ${readKey}` });
    await new Promise((resolve) => setTimeout(resolve, 400));
    const entries = await server.store.q.apiKeys.listAuditEntries(readKeyId);
    const mcp = entries.filter((entry) => entry.path === '/mcp');
    expect(mcp.length).toBeGreaterThan(0);
    expect(mcp.map((entry) => entry.status)).toContain(403);
    expect(mcp.every((entry) => entry.method === 'POST' || entry.method === 'GET' || entry.method === 'DELETE')).toBe(true);
  });
});
