import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, newTask, planningClient, scheduleDrift, uuid, type PlanningClient } from '../support/planning.js';
import { buildApp } from '../../src/http/app.js';
import { createLogger } from '../../src/logger.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

// server write-plan.ts: "In one transaction, with the project locked" — concurrent writes to
// one project must serialize: no lost update, numbers unique, stored schedule consistent.
describe('concurrent planning writes', () => {
  let server: TestServer;
  let client: PlanningClient;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    const owner = await provisionUser(server, 'parallel@example.com');
    client = planningClient(server, owner.key);
  });
  afterAll(() => server.close());

  it('50 parallel PATCHes on a chain: all 200, no lost update, schedule equals a full recomputation', async () => {
    const project = await client.createProject({ name: 'Chain', key: 'CHN' });
    const ids = Array.from({ length: 50 }, () => uuid());
    const set = await client.changeSet(project.id, {
      createTasks: ids.map((id, i) => ({ id, name: `step ${i + 1}`, durationMin: 60 })),
      createDependencies: ids.slice(1).map((id, i) => ({ predecessorId: ids[i], successorId: id })),
    });
    expectStatus(set, 200);
    const durations = ids.map((_, i) => 30 + ((i * 37) % 11) * 30);
    const responses = await Promise.all(ids.map((id, i) => client.patchTask(project.id, id, { durationMin: durations[i], notes: `note ${i}` })));
    for (const response of responses) expectStatus(response, 200);

    const full = await client.fullProject(project.id);
    const byId = new Map(full.body.tasks.map((t) => [t.id, t]));
    expect(ids.map((id) => byId.get(id)?.durationMin)).toEqual(durations);
    expect(ids.map((id) => byId.get(id)?.notes)).toEqual(ids.map((_, i) => `note ${i}`));
    expect(await scheduleDrift(server, project.id)).toEqual([]);
    // The chain is contiguous: each step starts when its predecessor finishes (same day) or the next morning.
    const last = byId.get(ids[49] as string);
    const totalMin = durations.reduce((a, b) => a + b, 0);
    const days = Math.ceil(totalMin / 480);
    expect(new Date(last?.finishAt as string).getTime()).toBeGreaterThan(new Date('2026-03-02T08:00:00Z').getTime() + (days - 1) * 86_400_000);
  });

  it('parallel creates get unique, gap-free numbers', async () => {
    const project = await client.createProject({ name: 'Numbers', key: 'NBR' });
    const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => client.createTask(project.id, { name: `t${i}` })));
    for (const response of responses) expectStatus(response, 201);
    const full = await client.fullProject(project.id);
    expect(full.body.tasks.map((t) => t.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(new Set(full.body.tasks.map((t) => t.key)).size).toBe(30);
  });

  it('two clients closing a cycle at the same time: exactly one link wins', async () => {
    const project = await client.createProject({ name: 'Race', key: 'RCE' });
    const a = await newTask(client, project.id, { name: 'A' });
    const b = await newTask(client, project.id, { name: 'B' });
    for (let round = 0; round < 5; round += 1) {
      const [ab, ba] = await Promise.all([client.link(project.id, { predecessorId: a.id, successorId: b.id }), client.link(project.id, { predecessorId: b.id, successorId: a.id })]);
      expect([ab.status, ba.status].sort()).toEqual([201, 409]);
      const links = (await client.listDependencies(project.id)).body.dependencies;
      expect(links).toHaveLength(1);
      expectStatus(await client.unlink(project.id, links[0]?.id as string), 200);
    }
    expect(await scheduleDrift(server, project.id)).toEqual([]);
  });

  it('mixed parallel writes (PATCH, links, assignees, change sets) keep the schedule consistent', async () => {
    const project = await client.createProject({ name: 'Mixed', key: 'MXD' });
    const ids = Array.from({ length: 12 }, () => uuid());
    expectStatus(await client.changeSet(project.id, { createTasks: ids.map((id, i) => ({ id, name: `m${i}`, durationMin: 120 })) }), 200);
    const work = [
      ...ids.slice(0, 6).map((id, i) => client.link(project.id, { predecessorId: id, successorId: ids[i + 6] as string, lagMin: 30 * i })),
      ...ids.map((id, i) => client.patchTask(project.id, id, { durationMin: 60 + 60 * i })),
      ...ids.slice(0, 4).map((id) => client.putAssignees(project.id, id, { userIds: [] })),
      client.changeSet(project.id, { createTasks: [{ name: 'late' }], updateTasks: [{ id: ids[0], notes: 'set' }] }),
    ];
    for (const response of await Promise.all(work)) expect(response.status).toBeLessThan(300);
    const full = await client.fullProject(project.id);
    expect(full.body.dependencies).toHaveLength(6);
    expect(ids.map((id) => full.body.tasks.find((t) => t.id === id)?.durationMin)).toEqual(ids.map((_, i) => 60 + 60 * i));
    expect(await scheduleDrift(server, project.id)).toEqual([]);
  });

  it('two app nodes over one store: writes through either keep the plan current (no stale cached plan)', async () => {
    const other = buildApp({ config: server.config, store: server.store, clock: server.clock, logger: createLogger('silent') });
    const otherUrl = await other.listen({ port: 0, host: '127.0.0.1' });
    try {
      const project = await client.createProject({ name: 'Nodes', key: 'NOD' });
      const a = await newTask(client, project.id, { name: 'A', durationMin: 480 });
      const b = await newTask(client, project.id, { name: 'B', durationMin: 480 });
      const viaOther = async (method: string, path: string, body: unknown) => {
        const response = await fetch(`${otherUrl}${path}`, { method, headers: { authorization: `Bearer ${client.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return { status: response.status, body: (await response.json()) as { tasks: { id: string; startAt: string; durationMin: number }[] } };
      };
      // Node 1 has the plan cached; node 2 links and edits; node 1 writes again.
      expect((await viaOther('POST', `/api/projects/${project.id}/dependencies`, { predecessorId: a.id, successorId: b.id })).status).toBe(201);
      expect((await viaOther('PATCH', `/api/projects/${project.id}/tasks/${a.id}`, { durationMin: 960, name: 'A long' })).status).toBe(200);
      const third = await client.createTask(project.id, { name: 'C' });
      expectStatus(third, 201);
      const patched = await client.patchTask(project.id, b.id, { notes: 'from node 1' });
      expectStatus(patched, 200);
      const full = await client.fullProject(project.id);
      expect(full.body.dependencies).toHaveLength(1);
      expect(full.body.tasks.find((t) => t.id === a.id)).toMatchObject({ name: 'A long', durationMin: 960 });
      expect(full.body.tasks.find((t) => t.id === b.id)).toMatchObject({ notes: 'from node 1', startAt: '2026-03-04T08:00:00.000Z' });
      expect(full.body.tasks.map((t) => t.number).sort()).toEqual([1, 2, 3]);
      expect(await scheduleDrift(server, project.id)).toEqual([]);
      // And back the other way.
      expect((await viaOther('PATCH', `/api/projects/${project.id}/tasks/${b.id}`, { durationMin: 240 })).status).toBe(200);
      expectStatus(await client.patchTask(project.id, a.id, { notes: 'again' }), 200);
      const after = await client.fullProject(project.id);
      expect(after.body.tasks.find((t) => t.id === b.id)?.durationMin).toBe(240);
      expect(await scheduleDrift(server, project.id)).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('a project edit that moves the start, then task writes: the stored schedule follows', async () => {
    const project = await client.createProject({ name: 'Shift', key: 'SHF' });
    const a = await newTask(client, project.id, { name: 'A', durationMin: 480 });
    const b = await newTask(client, project.id, { name: 'B', durationMin: 480 });
    expectStatus(await client.link(project.id, { predecessorId: a.id, successorId: b.id }), 201);
    const moved = await server.request<{ rescheduled: boolean }>('PATCH', `/api/projects/${project.id}`, { key: client.key, body: { startDate: '2026-03-09' } });
    expectStatus(moved, 200);
    expect(moved.body.rescheduled).toBe(true);
    expect((await client.getTask(project.id, a.id)).body.task.startAt).toBe('2026-03-09T08:00:00.000Z');
    expect(await scheduleDrift(server, project.id)).toEqual([]);
    const c = await client.createTask(project.id, { name: 'C' });
    expectStatus(c, 201);
    expect(c.body.tasks.find((t) => t.name === 'C')?.startAt).toBe('2026-03-09T08:00:00.000Z');
    expectStatus(await client.patchTask(project.id, a.id, { durationMin: 960 }), 200);
    expect((await client.getTask(project.id, b.id)).body.task.startAt).toBe('2026-03-11T08:00:00.000Z');
    expect(await scheduleDrift(server, project.id)).toEqual([]);
  });

  // The "hostile input" issue: a valid change set of 1,000 changes must not hold the event
  // loop for its whole write. It lets the loop turn between its steps and statements, while
  // its transaction is open; other requests are answered meanwhile, and their reads see the
  // plan before it or after it, never half of it.
  it('a request started while its transaction is open is answered before it commits; a read then sees none or all of it', async () => {
    // 600 chained tasks; then the change set under test: every one of them longer (all
    // move), and 400 new ones — over 1,000 rows saved and 1,600 events in one transaction.
    const project = await client.createProject({ name: 'Big', key: 'BIG' });
    const ids = Array.from({ length: 600 }, () => uuid());
    expectStatus(
      await client.changeSet(project.id, {
        createTasks: ids.map((id, i) => ({ id, name: `task ${i + 1}`, durationMin: 60 })),
        createDependencies: ids.slice(1, 401).map((id, i) => ({ predecessorId: ids[i], successorId: id })),
      }),
      200,
    );
    const body = {
      updateTasks: ids.map((id) => ({ id, durationMin: 120 })),
      createTasks: Array.from({ length: 400 }, (_, i) => ({ name: `new ${i + 1}`, durationMin: 60 })),
    };
    // Notes when a plan write's transaction is open: after its BEGIN, until its work is done (before COMMIT).
    const store = server.store;
    const transaction = store.transaction.bind(store);
    let open = false;
    store.transaction = (work) =>
      transaction(async (tx) => {
        open = true;
        try {
          return await work(tx);
        } finally {
          open = false;
        }
      });
    try {
      let written = false;
      const write = client.changeSet(project.id, body).finally(() => (written = true));
      // Waits, turn by turn of the event loop, for a turn taken while the transaction is open.
      const openTurn = await new Promise<boolean>((resolve) => {
        const poll = () => (open ? resolve(true) : written ? resolve(false) : setImmediate(poll));
        poll();
      });
      expect(openTurn, 'the event loop turned while the change set was being written').toBe(true);
      const other = server.request('GET', '/api/openapi.json').then((response) => ({ status: response.status, writeOpen: open, writeDone: written }));
      const read = client.fullProject(project.id);
      expect(await other).toEqual({ status: 200, writeOpen: true, writeDone: false });
      expectStatus(await write, 200);
      const seen = await read;
      expectStatus(seen, 200);
      // Before the change set or after it: never some tasks longer, or some of the new ones.
      const saved = new Set<string>(ids);
      const durations = new Set(seen.body.tasks.filter((t) => saved.has(t.id)).map((t) => t.durationMin));
      expect([[600, '60'], [1000, '120']]).toContainEqual([seen.body.tasks.length, [...durations].join()]);
    } finally {
      store.transaction = transaction;
    }
    const after = await client.fullProject(project.id);
    expect([after.body.tasks.length, after.body.dependencies.length]).toEqual([1000, 400]);
    expect(await scheduleDrift(server, project.id)).toEqual([]);
  });
});

