import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedEvents } from '../support/event-check.js';
import {
  addProjectMember,
  eventData,
  expectRefused,
  expectStatus,
  fieldPaths,
  planningClient,
  readOnlyKey,
  scheduleDrift,
  uuid,
  type PlanningClient,
  type PlanTask,
  type User,
  type WriteResult,
} from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

interface LevelingResult extends WriteResult {
  leveling: {
    resourceIds: string[];
    tasks: {
      taskId: string;
      key: string;
      levelingDelayMin: { from: number; to: number };
      startAt: { from: string | null; to: string | null };
      finishAt: { from: string | null; to: string | null };
    }[];
    projectFinishAt: { from: string; to: string };
    overallocations: { resourceId: string; startAt: string; finishAt: string; peakUnitsPct: number; capacityPct: number; taskIds: string[]; reason: string }[];
  };
}

const monday = (hm: string, day = 2) => `2026-03-${String(day).padStart(2, '0')}T${hm}:00.000Z`;

// docs/api.md › Resource leveling (and docs/scheduling.md › Resource leveling).
describe('POST /api/projects/{id}/level', () => {
  let server: TestServer;
  let owner: User;
  let client: PlanningClient;
  let readKey: string;
  let viewer: User;
  let stranger: User;
  let editor: User;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    owner = await provisionUser(server, 'planner@example.com');
    client = planningClient(server, owner.key);
    readKey = await readOnlyKey(server, 'planner@example.com');
    viewer = await provisionUser(server, 'viewer@example.com');
    stranger = await provisionUser(server, 'stranger@example.com');
    editor = await provisionUser(server, 'editor@example.com');
  });
  afterAll(() => server.close());

  const level = (projectId: string, body?: unknown, query = '', headers?: Record<string, string>) =>
    client.req<LevelingResult>('POST', `/api/projects/${projectId}/level${query}`, body, headers);

  /**
   * Design (two days) and Copy (one day, then Review) both need the planner on Monday 2
   * March. Both are critical; Design has the lower number, so Copy waits two days and
   * Review follows it.
   */
  async function contendedPlan(key: string) {
    const project = await client.createProject({ name: `Leveling ${key}`, key });
    const [design, copy, review] = [uuid(), uuid(), uuid()];
    const created = await client.changeSet(project.id, {
      createTasks: [
        { id: design, name: 'Design', durationMin: 960 },
        { id: copy, name: 'Copy', durationMin: 480 },
        { id: review, name: 'Review', durationMin: 480 },
      ],
      createDependencies: [{ predecessorId: copy, successorId: review }],
    });
    expectStatus(created, 200);
    let resourceId = '';
    for (const taskId of [design, copy]) {
      const assigned = await client.putAssignees(project.id, taskId, { userIds: [owner.userId] });
      expectStatus(assigned, 200);
      resourceId = assigned.body.task.assignees[0]!.resourceId;
    }
    return { project, design, copy, review, resourceId };
  }

  /** What readers and webhooks see of a project: a preview changes neither. */
  const observed = async (projectId: string) => ({ plan: (await client.fullProject(projectId)).body, events: (await storedEvents(server, projectId)).length });

  it('previews the leveling without saving or announcing anything, then applies exactly that', async () => {
    const { project, design, copy, review, resourceId } = await contendedPlan('LEV');
    const before = await observed(project.id);

    const preview = await level(project.id, undefined, '?dryRun=true');
    expectStatus(preview, 200);
    expect(preview.body.leveling).toEqual({
      resourceIds: [resourceId],
      tasks: [
        {
          taskId: copy,
          key: 'LEV-2',
          levelingDelayMin: { from: 0, to: 960 },
          startAt: { from: monday('08:00'), to: monday('08:00', 4) },
          finishAt: { from: monday('17:00'), to: monday('17:00', 4) },
        },
      ],
      projectFinishAt: { from: monday('17:00', 3), to: monday('17:00', 5) },
      overallocations: [],
    });
    const moved = new Map(preview.body.tasks.map((task) => [task.id, task]));
    expect(moved.get(review)?.startAt).toBe(monday('08:00', 5));
    // Design keeps its dates (only its float grows with the later finish).
    expect(moved.get(design)).toMatchObject({ startAt: monday('08:00'), finishAt: monday('17:00', 3), totalFloatMin: 960 });
    expect(await observed(project.id)).toEqual(before);

    const applied = await level(project.id, {});
    expectStatus(applied, 200);
    expect(applied.body.leveling).toEqual(preview.body.leveling);
    expect(applied.body.tasks.map((task) => [task.id, task.startAt, task.finishAt])).toEqual(preview.body.tasks.map((task) => [task.id, task.startAt, task.finishAt]));
    expect(applied.body.stats.savedCount).toBe(preview.body.stats.savedCount);

    // Saved like any edit: the delay and the dates, consistent with a full recalculation.
    const stored = (await client.fullProject(project.id)).body.tasks as (PlanTask & { levelingDelayMin: number })[];
    expect(stored.find((task) => task.id === copy)).toMatchObject({ levelingDelayMin: 960, startAt: monday('08:00', 4) });
    expect(await scheduleDrift(server, project.id)).toEqual([]);
    const events = (await storedEvents(server, project.id)).slice(before.events);
    expect(events.map((event) => [event.type, (eventData(event).task as { name: string }).name])).toEqual([
      ['task.updated', 'Copy'],
      ['task.dates_changed', 'Copy'],
      ['task.dates_changed', 'Review'],
    ]);
    expect(eventData(events[0]!).changes).toEqual({ levelingDelayMin: { from: 0, to: 960 } });
    expect(events.slice(1).map((event) => eventData(event).cause)).toEqual(['edit', 'reschedule']);
  });

  it('changes nothing and announces nothing the second time, or on a plan with nothing to level; replays a retried request', async () => {
    const { project } = await contendedPlan('IDEM');
    const first = await level(project.id, {}, '', { 'idempotency-key': 'level-1' });
    expectStatus(first, 200);
    expect(first.body.leveling.tasks).toHaveLength(1);
    const retried = await level(project.id, {}, '', { 'idempotency-key': 'level-1' });
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body).toEqual(first.body);

    const events = (await storedEvents(server, project.id)).length;
    const again = await level(project.id);
    expectStatus(again, 200);
    expect(again.body.tasks).toEqual([]);
    expect(again.body.leveling.tasks).toEqual([]);
    expect(again.body.leveling.projectFinishAt.from).toBe(again.body.leveling.projectFinishAt.to);
    expect((await storedEvents(server, project.id)).length).toBe(events);

    const empty = await client.createProject({ name: 'Nobody assigned', key: 'NONE' });
    await client.changeSet(empty.id, { createTasks: [{ name: 'A' }, { name: 'B' }] });
    const eventsBefore = (await storedEvents(server, empty.id)).length;
    const nothing = await level(empty.id);
    expectStatus(nothing, 200);
    expect(nothing.body).toMatchObject({ tasks: [], leveling: { resourceIds: [], tasks: [], overallocations: [] } });
    expect((await storedEvents(server, empty.id)).length).toBe(eventsBefore);
  });

  it('levels only the resources named, and reports what it cannot resolve', async () => {
    const { project, copy, resourceId } = await contendedPlan('SOME');
    await addProjectMember(server, project.id, 'editor@example.com', 'editor');
    const [x, y, z] = [uuid(), uuid(), uuid()];
    expectStatus(
      await client.changeSet(project.id, {
        createTasks: [
          { id: x, name: 'X' },
          { id: y, name: 'Y', manuallyScheduled: true },
          { id: z, name: 'Z', manuallyScheduled: true },
        ],
      }),
      200,
    );
    // X, Y and Z need the editor on Monday; Y and Z are manually scheduled, so only X may move.
    let editorResource = '';
    for (const taskId of [x, y, z]) editorResource = (await client.putAssignees(project.id, taskId, { userIds: [editor.userId] })).body.task.assignees[0]!.resourceId;

    const planner = await level(project.id, { resourceIds: [resourceId.toUpperCase()] }, '?dryRun=true');
    expectStatus(planner, 200);
    expect(planner.body.leveling.resourceIds).toEqual([resourceId]);
    expect(planner.body.leveling.tasks.map((task) => task.taskId)).toEqual([copy]);
    expect(planner.body.leveling.overallocations).toEqual([]);

    const all = await level(project.id, { resourceIds: [resourceId, editorResource] }, '?dryRun=true');
    expect(all.body.leveling.tasks.map((task) => task.taskId)).toEqual([copy, x]);
    expect(all.body.leveling.tasks[1]?.startAt.to).toBe(monday('08:00', 3));
    expect(all.body.leveling.overallocations).toEqual([
      {
        resourceId: editorResource,
        startAt: monday('08:00'),
        finishAt: monday('17:00'),
        peakUnitsPct: 200,
        capacityPct: 100,
        taskIds: [y, z].sort(),
        reason: 'fixed_tasks',
      },
    ]);
  });

  it('refuses a read key, a viewer, a bad body, an unknown resource and an unknown project', async () => {
    const { project } = await contendedPlan('REF');
    await addProjectMember(server, project.id, 'viewer@example.com', 'viewer');
    const path = `/api/projects/${project.id}/level`;
    expectRefused(await server.request('POST', path, { key: readKey, body: {} }), 403, { error: 'forbidden', details: { reason: 'insufficient_scope' } });
    for (const query of ['', '?dryRun=true']) {
      expectRefused(await server.request('POST', `${path}${query}`, { key: viewer.key, body: {} }), 403, { error: 'forbidden', details: { reason: 'insufficient_role' } });
    }
    expectRefused(await server.request('POST', path, { key: stranger.key, body: {} }), 404, { error: 'not_found' });
    expectRefused(await level(uuid()), 404, { error: 'not_found' });

    for (const [body, paths] of [
      [[], ['body']],
      ['level', ['body']],
      [{ resourceIds: 'all' }, ['resourceIds']],
      [{ resourceIds: [] }, ['resourceIds']],
      [{ resourceIds: ['nope', uuid()] }, ['resourceIds[0]']],
      [{ resourceIds: [uuid(), uuid()] }, ['resourceIds[0]', 'resourceIds[1]']],
    ] as const) {
      const refused = await level(project.id, body);
      expectRefused(refused, 400, { error: 'invalid_request' });
      expect(fieldPaths(refused.body), JSON.stringify(body)).toEqual(paths);
    }
    const maybe = await level(project.id, {}, '?dryRun=maybe');
    expect(fieldPaths(maybe.body)).toEqual(['dryRun']);
    expect((await client.fullProject(project.id)).body.tasks.every((task) => (task as PlanTask & { levelingDelayMin: number }).levelingDelayMin === 0)).toBe(true);
  });
});
