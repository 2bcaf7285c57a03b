import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport, UnauthorizedError as ModernUnauthorized } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError as LegacyUnauthorized } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presentEvent } from '../../src/domain/events.js';
import { tools } from '../../src/mcp/server.js';
import { launchBrowser } from '../support/browser.js';
import { redirectUri, signInAndConsent } from '../support/oauth-client.js';
import { planningClient } from '../support/planning.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { callOk, type McpClient } from './support.js';

// The official SDK clients run their own OAuth: the 401 challenge at /mcp → protected-resource
// metadata → authorization server metadata → dynamic registration → the person's sign-in
// and consent (Debian Chromium) → code exchange → tools, with the person's permissions.

/** An MCP client's OAuth state, as a desktop app would keep it; the same shape serves both SDKs. */
class RememberingProvider {
  client: Record<string, unknown> | undefined;
  saved: Record<string, unknown> | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  constructor(readonly name: string) {}
  get redirectUrl() {
    return redirectUri;
  }
  get clientMetadata() {
    return { client_name: this.name, redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.client as never;
  }
  saveClientInformation(information: Record<string, unknown>) {
    this.client = information;
  }
  tokens() {
    return this.saved as never;
  }
  saveTokens(tokens: Record<string, unknown>) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe('the official MCP SDK clients sign in with OAuth on their own', () => {
  let server: TestServer;
  let browser: Browser;
  let projectId: string;
  let taskId: string;
  let resourceId: string;
  const eve = { email: 'eve@example.com', password: 'correct horse battery' };

  /** Lists the tools and calls every one, as the signed-in person (the grant has both scopes). */
  async function callEveryTool(client: Pick<McpClient, 'listTools' | 'callTool'>, sdk: McpClient['sdk']) {
    const caller: McpClient = { sdk, protocolVersion: undefined, capabilities: undefined, listTools: () => client.listTools(), callTool: (params) => client.callTool(params), close: async () => undefined };
    expect((await client.listTools()).tools).toHaveLength(Object.keys(tools).length);
    await callOk(caller, 'list_workspaces');
    await callOk(caller, 'list_projects');
    await callOk(caller, 'get_plan', { projectId });
    await callOk(caller, 'search_tasks', { projectId, q: 'design' });
    await callOk(caller, 'get_task', { projectId, taskId });
    await callOk(caller, 'what_if', { projectId, createTasks: [{ name: 'Maybe' }] });
    await callOk(caller, 'apply_changes', { projectId, createTasks: [{ name: `Added by ${sdk}` }] });
    await callOk(caller, 'add_comment', { projectId, taskId, body: `Looks good (${sdk})` });
    await callOk(caller, 'save_baseline', { projectId, name: `Agreed ${sdk}` });
    const { calendar } = (await callOk<{ calendar: { id: string } }>(caller, 'create_calendar', { projectId, name: `Team ${sdk}` })).structuredContent;
    await callOk(caller, 'update_calendar', { projectId, calendarId: calendar.id, timeZone: 'Europe/Berlin' });
    await callOk(caller, 'list_calendars', { projectId });
    await callOk(caller, 'get_calendar', { projectId, calendarId: calendar.id });
    await callOk(caller, 'save_version', { projectId, name: `Before ${sdk}` });
    await callOk(caller, 'list_versions', { projectId });
    await callOk(caller, 'duplicate_project', { projectId, name: `Copy by ${sdk}` });
    await callOk(caller, 'level_resources', { projectId, dryRun: true });
    await callOk(caller, 'list_resources', { projectId });
    await callOk(caller, 'update_resource', { projectId, resourceId, maxUnitsPct: 200 });
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    expect((await server.cli('user', 'create', '--email', eve.email, '--name', 'Eve', '--password', eve.password)).code).toBe(0);
    const key = ((await server.cli('key', 'create', '--email', eve.email, '--scope', 'write', '--json')).json as { key: string }).key;
    const rest = planningClient(server, key);
    projectId = (await rest.createProject({ name: 'Launch' })).id;
    taskId = (await rest.changeSet(projectId, { createTasks: [{ name: 'Design', durationMin: 960 }] })).body.tasks[0]?.id as string;
    resourceId = (await rest.req<{ resource: { id: string } }>('POST', `/api/projects/${projectId}/resources`, { name: 'Crane' })).body.resource.id;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('1.x (2025-11-25): discovery, registration, consent, a token for the MCP resource, then it lists the tools and calls every one', async () => {
    const provider = new RememberingProvider('SDK 1.x app');
    const url = new URL(`${server.url}/mcp`);
    const first = new LegacyClient({ name: 'oauth-1x', version: '1.0.0' });
    await expect(first.connect(new LegacyTransport(url, { authProvider: provider }))).rejects.toBeInstanceOf(LegacyUnauthorized);
    const authorizationUrl = provider.authorizationUrl as URL;
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${server.url}/oauth/authorize`);
    expect(authorizationUrl.searchParams.get('resource')).toBe(`${server.url}/mcp`);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');

    const { callback, consentText } = await signInAndConsent(browser, authorizationUrl, eve);
    expect(consentText).toContain('SDK 1.x app');
    const transport = new LegacyTransport(url, { authProvider: provider });
    await transport.finishAuth(callback.searchParams.get('code') as string);
    const client = new LegacyClient({ name: 'oauth-1x', version: '1.0.0' });
    await client.connect(transport);
    await callEveryTool(client, '1.x');
    await client.close();
    // Its writes are announced like any other, naming the person and the app.
    const events = (await server.store.q.events.listForProject(projectId)).map(presentEvent);
    expect(events.filter((event) => event.actor.client?.name === 'SDK 1.x app').map((event) => event.type)).toEqual(
      expect.arrayContaining(['task.created', 'comment.created', 'baseline.saved']),
    );
  }, 60_000);

  it('2.x pinned to 2026-07-28: the same flow, the authorization response checked by the client (iss), then every tool', async () => {
    const provider = new RememberingProvider('SDK 2.x app');
    const url = new URL(`${server.url}/mcp`);
    const options = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };
    const first = new ModernClient({ name: 'oauth-2x', version: '2.0.0' }, options);
    await expect(first.connect(new ModernTransport(url, { authProvider: provider }))).rejects.toBeInstanceOf(ModernUnauthorized);
    const { callback } = await signInAndConsent(browser, provider.authorizationUrl as URL, eve);
    const transport = new ModernTransport(url, { authProvider: provider });
    await transport.finishAuth(callback.searchParams);
    const client = new ModernClient({ name: 'oauth-2x', version: '2.0.0' }, options);
    await client.connect(transport);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    await callEveryTool(client, '2.x');
    await client.close();
  }, 60_000);
});
