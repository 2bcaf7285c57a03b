import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { createLogger } from '../../src/logger.js';
import { newTask, planningClient, type PlanningClient } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

// docs/adr/0004-caches.md › Read cache: the full read right after a write of this process
// presents what the write committed instead of reading it back; it must never differ
// from the store.
describe('GET /api/projects/{projectId} right after writes', () => {
  let server: TestServer;
  let client: PlanningClient;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer();
    key = (await provisionUser(server, 'reader@example.com')).key;
    client = planningClient(server, key);
  });
  afterAll(() => server.close());

  /** The full read, checked task by task against the task listing and link by link against the link listing (both read the store). */
  async function fullReadAsStored(projectId: string) {
    const full = await client.fullProject(projectId);
    const listed = await client.listTasks(projectId);
    const links = await client.listDependencies(projectId);
    expect(full.status).toBe(200);
    const stored = new Map(listed.body.tasks.map((task) => [task.id, task]));
    expect(full.body.tasks.map((task) => task.id).sort()).toEqual([...stored.keys()].sort());
    for (const { sortKey: _sortKey, ...task } of full.body.tasks) expect(stored.get(task.id)).toMatchObject(task);
    expect(full.body.dependencies).toEqual(links.body.dependencies);
    return full.body;
  }

  it('shows every task write, link write and rescheduling project edit at once', async () => {
    const project = await client.createProject({ name: 'Fresh reads' });
    const a = await newTask(client, project.id, { name: 'A', durationMin: 480 });
    // The first task locked the key: a change of the project row the write's plan does not carry.
    expect((await fullReadAsStored(project.id)).project.keyLocked).toBe(true);

    const b = await newTask(client, project.id, { name: 'B', durationMin: 480 });
    const linked = await client.link(project.id, { predecessorId: a.id, successorId: b.id });
    expect(linked.status).toBe(201);
    const before = await fullReadAsStored(project.id);
    expect(before.dependencies).toHaveLength(1);

    expect((await client.patchTask(project.id, a.id, { durationMin: 960 })).status).toBe(200);
    const lengthened = await fullReadAsStored(project.id);
    const startOfB = (plan: typeof before) => plan.tasks.find((task) => task.id === b.id)?.startAt;
    expect(startOfB(lengthened)).not.toBe(startOfB(before));

    const moved = await client.req<{ rescheduled: boolean }>('PATCH', `/api/projects/${project.id}`, { startDate: '2026-04-06' });
    expect(moved.body.rescheduled).toBe(true);
    const rescheduled = await fullReadAsStored(project.id);
    expect(startOfB(rescheduled)).not.toBe(startOfB(lengthened));

    expect((await client.unlink(project.id, before.dependencies[0]?.id ?? '')).status).toBe(200);
    expect((await fullReadAsStored(project.id)).dependencies).toEqual([]);
  });

  // The read after a write reuses the JSON of every row the write did not replace: its bytes
  // must be those of a read that takes every row from the store (another process's).
  it('serves after each write the same bytes as a process with no cache', async () => {
    const coldRead = async (projectId: string) => {
      const cold = buildApp({ config: server.config, store: server.store, clock: server.clock, logger: createLogger('silent') });
      try {
        return (await cold.inject({ method: 'GET', url: `/api/projects/${projectId}`, headers: { authorization: `Bearer ${key}` } })).body;
      } finally {
        await cold.close();
      }
    };
    const warmRead = async (projectId: string) => {
      const response = await fetch(`${server.url}/api/projects/${projectId}`, { headers: { authorization: `Bearer ${key}` } });
      return response.text();
    };
    const project = await client.createProject({ name: 'Same bytes' });
    const phase = await newTask(client, project.id, { name: 'Phase "one" ✓', type: 'summary' });
    const a = await newTask(client, project.id, { name: 'A', durationMin: 480, parentId: phase.id });
    const b = await newTask(client, project.id, { name: 'B', durationMin: 240, parentId: phase.id, notes: 'line\nbreak' });
    expect((await client.link(project.id, { predecessorId: a.id, successorId: b.id, lagMin: 60 })).status).toBe(201);
    expect(await warmRead(project.id)).toBe(await coldRead(project.id));
    for (const durationMin of [960, 120, 120]) {
      expect((await client.patchTask(project.id, a.id, { durationMin })).status).toBe(200);
      const warm = await warmRead(project.id);
      expect(warm).toBe(await coldRead(project.id));
      expect(JSON.parse(warm).tasks.find((task: { id: string }) => task.id === a.id).durationMin).toBe(durationMin);
    }
  });
});
