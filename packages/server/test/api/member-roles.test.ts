import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefused } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

interface Member {
  userId: string;
  role: string;
  directRole: string | null;
}

// docs/api.md › People: owners set and take away the direct roles of the people who have access.
describe('project roles', () => {
  let server: TestServer;
  let owner: Awaited<ReturnType<typeof provisionUser>>;
  let bob: Awaited<ReturnType<typeof provisionUser>>;
  let carol: Awaited<ReturnType<typeof provisionUser>>;
  let projectId: string;
  let taskId: string;

  const members = async () => (await server.request<{ members: Member[] }>('GET', `/api/projects/${projectId}/members`, { key: owner.key })).body.members;
  const setRole = (key: string, userId: string, role: unknown) => server.request<{ member: Member }>('PUT', `/api/projects/${projectId}/members/${userId}`, { key, body: { role } });

  beforeAll(async () => {
    server = await startTestServer();
    owner = await provisionUser(server, 'owner@example.com');
    bob = await provisionUser(server, 'bob@example.com');
    carol = await provisionUser(server, 'carol@example.com');
    projectId = (await server.request<{ project: { id: string } }>('POST', '/api/projects', { key: owner.key, body: { name: 'Roles' } })).body.project.id;
    taskId = (await server.request<{ tasks: { id: string }[] }>('POST', `/api/projects/${projectId}/tasks`, { key: owner.key, body: { name: 'Work' } })).body.tasks[0]!.id;
    expect((await server.cli('project', 'add-member', '--project', projectId, '--email', 'bob@example.com', '--role', 'editor')).code).toBe(0);
  });
  afterAll(() => server.close());

  it('an owner changes a direct role: the person can then do what the new role allows, no more', async () => {
    expect((await server.request('PATCH', `/api/projects/${projectId}/tasks/${taskId}`, { key: bob.key, body: { name: 'By Bob' } })).status).toBe(200);
    const changed = await setRole(owner.key, bob.userId, 'viewer');
    expect(changed.status).toBe(200);
    expect(changed.body.member).toMatchObject({ userId: bob.userId, role: 'viewer', directRole: 'viewer', inherited: false });
    expect((await members()).find((member) => member.userId === bob.userId)).toMatchObject({ role: 'viewer' });
    expectRefused(await server.request('PATCH', `/api/projects/${projectId}/tasks/${taskId}`, { key: bob.key, body: { name: 'Again' } }), 403, { details: { reason: 'insufficient_role' } });
  });

  it('refuses others than owners (403), a read key (403), a bad role (400), and people without access (404)', async () => {
    expectRefused(await setRole(bob.key, owner.userId, 'viewer'), 403, { details: { reason: 'insufficient_role' } });
    const reader = (await server.cli('key', 'create', '--email', 'owner@example.com', '--scope', 'read', '--json')).json as { key: string };
    expectRefused(await setRole(reader.key, bob.userId, 'editor'), 403, { details: { reason: 'insufficient_scope' } });
    const bad = await setRole(owner.key, bob.userId, 'boss');
    expect(bad.status).toBe(400);
    expect((bad.body as unknown as { details: { fields: { path: string }[] } }).details.fields.map((field) => field.path)).toEqual(['role']);
    expectRefused(await setRole(owner.key, carol.userId, 'editor'), 404, { error: 'not_found' });
    expect((await members()).map((member) => member.userId).sort()).toEqual([owner.userId, bob.userId].sort());
  });

  it("takes a direct role away: without workspace access the person loses the project (404); once more is 404", async () => {
    const removed = await server.request<{ userId: string; member: Member | null }>('DELETE', `/api/projects/${projectId}/members/${bob.userId}`, { key: owner.key });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ userId: bob.userId, member: null });
    expect((await server.request('GET', `/api/projects/${projectId}`, { key: bob.key })).status).toBe(404);
    expect((await server.request('DELETE', `/api/projects/${projectId}/members/${bob.userId}`, { key: owner.key })).status).toBe(404);
  });
});
