import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

// docs/api.md › Authentication: 401 / 403 / 404 rules, scopes and their aliases, workspace
// restriction, expiry, revocation, roles, deletion, and the audit log of every call.
describe('authentication and access', () => {
  let server: TestServer;
  let owner: Awaited<ReturnType<typeof provisionUser>>;
  let projectId: string;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await provisionUser(server, 'owner@example.com');
    const created = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key: owner.key, body: { name: 'Website' } });
    expect(created.status).toBe(201);
    projectId = created.body.project.id;
  });
  afterAll(() => server.close());

  it('answers 401 unauthorized without a key, with an unknown key and with a malformed header', async () => {
    for (const headers of [{} as Record<string, string>, { authorization: 'Bearer gnt_notarealkey' }, { authorization: 'Basic abc' }, { authorization: `Bearer ${owner.key}x` }]) {
      const response = await server.request('GET', '/api/projects', { headers });
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ error: 'unauthorized' });
    }
  });

  it('answers 401 for a revoked key, at once', async () => {
    const created = await server.cli('key', 'create', '--email', 'owner@example.com', '--scope', 'read', '--json');
    const { key, apiKey } = created.json as { key: string; apiKey: { id: string } };
    expect((await server.request('GET', '/api/auth/me', { key })).status).toBe(200);
    const revoked = await server.cli('key', 'revoke', '--id', apiKey.id);
    expect(revoked.code).toBe(0);
    expect((await server.request('GET', '/api/auth/me', { key })).status).toBe(401);
  });

  it('answers 401 for an expired key', async () => {
    const expiresAt = new Date(server.clock.now().getTime() + 60_000).toISOString();
    const created = await server.cli('key', 'create', '--email', 'owner@example.com', '--scope', 'read', '--expires', expiresAt, '--json');
    const { key } = created.json as { key: string };
    expect((await server.request('GET', '/api/auth/me', { key })).status).toBe(200);
    server.clock.advance(61_000);
    expect((await server.request('GET', '/api/auth/me', { key })).status).toBe(401);
  });

  it('stores keys only as hashes and shows them once', async () => {
    const created = await server.cli('key', 'create', '--email', 'owner@example.com', '--scope', 'write', '--json');
    const { key } = created.json as { key: string };
    expect(key).toMatch(/^gnt_[A-Za-z0-9_-]{43}$/);
    const dump = JSON.stringify(await server.store.q.apiKeys.findById((created.json as { apiKey: { id: string } }).apiKey.id));
    expect(dump).not.toContain(key.slice(4));
  });

  it('lets a read key read and answers 403 forbidden when it writes; the service:* aliases work', async () => {
    for (const scope of ['read', 'service:read']) {
      const created = await server.cli('key', 'create', '--email', 'owner@example.com', '--scope', scope, '--json');
      const { key } = created.json as { key: string };
      expect((await server.request('GET', `/api/projects/${projectId}`, { key })).status).toBe(200);
      const write = await server.request('POST', '/api/projects', { key, body: { name: 'Nope' } });
      expect(write.status).toBe(403);
      expect(write.body).toMatchObject({ error: 'forbidden', details: { reason: 'insufficient_scope' } });
      const patch = await server.request('PATCH', `/api/projects/${projectId}`, { key, body: { name: 'Nope' } });
      expect(patch.status).toBe(403);
    }
    const created = await server.cli('key', 'create', '--email', 'owner@example.com', '--scope', 'service:write', '--json');
    const { key } = created.json as { key: string };
    expect((await server.request('PATCH', `/api/projects/${projectId}`, { key, body: { description: 'via alias' } })).status).toBe(200);
  });

  it('answers 403 destructive to any DELETE of a project or task, and 401 without a key', async () => {
    for (const pathname of [`/api/projects/${projectId}`, `/api/projects/${projectId}/tasks/${projectId}`, '/api/projects/not-a-uuid', `/api/projects/${projectId}/tasks`]) {
      const response = await server.request('DELETE', pathname, { key: owner.key });
      expect(response.status, pathname).toBe(403);
      expect(response.body).toMatchObject({ error: 'forbidden', details: { reason: 'destructive' } });
      expect(response.headers.get('x-ratelimit-limit'), pathname).toBe('60');
    }
    expect((await server.request('DELETE', `/api/projects/${projectId}`)).status).toBe(401);
    // Still there.
    expect((await server.request('GET', `/api/projects/${projectId}`, { key: owner.key })).status).toBe(200);
  });

  it('hides projects of others: 404, exactly like a missing one', async () => {
    const stranger = await provisionUser(server, 'stranger@example.com');
    for (const pathname of [`/api/projects/${projectId}`, `/api/projects/${projectId}/members`]) {
      const response = await server.request('GET', pathname, { key: stranger.key });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ error: 'not_found' });
    }
    expect((await server.request('PATCH', `/api/projects/${projectId}`, { key: stranger.key, body: { name: 'x' } })).status).toBe(404);
    expect((await server.request('GET', '/api/projects/00000000-0000-4000-8000-000000000000', { key: stranger.key })).status).toBe(404);
    expect((await server.request('GET', '/api/projects/not-a-uuid', { key: stranger.key })).status).toBe(404);
    const list = await server.request<{ projects: unknown[] }>('GET', '/api/projects', { key: stranger.key });
    expect(list.body.projects).toEqual([]);
  });

  it('applies project roles: viewer reads, editor edits, only the owner archives', async () => {
    const person = await provisionUser(server, 'person@example.com');
    const grant = (role: string) => server.cli('project', 'add-member', '--project', projectId, '--email', 'person@example.com', '--role', role);

    expect((await grant('viewer')).code).toBe(0);
    expect((await server.request('GET', `/api/projects/${projectId}`, { key: person.key })).status).toBe(200);
    const viewerPatch = await server.request('PATCH', `/api/projects/${projectId}`, { key: person.key, body: { name: 'Renamed' } });
    expect(viewerPatch.status).toBe(403);
    expect(viewerPatch.body).toMatchObject({ error: 'forbidden', details: { reason: 'insufficient_role' } });

    expect((await grant('editor')).code).toBe(0);
    expect((await server.request('PATCH', `/api/projects/${projectId}`, { key: person.key, body: { name: 'Renamed' } })).status).toBe(200);
    expect((await server.request('PATCH', `/api/projects/${projectId}`, { key: person.key, body: { archived: true } })).status).toBe(403);

    expect((await grant('owner')).code).toBe(0);
    const archived = await server.request<{ project: { archivedAt: string | null } }>('PATCH', `/api/projects/${projectId}`, { key: person.key, body: { archived: true } });
    expect(archived.status).toBe(200);
    expect(archived.body.project.archivedAt).not.toBeNull();
    const restored = await server.request<{ project: { archivedAt: string | null } }>('PATCH', `/api/projects/${projectId}`, { key: person.key, body: { archived: false } });
    expect(restored.body.project.archivedAt).toBeNull();
  });

  it('derives project roles from the workspace: admin → owner, member → editor, the highest role wins', async () => {
    const created = await server.cli('workspace', 'create', '--email', 'owner@example.com', '--name', 'Acme', '--json');
    expect(created.code, created.stderr).toBe(0);
    const workspaceId = (created.json as { workspace: { id: string } }).workspace.id;
    const teamProject = await server.request<{ project: { id: string; workspaceId: string } }>('POST', '/api/projects', {
      key: owner.key,
      body: { name: 'Team plan', workspaceId },
    });
    expect(teamProject.body.project.workspaceId).toBe(workspaceId);
    const id = teamProject.body.project.id;

    const admin = await provisionUser(server, 'admin@example.com');
    const member = await provisionUser(server, 'member@example.com');
    expect((await server.cli('workspace', 'add-member', '--workspace', workspaceId, '--email', 'admin@example.com', '--role', 'admin')).code).toBe(0);
    expect((await server.cli('workspace', 'add-member', '--workspace', workspaceId, '--email', 'member@example.com', '--role', 'member')).code).toBe(0);
    // A direct viewer grant does not lower the editor role inherited from the workspace.
    expect((await server.cli('project', 'add-member', '--project', id, '--email', 'member@example.com', '--role', 'viewer')).code).toBe(0);

    const members = await server.request<{ members: { email: string; role: string; directRole: string | null; inherited: boolean }[] }>('GET', `/api/projects/${id}/members`, { key: member.key });
    expect(members.status).toBe(200);
    const byEmail = Object.fromEntries(members.body.members.map((m) => [m.email, m]));
    expect(byEmail['owner@example.com']).toMatchObject({ role: 'owner', directRole: 'owner', inherited: true });
    expect(byEmail['admin@example.com']).toMatchObject({ role: 'owner', directRole: null, inherited: true });
    expect(byEmail['member@example.com']).toMatchObject({ role: 'editor', directRole: 'viewer', inherited: true });

    const memberList = await server.request<{ projects: { id: string; role: string; workspaceName: string }[] }>('GET', '/api/projects', { key: member.key });
    expect(memberList.body.projects.find((p) => p.id === id)).toMatchObject({ role: 'editor', workspaceName: 'Acme' });
    expect((await server.request('PATCH', `/api/projects/${id}`, { key: member.key, body: { name: 'Edited by member' } })).status).toBe(200);
    expect((await server.request('PATCH', `/api/projects/${id}`, { key: admin.key, body: { archived: true } })).status).toBe(200);

    const workspaces = await server.request<{ workspaces: { id: string; role: string }[] }>('GET', '/api/workspaces', { key: admin.key });
    expect(workspaces.body.workspaces.find((w) => w.id === workspaceId)?.role).toBe('admin');
  });

  it("marks only the caller's own personal workspace as personal, and lists it first", async () => {
    const host = await provisionUser(server, 'host@example.com');
    const guest = await provisionUser(server, 'guest@example.com');
    expect((await server.cli('workspace', 'add-member', '--workspace', host.personalWorkspaceId, '--email', 'guest@example.com', '--role', 'admin')).code).toBe(0);
    const listed = await server.request<{ workspaces: { id: string; personal: boolean }[] }>('GET', '/api/workspaces', { key: guest.key });
    expect(listed.body.workspaces).toEqual([
      expect.objectContaining({ id: guest.personalWorkspaceId, personal: true }),
      expect.objectContaining({ id: host.personalWorkspaceId, personal: false }),
    ]);
  });

  it('confines a workspace-restricted key to its workspace', async () => {
    const created = await server.cli('workspace', 'create', '--email', 'owner@example.com', '--name', 'Restricted', '--json');
    const workspaceId = (created.json as { workspace: { id: string } }).workspace.id;
    const keyResult = await server.cli('key', 'create', '--email', 'owner@example.com', '--scope', 'write', '--workspace', workspaceId, '--json');
    expect(keyResult.code, keyResult.stderr).toBe(0);
    const { key } = keyResult.json as { key: string };

    const workspaces = await server.request<{ workspaces: { id: string }[] }>('GET', '/api/workspaces', { key });
    expect(workspaces.body.workspaces.map((w) => w.id)).toEqual([workspaceId]);
    // The personal-workspace project is invisible to this key.
    expect((await server.request('GET', `/api/projects/${projectId}`, { key })).status).toBe(404);
    const inside = await server.request<{ project: { workspaceId: string } }>('POST', '/api/projects', { key, body: { name: 'Inside' } });
    expect(inside.status).toBe(201);
    expect(inside.body.project.workspaceId).toBe(workspaceId);
    const outside = await server.request('POST', '/api/projects', { key, body: { name: 'Outside', workspaceId: owner.personalWorkspaceId } });
    expect(outside.status).toBe(403);
    expect(outside.body).toMatchObject({ details: { reason: 'workspace_restricted' } });
    const hook = await server.request('POST', '/api/webhooks', { key, body: { url: 'https://hooks.example.com/in', events: ['*'], workspaceId: owner.personalWorkspaceId } });
    expect(hook.status).toBe(403);
    expect(hook.body).toMatchObject({ details: { reason: 'workspace_restricted' } });
    const list = await server.request<{ projects: { workspaceId: string }[] }>('GET', '/api/projects', { key });
    expect(list.body.projects.every((p) => p.workspaceId === workspaceId)).toBe(true);

    const foreign = await server.cli('key', 'create', '--email', 'stranger@example.com', '--scope', 'read', '--workspace', workspaceId);
    expect(foreign.code).not.toBe(0);
  });

  it('records every authenticated call in the audit log with key, method, path and status', async () => {
    const created = await server.cli('key', 'create', '--email', 'owner@example.com', '--scope', 'read', '--json');
    const { key, apiKey } = created.json as { key: string; apiKey: { id: string } };
    await server.request('GET', '/api/auth/me', { key });
    await server.request('GET', '/api/projects/00000000-0000-4000-8000-000000000000', { key });
    await server.request('POST', '/api/projects', { key, body: { name: 'x' } });
    await server.request('GET', '/api/auth/me', { key: 'gnt_unknown' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    const entries = await server.store.q.apiKeys.listAuditEntries(apiKey.id);
    expect(entries.map((e) => [e.method, e.path, e.status])).toEqual([
      ['GET', '/api/auth/me', 200],
      ['GET', '/api/projects/00000000-0000-4000-8000-000000000000', 404],
      ['POST', '/api/projects', 403],
    ]);
    expect(entries.every((e) => e.request_id.length > 0 && e.created_at.endsWith('Z'))).toBe(true);
  });
});
