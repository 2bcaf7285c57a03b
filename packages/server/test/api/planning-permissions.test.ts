import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addProjectMember, expectStatus, newTask, planningClient, readOnlyKey, uuid, type PlanningClient, type User } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

// docs/api.md › Authentication (scopes, roles, 404 not_found for invisible projects) and
// › Error codes (403 forbidden and its details.reason, destructive deletes included).
describe('planning permissions', () => {
  let server: TestServer;
  let owner: User;
  let viewer: User;
  let stranger: User;
  let readKey: string;
  let client: PlanningClient;
  let projectId: string;
  let taskId: string;
  let otherTaskId: string;
  let dependencyId: string;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    owner = await provisionUser(server, 'boss@example.com');
    viewer = await provisionUser(server, 'viewer@example.com');
    stranger = await provisionUser(server, 'stranger@example.com');
    readKey = await readOnlyKey(server, 'boss@example.com');
    client = planningClient(server, owner.key);
    projectId = (await client.createProject({ name: 'Guarded', key: 'GRD' })).id;
    await addProjectMember(server, projectId, 'viewer@example.com', 'viewer');
    taskId = (await newTask(client, projectId, { name: 'A' })).id;
    otherTaskId = (await newTask(client, projectId, { name: 'B' })).id;
    dependencyId = (await client.link(projectId, { predecessorId: taskId, successorId: otherTaskId })).body.dependencies[0]?.id as string;
  });
  afterAll(() => server.close());

  const writes = (): [string, string, unknown][] => [
    ['POST', `/api/projects/${projectId}/tasks`, { name: 'X' }],
    ['POST', `/api/projects/${projectId}/tasks`, { createTasks: [{ name: 'X' }] }],
    ['PATCH', `/api/projects/${projectId}/tasks/${taskId}`, { name: 'X' }],
    ['POST', `/api/projects/${projectId}/tasks/${taskId}/comments`, { body: 'x' }],
    ['PUT', `/api/projects/${projectId}/tasks/${taskId}/assignees`, { userIds: [] }],
    ['POST', `/api/projects/${projectId}/dependencies`, { predecessorId: otherTaskId, successorId: taskId, type: 'SS' }],
    ['POST', `/api/projects/${projectId}/dependencies`, { dependencies: [{ predecessorId: taskId, successorId: otherTaskId, lagMin: 5 }] }],
    ['DELETE', `/api/projects/${projectId}/dependencies/${dependencyId}`, undefined],
    ['POST', `/api/projects/${projectId}/baseline`, {}],
  ];
  const reads = (): string[] => [
    `/api/projects/${projectId}/tasks`,
    `/api/projects/${projectId}/tasks/${taskId}`,
    `/api/projects/${projectId}/tasks/${taskId}/comments`,
    `/api/projects/${projectId}/dependencies`,
    `/api/projects/${projectId}/baseline`,
  ];

  async function unchanged(): Promise<string> {
    const full = await client.fullProject(projectId);
    const comments = await client.listComments(projectId, taskId);
    return JSON.stringify([full.body.tasks, full.body.dependencies, full.body.baselines, comments.body.comments]);
  }

  it('a viewer reads everything but every write is 403 insufficient_role', async () => {
    const before = await unchanged();
    for (const path of reads()) expectStatus(await server.request('GET', path, { key: viewer.key }), 200);
    for (const [method, path, body] of writes()) {
      const response = await server.request<{ error: string; details?: { reason?: string } }>(method, path, { key: viewer.key, body });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.error).toBe('forbidden');
      expect(response.body.details?.reason, `${method} ${path}`).toBe('insufficient_role');
    }
    expect(await unchanged()).toBe(before);
  });

  it('a read key reads, and every write is 403 insufficient_scope', async () => {
    const before = await unchanged();
    for (const path of reads()) expectStatus(await server.request('GET', path, { key: readKey }), 200);
    for (const [method, path, body] of writes()) {
      const response = await server.request<{ error: string; details?: { reason?: string } }>(method, path, { key: readKey, body });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.details?.reason).toBe('insufficient_scope');
    }
    expect(await unchanged()).toBe(before);
  });

  it('a project the caller cannot see is 404 for reads and writes', async () => {
    const before = await unchanged();
    for (const path of reads()) expectStatus(await server.request('GET', path, { key: stranger.key }), 404);
    for (const [method, path, body] of writes()) {
      const response = await server.request<{ error: string }>(method, path, { key: stranger.key, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.error).toBe('not_found');
    }
    expect(await unchanged()).toBe(before);
  });

  it('DELETE of a task is 403 destructive, for any key, even an owner write key', async () => {
    for (const key of [owner.key, readKey, viewer.key]) {
      const response = await server.request<{ error: string; details?: { reason?: string } }>('DELETE', `/api/projects/${projectId}/tasks/${taskId}`, { key });
      expect(response.status).toBe(403);
      expect(response.body.details?.reason).toBe('destructive');
    }
    const unknown = await server.request<{ details?: { reason?: string } }>('DELETE', `/api/projects/${projectId}/tasks/${uuid()}`, { key: owner.key });
    expect(unknown.status).toBe(403);
    expect(unknown.body.details?.reason).toBe('destructive');
    expectStatus(await client.getTask(projectId, taskId), 200);
  });

  it('no key is 401', async () => {
    expectStatus(await server.request('GET', `/api/projects/${projectId}/tasks`), 401);
    expectStatus(await server.request('POST', `/api/projects/${projectId}/tasks`, { body: { name: 'x' } }), 401);
  });

  it('a key restricted to another workspace sees the project as missing (404), reads and writes', async () => {
    const created = await server.cli('workspace', 'create', '--email', 'boss@example.com', '--name', 'Elsewhere', '--json');
    expect(created.code, created.stderr).toBe(0);
    const workspaceId = (created.json as { workspace: { id: string } }).workspace.id;
    const restricted = await server.cli('key', 'create', '--email', 'boss@example.com', '--scope', 'write', '--workspace', workspaceId, '--json');
    expect(restricted.code, restricted.stderr).toBe(0);
    const key = (restricted.json as { key: string }).key;
    const before = await unchanged();
    for (const path of reads()) expectStatus(await server.request('GET', path, { key }), 404);
    for (const [method, path, body] of writes()) {
      const response = await server.request(method, path, { key, body });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    expect(await unchanged()).toBe(before);
  });
});

