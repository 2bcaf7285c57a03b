import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventRow } from '../../src/store/store.js';
import { storedEvents } from '../support/event-check.js';
import { eventData, expectStatus, newTask, planningClient, uuid, type PlanningClient, type Task, type User } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

// docs/api.md › Events: the envelope and the events each write emits, appended to the
// outbox in the same transaction as the change.
describe('planning events', () => {
  let server: TestServer;
  let owner: User;
  let client: PlanningClient;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    owner = await provisionUser(server, 'events@example.com');
    client = planningClient(server, owner.key);
  });
  afterAll(() => server.close());

  /** Events appended since `seen` rows, in order. */
  async function newEvents(projectId: string, seen: number): Promise<EventRow[]> {
    return (await storedEvents(server, projectId)).slice(seen);
  }
  async function count(projectId: string): Promise<number> {
    return (await storedEvents(server, projectId)).length;
  }
  function expectEnvelope(row: EventRow, projectId: string, workspaceId: string): void {
    expect(row).toMatchObject({ project_id: projectId, workspace_id: workspaceId, actor_id: owner.userId });
    expect(row.actor_name).toEqual(expect.any(String));
    expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
  }

  it('task.created, then task.updated with only what changed', async () => {
    const project = await client.createProject({ name: 'Events', key: 'EVT' });
    let seen = await count(project.id);
    const task = await newTask(client, project.id, { name: 'Draft', durationMin: 480, notes: 'n1' });
    const created = await newEvents(project.id, seen);
    // The first task also locks the project key: a project field change.
    expect(created.map((e) => e.type)).toEqual(['task.created', 'project.updated']);
    expect(eventData(created[1] as EventRow).changes).toEqual({ keyLocked: { from: false, to: true } });
    expectEnvelope(created[0] as EventRow, project.id, project.workspaceId);
    const createdTask = eventData(created[0] as EventRow).task as Task;
    expect(createdTask).toMatchObject({ id: task.id, projectId: project.id, completed: false, assignees: [], key: 'EVT-1' });
    expect(createdTask).not.toHaveProperty('sortKey');

    seen = await count(project.id);
    expectStatus(await client.patchTask(project.id, task.id, { name: 'Final', notes: 'n1' }), 200);
    const updated = await newEvents(project.id, seen);
    expect(updated.map((e) => e.type)).toEqual(['task.updated']);
    expect(eventData(updated[0] as EventRow).changes).toEqual({ name: { from: 'Draft', to: 'Final' } });

    // A write that changes nothing emits nothing.
    seen = await count(project.id);
    expectStatus(await client.patchTask(project.id, task.id, { name: 'Final' }), 200);
    expect(await newEvents(project.id, seen)).toEqual([]);

    // A refused write emits nothing.
    expectStatus(await client.patchTask(project.id, task.id, { name: 'X', durationMin: -1 }), 400);
    expectStatus(await client.patchTask(project.id, task.id, { constraintKind: 'must_start_on' }), 400);
    expect(await newEvents(project.id, seen)).toEqual([]);
  });

  it('task.dates_changed: cause edit for the edited task, reschedule for the successors it moved', async () => {
    const project = await client.createProject({ name: 'Dates', key: 'DTS' });
    const a = await newTask(client, project.id, { name: 'A', durationMin: 480 });
    const b = await newTask(client, project.id, { name: 'B', durationMin: 480 });
    const c = await newTask(client, project.id, { name: 'C', durationMin: 480 });
    expectStatus(await client.link(project.id, { dependencies: [{ predecessorId: a.id, successorId: b.id }, { predecessorId: b.id, successorId: c.id }] }), 201);
    const seen = await count(project.id);
    expectStatus(await client.patchTask(project.id, a.id, { durationMin: 960 }), 200);
    const events = await newEvents(project.id, seen);
    const updated = events.filter((e) => e.type === 'task.updated');
    expect(updated).toHaveLength(1);
    const changes = eventData(updated[0] as EventRow).changes as Record<string, { from: unknown; to: unknown }>;
    expect(changes.durationMin).toEqual({ from: 480, to: 960 });
    for (const [field, change] of Object.entries(changes)) expect(change.from, field).not.toEqual(change.to);
    const moved = events.filter((e) => e.type === 'task.dates_changed').map((e) => eventData(e) as { task: Task; cause: string });
    expect(moved.map((m) => [m.task.id, m.cause]).sort()).toEqual(
      [
        [a.id, 'edit'],
        [b.id, 'reschedule'],
        [c.id, 'reschedule'],
      ].sort(),
    );
    expect(moved.find((m) => m.task.id === b.id)?.task.startAt).toBe('2026-03-04T08:00:00.000Z');
    for (const event of events) expectEnvelope(event, project.id, project.workspaceId);

    // A successor renamed in the same write was moved by the recalculation, not by its edit.
    const before = await count(project.id);
    expectStatus(await client.changeSet(project.id, { updateTasks: [{ id: b.id, name: 'B renamed' }, { id: a.id, durationMin: 480 }] }), 200);
    const renamed = (await newEvents(project.id, before)).filter((e) => e.type === 'task.dates_changed').map((e) => eventData(e) as { task: Task; cause: string });
    expect(renamed.map((m) => [m.task.id, m.cause]).sort()).toEqual(
      [
        [a.id, 'edit'],
        [b.id, 'reschedule'],
        [c.id, 'reschedule'],
      ].sort(),
    );

    // So was a summary renamed while its subtask grew: what it rolled up is not its edit.
    const [phase, step] = [uuid(), uuid()];
    expectStatus(await client.changeSet(project.id, { createTasks: [{ id: phase, name: 'Phase', type: 'summary' }, { id: step, name: 'Step', parentId: phase, durationMin: 480 }] }), 200);
    const beforeRollup = await count(project.id);
    expectStatus(await client.changeSet(project.id, { updateTasks: [{ id: phase, name: 'Phase renamed' }, { id: step, durationMin: 960 }] }), 200);
    const rolled = (await newEvents(project.id, beforeRollup)).filter((e) => e.type === 'task.dates_changed').map((e) => eventData(e) as { task: Task; cause: string });
    expect(rolled.map((m) => [m.task.id, m.cause]).sort()).toEqual(
      [
        [phase, 'reschedule'],
        [step, 'edit'],
      ].sort(),
    );
  });

  it('task.completed at progress 100, with the automatic baseline.saved at the first progress', async () => {
    const project = await client.createProject({ name: 'Progress', key: 'PRG' });
    const a = await newTask(client, project.id, { name: 'A', durationMin: 480 });
    const b = await newTask(client, project.id, { name: 'B', durationMin: 480 });
    let seen = await count(project.id);
    expectStatus(await client.patchTask(project.id, a.id, { progressPct: 50 }), 200);
    let events = await newEvents(project.id, seen);
    const auto = events.filter((e) => e.type === 'baseline.saved');
    expect(auto).toHaveLength(1);
    expect(eventData(auto[0] as EventRow)).toMatchObject({ automatic: true, baseline: { taskCount: 2 } });
    expect(events.some((e) => e.type === 'task.completed')).toBe(false);

    seen = await count(project.id);
    expectStatus(await client.patchTask(project.id, a.id, { progressPct: 100 }), 200);
    events = await newEvents(project.id, seen);
    const completed = events.filter((e) => e.type === 'task.completed');
    expect(completed).toHaveLength(1);
    expect((eventData(completed[0] as EventRow).task as Task)).toMatchObject({ id: a.id, completed: true, progressPct: 100, projectId: project.id });
    // The automatic baseline is taken once only.
    expect(events.some((e) => e.type === 'baseline.saved')).toBe(false);
    seen = await count(project.id);
    expectStatus(await client.patchTask(project.id, b.id, { progressPct: 10 }), 200);
    expect((await newEvents(project.id, seen)).some((e) => e.type === 'baseline.saved')).toBe(false);
  });

  it('dependency.created (also on a type/lag change), dependency.deleted, baseline.saved, comment.created', async () => {
    const project = await client.createProject({ name: 'Links', key: 'LNK' });
    const a = await newTask(client, project.id, { name: 'A' });
    const b = await newTask(client, project.id, { name: 'B' });
    let seen = await count(project.id);
    const link = await client.link(project.id, { predecessorId: a.id, successorId: b.id });
    const id = link.body.dependencies[0]?.id;
    let events = await newEvents(project.id, seen);
    expect(events.filter((e) => e.type === 'dependency.created').map((e) => (eventData(e).dependency as { id: string }).id)).toEqual([id]);

    seen = await count(project.id);
    expectStatus(await client.link(project.id, { predecessorId: a.id, successorId: b.id, lagMin: 60 }), 201);
    events = await newEvents(project.id, seen);
    expect(events.filter((e) => e.type === 'dependency.created').map((e) => eventData(e).dependency)).toEqual([
      { id, predecessorId: a.id, successorId: b.id, type: 'FS', lagMin: 60 },
    ]);
    // The same link again changes nothing and emits nothing.
    seen = await count(project.id);
    expectStatus(await client.link(project.id, { predecessorId: a.id, successorId: b.id, lagMin: 60 }), 201);
    expect(await newEvents(project.id, seen)).toEqual([]);

    expectStatus(await client.unlink(project.id, id as string), 200);
    events = await newEvents(project.id, seen);
    expect(events.filter((e) => e.type === 'dependency.deleted').map((e) => (eventData(e).dependency as { id: string }).id)).toEqual([id]);

    seen = await count(project.id);
    const baseline = await client.saveBaseline(project.id, { name: 'Approved' });
    expectStatus(baseline, 201);
    events = await newEvents(project.id, seen);
    expect(events.map((e) => e.type)).toEqual(['baseline.saved']);
    expect(eventData(events[0] as EventRow)).toMatchObject({ automatic: false, baseline: { id: baseline.body.baseline.id, name: 'Approved' } });
    expectEnvelope(events[0] as EventRow, project.id, project.workspaceId);

    seen = await count(project.id);
    const comment = await client.comment(project.id, a.id, { body: 'Looks good' });
    expectStatus(comment, 201);
    events = await newEvents(project.id, seen);
    expect(events.map((e) => e.type)).toEqual(['comment.created']);
    expect(eventData(events[0] as EventRow)).toMatchObject({ comment: { id: comment.body.comment.id, body: 'Looks good' } });
    expectEnvelope(events[0] as EventRow, project.id, project.workspaceId);
  });

  it("orders events by createdAt across writes: a large write's events all come before the next write's", async () => {
    const project = await client.createProject({ name: 'Order', key: 'ORD' });
    const ids = Array.from({ length: 200 }, () => crypto.randomUUID());
    expectStatus(await client.changeSet(project.id, { createTasks: ids.map((id, k) => ({ id, name: `T${k}` })) }), 200);
    expectStatus(await client.patchTask(project.id, ids[199] as string, { name: 'Renamed' }), 200);
    const events = await storedEvents(server, project.id);
    const created = events.find((e) => e.type === 'task.created' && eventData(e).task && (eventData(e).task as Task).id === ids[199]);
    const updated = events.find((e) => e.type === 'task.updated');
    expect(created && updated && created.created_at < updated.created_at).toBe(true);
    expect(new Set(events.map((e) => e.created_at)).size).toBe(events.length);
  });

  it('a change set emits one event per change', async () => {
    const project = await client.createProject({ name: 'Set', key: 'SET' });
    const seen = await count(project.id);
    const [x, y] = [crypto.randomUUID(), crypto.randomUUID()];
    expectStatus(
      await client.changeSet(project.id, { createTasks: [{ id: x, name: 'X' }, { id: y, name: 'Y' }], createDependencies: [{ predecessorId: x, successorId: y }] }),
      200,
    );
    const events = await newEvents(project.id, seen);
    expect(events.map((e) => e.type).sort()).toEqual(['dependency.created', 'project.updated', 'task.created', 'task.created']);
  });
});
