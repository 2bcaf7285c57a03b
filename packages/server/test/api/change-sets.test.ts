import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedEvents } from '../support/event-check.js';
import { expectStatus, fieldPaths, newTask, planningClient, scheduleDrift, uuid, type PlanningClient } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

// docs/api.md › Change sets, › Limits (changes per change set), › Error codes (409 dependency_cycle);
// contract routes.createTasks: client-chosen ids, one transaction, nothing saved on a problem.
describe('change sets', () => {
  let server: TestServer;
  let client: PlanningClient;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    const owner = await provisionUser(server, 'sets@example.com');
    client = planningClient(server, owner.key);
  });
  afterAll(() => server.close());

  async function snapshot(projectId: string) {
    const full = await client.fullProject(projectId);
    const events = await storedEvents(server, projectId);
    return { tasks: full.body.tasks, dependencies: full.body.dependencies, events: events.length };
  }

  it('applies creates, updates, new links and link deletions with cross references in one call (200)', async () => {
    const project = await client.createProject({ name: 'Mixed', key: 'MIX' });
    const existing = await newTask(client, project.id, { name: 'Existing', durationMin: 480 });
    const other = await newTask(client, project.id, { name: 'Other', durationMin: 480 });
    const oldLink = await client.link(project.id, { predecessorId: existing.id, successorId: other.id });
    const oldLinkId = oldLink.body.dependencies[0]?.id as string;

    const phase = uuid();
    const design = uuid();
    const build = uuid();
    const response = await client.changeSet(project.id, {
      createTasks: [
        { id: phase, name: 'Phase' },
        { id: design, name: 'Design', parentId: phase, durationMin: 960 },
        { id: build, name: 'Build', parentId: phase, afterTaskId: design, durationMin: 480 },
        { name: 'First of phase', parentId: phase, beforeTaskId: design, durationMin: 0 },
      ],
      updateTasks: [
        { id: existing.id, name: 'Existing renamed', durationMin: 240 },
        { id: build, notes: 'updated in the same set' },
      ],
      createDependencies: [
        { predecessorId: design, successorId: build },
        { predecessorId: existing.id, successorId: design, type: 'SS', lagMin: 60 },
      ],
      deleteDependencyIds: [oldLinkId],
    });
    expectStatus(response, 200);
    const byName = new Map(response.body.tasks.map((t) => [t.name, t]));
    expect(byName.get('Phase')).toMatchObject({ id: phase, type: 'summary', parentId: null });
    expect(byName.get('Design')).toMatchObject({ id: design, parentId: phase, startAt: '2026-03-02T09:00:00.000Z' });
    expect(byName.get('Build')).toMatchObject({ id: build, parentId: phase, notes: 'updated in the same set' });
    // Design: SS+60 after Existing (Mon 08:00) → Mon 09:00, 960 min → Wed 09:00; Build FS → Wed 09:00.
    expect(byName.get('Design')?.finishAt).toBe('2026-03-04T09:00:00.000Z');
    expect(byName.get('Build')?.startAt).toBe('2026-03-04T09:00:00.000Z');
    expect(byName.get('Existing renamed')?.durationMin).toBe(240);
    expect(byName.get('First of phase')?.type).toBe('milestone');
    expect(response.body.deletedDependencyIds).toEqual([oldLinkId]);
    expect(response.body.dependencies).toHaveLength(2);
    expect(response.body.stats.taskCount).toBe(6);

    const full = await client.fullProject(project.id);
    expect(full.body.tasks.filter((t) => t.parentId === phase).map((t) => t.name)).toEqual(['First of phase', 'Design', 'Build']);
    expect(full.body.dependencies.map((d) => d.id)).not.toContain(oldLinkId);
    expect(full.body.dependencies).toHaveLength(2);
    expect(await scheduleDrift(server, project.id)).toEqual([]);
  });

  it('is atomic: one invalid item is a 400 with its exact path and nothing is saved', async () => {
    const project = await client.createProject({ name: 'Atomic', key: 'ATO' });
    const a = await newTask(client, project.id, { name: 'A' });
    const b = await newTask(client, project.id, { name: 'B' });
    const before = await snapshot(project.id);

    const response = await client.changeSet(project.id, {
      createTasks: [{ name: 'c0' }, { name: 'c1' }, { name: 'c2' }, { name: 'c3', durationMin: -5 }, { name: 'c4' }],
      updateTasks: [{ id: a.id, name: 'A renamed' }],
      createDependencies: [{ predecessorId: a.id, successorId: b.id }],
    });
    expectStatus(response, 400);
    expect(response.body.error).toBe('invalid_request');
    expect(fieldPaths(response.body)).toContain('createTasks[3].durationMin');
    expect(await snapshot(project.id)).toEqual(before);

    // Problems found while applying (not by the schema) too: every one listed, nothing saved.
    const applied = await client.changeSet(project.id, {
      createTasks: [{ name: 'ok' }, { name: 'bad', constraintKind: 'must_finish_on' }],
      updateTasks: [{ id: uuid(), name: 'ghost' }, { id: a.id, name: 'A renamed' }],
      createDependencies: [{ predecessorId: a.id, successorId: uuid() }],
      deleteDependencyIds: [uuid()],
    });
    expectStatus(applied, 400);
    expect(fieldPaths(applied.body)).toEqual(
      expect.arrayContaining(['createTasks[1].constraintDate', 'updateTasks[0].id', 'createDependencies[0].successorId', 'deleteDependencyIds[0]']),
    );
    expect(await snapshot(project.id)).toEqual(before);
    // The refused sets did not consume task numbers.
    expect((await newTask(client, project.id, { name: 'C' })).number).toBe(3);
  });

  it('refers to later-created tasks only after they are created; an id taken by another task is 400', async () => {
    const project = await client.createProject({ name: 'Refs', key: 'REF' });
    const later = uuid();
    const forward = await client.changeSet(project.id, { createTasks: [{ name: 'child', parentId: later }, { id: later, name: 'parent' }] });
    expectStatus(forward, 400);
    expect(fieldPaths(forward.body)).toContain('createTasks[0].parentId');
    const taken = await newTask(client, project.id, { name: 'taken' });
    const reuse = await client.changeSet(project.id, { createTasks: [{ id: taken.id, name: 'dup' }] });
    expectStatus(reuse, 400);
    expect(fieldPaths(reuse.body)).toContain('createTasks[0].id');
    const dupInSet = uuid();
    const twice = await client.changeSet(project.id, { createTasks: [{ id: dupInSet, name: 'one' }, { id: dupInSet, name: 'two' }] });
    expectStatus(twice, 400);
    expect(fieldPaths(twice.body)).toContain('createTasks[1].id');
    // An id used by a task of another project cannot be taken either.
    const elsewhere = await client.createProject({ name: 'Elsewhere', key: 'ELW' });
    const cross = await client.changeSet(elsewhere.id, { createTasks: [{ id: taken.id, name: 'steal' }] });
    expectStatus(cross, 400);
    expect(fieldPaths(cross.body)).toContain('createTasks[0].id');
    // A task of another project cannot be linked or updated.
    const foreign = await client.changeSet(elsewhere.id, { updateTasks: [{ id: taken.id, name: 'x' }] });
    expectStatus(foreign, 400);
  });

  it('more than 1,000 changes is 400; exactly 1,000 is accepted', async () => {
    const project = await client.createProject({ name: 'Limits', key: 'LIM' });
    const tooMany = await client.changeSet(project.id, {
      createTasks: Array.from({ length: 600 }, (_, i) => ({ name: `t${i}` })),
      deleteDependencyIds: Array.from({ length: 401 }, () => uuid()),
    });
    expectStatus(tooMany, 400);
    expect(tooMany.body.message ?? JSON.stringify(tooMany.body.details)).toMatch(/1,?000|1000/);
    expect((await client.fullProject(project.id)).body.tasks).toHaveLength(0);

    const ok = await client.changeSet(project.id, { createTasks: Array.from({ length: 1000 }, (_, i) => ({ name: `t${i}` })) });
    expectStatus(ok, 200);
    expect(ok.body.stats.taskCount).toBe(1000);
  });

  it('a cycle inside a change set is 409 dependency_cycle with every cycle and nothing saved', async () => {
    const project = await client.createProject({ name: 'Cycles', key: 'CYC' });
    const existing = await newTask(client, project.id, { name: 'Existing' });
    const before = await snapshot(project.id);
    const [a, b, c, d] = [uuid(), uuid(), uuid(), uuid()];
    const response = await client.changeSet(project.id, {
      createTasks: [
        { id: a, name: 'Alpha' },
        { id: b, name: 'Beta' },
        { id: c, name: 'Gamma' },
        { id: d, name: 'Delta' },
      ],
      createDependencies: [
        { predecessorId: a, successorId: b },
        { predecessorId: b, successorId: a },
        { predecessorId: c, successorId: d },
        { predecessorId: d, successorId: existing.id },
        { predecessorId: existing.id, successorId: c },
      ],
    });
    expectStatus(response, 409);
    expect(response.body.error).toBe('dependency_cycle');
    const cycles = response.body.details?.cycles ?? [];
    expect(cycles).toHaveLength(2);
    for (const cycle of cycles) {
      expect(cycle.path).toEqual(expect.any(String));
      expect(cycle.taskIds.length).toBe(cycle.taskNames.length);
    }
    const ab = cycles.find((cycle) => cycle.taskIds.includes(a));
    expect(new Set(ab?.taskIds)).toEqual(new Set([a, b]));
    expect(new Set(ab?.taskNames)).toEqual(new Set(['Alpha', 'Beta']));
    const cd = cycles.find((cycle) => cycle.taskIds.includes(c));
    expect(new Set(cd?.taskIds)).toEqual(new Set([c, d, existing.id]));
    expect(cd?.path).toContain('CYC-1');
    expect(await snapshot(project.id)).toEqual(before);
  });

  it('progress for a task created in the same set applies once it is scheduled, in request order; problems come all at once', async () => {
    const project = await client.createProject({ name: 'Progress in sets', key: 'PIS' });
    const [a, b] = [uuid(), uuid()];
    const both = await client.changeSet(project.id, {
      createTasks: [{ id: a, name: 'A', progressPct: 80 }, { id: b, name: 'B' }],
      updateTasks: [{ id: a, progressPct: 20 }, { id: b, progressPct: 50 }],
    });
    expectStatus(both, 200);
    const byId = (id: string) => both.body.tasks.find((t) => t.id === id) as unknown as Record<string, unknown>;
    expect(byId(a)).toMatchObject({ progressPct: 20, actualStartAt: '2026-03-02T08:00:00.000Z' });
    expect(byId(b)).toMatchObject({ progressPct: 50, actualStartAt: '2026-03-02T08:00:00.000Z' });

    const bad = await client.changeSet(project.id, {
      createTasks: [
        { id: uuid(), name: 'Backwards', actualStartAt: '2026-03-04T08:00:00Z', actualFinishAt: '2026-03-03T17:00:00Z' },
        { id: uuid(), name: 'Orphan', parentId: uuid() },
      ],
    });
    expectStatus(bad, 400);
    expect(fieldPaths(bad.body).sort()).toEqual(['createTasks[0].actualFinishAt', 'createTasks[1].parentId']);
  });

  it('progress for a task that becomes a summary in the same set is 400, like its other rolled-up fields', async () => {
    const project = await client.createProject({ name: 'Becomes summary', key: 'BSU' });
    const parent = await newTask(client, project.id, { name: 'Parent' });
    const before = await snapshot(project.id);
    const response = await client.changeSet(project.id, { createTasks: [{ id: uuid(), name: 'Child', parentId: parent.id }], updateTasks: [{ id: parent.id, progressPct: 50 }] });
    expectStatus(response, 400);
    expect(fieldPaths(response.body)).toEqual(['updateTasks[0].progressPct']);
    expect(await snapshot(project.id)).toEqual(before);
  });

  it('naming tasks in deleteTaskIds is 403 destructive, alone or with other changes, and nothing is saved', async () => {
    const project = await client.createProject({ name: 'Keep', key: 'KEP' });
    const task = await newTask(client, project.id, { name: 'Kept' });
    const before = await snapshot(project.id);
    for (const body of [{ deleteTaskIds: [task.id] }, { deleteTaskIds: [task.id], updateTasks: [{ id: task.id, name: 'Renamed' }] }]) {
      const response = await client.changeSet(project.id, body);
      expectStatus(response, 403);
      expect(response.body).toMatchObject({ error: 'forbidden', details: { reason: 'destructive' } });
    }
    expect(await snapshot(project.id)).toEqual(before);
    expectStatus(await client.changeSet(project.id, { deleteTaskIds: [], updateTasks: [{ id: task.id, name: 'Renamed' }] }), 200);
  });

  it('fullReschedule alone is a change set (200) and changes nothing', async () => {
    const project = await client.createProject({ name: 'Full', key: 'FUL' });
    await newTask(client, project.id, { name: 'A' });
    const response = await client.changeSet(project.id, { fullReschedule: true });
    expectStatus(response, 200);
    expect(response.body.stats.savedCount).toBe(0);
    expect(response.body.stats.taskCount).toBe(1);
  });
});
