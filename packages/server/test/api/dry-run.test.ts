import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedEvents } from '../support/event-check.js';
import { fieldPaths, newTask, planningClient, uuid, type PlanningClient, type WriteResult } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

// docs/api.md › Dry runs (issue 15: the what-if of the MCP server, on REST).
describe('?dryRun=true on plan writes', () => {
  let server: TestServer;
  let client: PlanningClient;
  let reader: Awaited<ReturnType<typeof provisionUser>>;

  beforeAll(async () => {
    server = await startTestServer();
    const owner = await provisionUser(server, 'planner@example.com');
    reader = await provisionUser(server, 'reader@example.com', ['--scope', 'read']);
    client = planningClient(server, owner.key);
  });
  afterAll(() => server.close());

  async function plan() {
    const project = await client.createProject({ name: 'What if', key: `W${Math.random().toString(36).slice(2, 5).toUpperCase()}` });
    const a = await newTask(client, project.id, { name: 'A', durationMin: 960 });
    const b = await newTask(client, project.id, { name: 'B', durationMin: 480 });
    await client.link(project.id, { predecessorId: a.id, successorId: b.id });
    return { project, a, b };
  }
  /** What a reader of the project sees, and what was announced: a dry run changes neither. */
  const observed = async (projectId: string) => ({ plan: (await client.fullProject(projectId)).body, events: (await storedEvents(server, projectId)).length });

  it('answers what a change set would do, and saves and announces nothing', async () => {
    const { project, a, b } = await plan();
    const before = await observed(project.id);
    const id = uuid();
    const dry = await client.req<WriteResult>('POST', `/api/projects/${project.id}/tasks?dryRun=true`, {
      createTasks: [{ id, name: 'C', durationMin: 480 }],
      createDependencies: [{ predecessorId: b.id, successorId: id }],
      updateTasks: [{ id: a.id, durationMin: 1440 }],
    });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    const moved = new Map(dry.body.tasks.map((t) => [t.name, t]));
    expect(moved.get('A')!.finishAt).toBe('2026-03-04T17:00:00.000Z');
    expect(moved.get('B')!.startAt).toBe('2026-03-05T08:00:00.000Z');
    expect(moved.get('C')!.startAt).toBe('2026-03-06T08:00:00.000Z');
    expect(dry.body.projectFinishAt).toBe('2026-03-06T17:00:00.000Z');
    expect(await observed(project.id)).toEqual(before);

    // The same write for real answers the same.
    const real = await client.req<WriteResult>('POST', `/api/projects/${project.id}/tasks`, {
      createTasks: [{ id, name: 'C', durationMin: 480 }],
      createDependencies: [{ predecessorId: b.id, successorId: id }],
      updateTasks: [{ id: a.id, durationMin: 1440 }],
    });
    expect(real.body.tasks.map((t) => [t.name, t.startAt, t.finishAt])).toEqual(dry.body.tasks.map((t) => [t.name, t.startAt, t.finishAt]));
  });

  it('runs a task edit and links the same way, with the same refusals as the write', async () => {
    const { project, a, b } = await plan();
    const before = await observed(project.id);
    const patched = await client.req<WriteResult>('PATCH', `/api/projects/${project.id}/tasks/${a.id}?dryRun=true`, { durationMin: 2400 });
    expect(patched.status).toBe(200);
    expect(patched.body.tasks.find((t) => t.id === b.id)!.startAt).toBe('2026-03-09T08:00:00.000Z');
    const cycle = await client.req('POST', `/api/projects/${project.id}/dependencies?dryRun=true`, { predecessorId: b.id, successorId: a.id });
    expect(cycle.status).toBe(409);
    expect(cycle.body.error).toBe('dependency_cycle');
    const bad = await client.req('POST', `/api/projects/${project.id}/tasks?dryRun=maybe`, { createTasks: [{ name: '' }] });
    expect(bad.status).toBe(400);
    expect(fieldPaths(bad.body).sort()).toEqual(['createTasks[0].name', 'dryRun']);
    expect(await observed(project.id)).toEqual(before);
    // dryRun=false is an ordinary write.
    expect((await client.req('PATCH', `/api/projects/${project.id}/tasks/${a.id}?dryRun=false`, { name: 'A2' })).status).toBe(200);
    expect((await observed(project.id)).plan.tasks.map((t) => t.name)).toContain('A2');
  });

  it('needs what the write needs: a write credential and the editor role', async () => {
    const { project, a } = await plan();
    const refused = await server.request('PATCH', `/api/projects/${project.id}/tasks/${a.id}?dryRun=true`, { key: reader.key, body: { durationMin: 60 } });
    expect(refused.status).toBe(403);
  });
});
