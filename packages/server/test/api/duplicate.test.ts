import { limits } from '@gantry/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventData, expectRefused, type Body, expectStatus, fieldPaths, planningClient, type PlanningClient, type PlanTask, type User } from '../support/planning.js';
import { storedEvents } from '../support/event-check.js';
import type { comparablePlan} from '../support/plan-copies.js';
import { expectSamePlan, richPlan } from '../support/plan-copies.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

interface Copied {
  project: { id: string; key: string; name: string; workspaceId: string; startDate: string; keyLocked: boolean };
  taskCount: number;
  conflicts: unknown[];
}

type Full = Parameters<typeof comparablePlan>[0] & {
  project: { id: string; name: string; startDate: string };
  resources: { id: string; userId: string | null; name: string }[];
  assignments: { taskId: string; resourceId: string; unitsPct: number }[];
  baselines: { name: string; index: number | null; taskCount: number; tasks: { taskId: string; startAt: string | null; finishAt: string | null; durationMin: number }[] }[];
};

// docs/api.md › Duplicate a project.
describe('duplicating a project', () => {
  let server: TestServer;
  let owner: User;
  let viewer: User;
  let client: PlanningClient;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    owner = await provisionUser(server, 'copier@example.com');
    viewer = await provisionUser(server, 'onlooker@example.com');
    client = planningClient(server, owner.key);
  });
  afterAll(() => server.close());

  const duplicate = (projectId: string, body: Record<string, unknown> = {}, key = owner.key) =>
    server.request<Body<Copied>>('POST', `/api/projects/${projectId}/duplicate`, { key, body });
  const full = async (projectId: string) => (await client.req<Full>('GET', `/api/projects/${projectId}`)).body;

  it('copies the whole plan with the same dates, keys numbered anew, assignments and baselines, announced as a duplicate', async () => {
    const { project } = await richPlan(client, { key: 'RCH', ownerId: owner.userId });
    const source = await full(project.id);

    const response = await duplicate(project.id);
    expectStatus(response, 201);
    const copy = response.body.project;
    expect(copy).toMatchObject({ name: 'Rich RCH (copy)', workspaceId: project.workspaceId, startDate: '2026-03-02', keyLocked: true });
    expect(copy.key).not.toBe('RCH');
    expect(response.body.taskCount).toBe(7);

    const copied = await full(copy.id);
    expectSamePlan(copied, source);
    expect(copied.tasks.map((task: PlanTask) => task.key)).toEqual(copied.tasks.map((_task, index) => `${copy.key}-${index + 1}`));
    expect(copied.tasks.find((task) => task.name === 'Design')).toMatchObject({ progressPct: 50, actualStartAt: '2026-03-02T08:00:00.000Z' });
    // The owner has access to the copy: the same person stays assigned, through the copy's own resource.
    expect(copied.resources).toEqual([{ id: expect.any(String), userId: owner.userId, name: 'copier', maxUnitsPct: 100 }]);
    expect(copied.resources[0]?.id).not.toBe(source.resources[0]?.id);
    // Baselines are copied, against the copy's tasks.
    const names = (plan: Full) => new Map(plan.tasks.map((task) => [task.id, task.name]));
    const baselineOf = (plan: Full) =>
      plan.baselines.map((b) => ({ ...b, tasks: b.tasks.map((t) => ({ ...t, taskId: names(plan).get(t.taskId) })).sort((x, y) => String(x.taskId).localeCompare(String(y.taskId))) }));
    expect(baselineOf(copied).map(({ name, index, taskCount, tasks }) => ({ name, index, taskCount, tasks }))).toEqual(
      baselineOf(source).map(({ name, index, taskCount, tasks }) => ({ name, index, taskCount, tasks })),
    );

    const events = await storedEvents(server, copy.id);
    expect(events[0]?.type).toBe('project.created');
    expect(eventData(events[0]!)).toMatchObject({ source: 'duplicate', project: { id: copy.id } });
    expect(events.filter((e) => e.type === 'task.created')).toHaveLength(7);
    expect(events.filter((e) => e.type === 'dependency.created')).toHaveLength(5);
    // Recorded progress is not progress starting now: no automatic baseline, and no second project event.
    expect(events.map((e) => e.type).filter((type) => !type.startsWith('task.') && !type.startsWith('dependency.'))).toEqual(['project.created']);
  });

  it('a later start date moves the whole plan; name, key and the default name within the length limit', async () => {
    const { project } = await richPlan(client, { key: 'MOV', ownerId: owner.userId });
    const source = await full(project.id);
    const moved = await duplicate(project.id, { name: 'Moved', key: 'mvd', startDate: '2026-03-09' });
    expectStatus(moved, 201);
    expect(moved.body.project).toMatchObject({ name: 'Moved', key: 'MVD', startDate: '2026-03-09' });
    const copied = await full(moved.body.project.id);
    const week = 7 * 86_400_000;
    const later = (at: string | null) => (at === null ? null : new Date(Date.parse(at) + week).toISOString());
    for (const [index, task] of copied.tasks.entries()) {
      const original = source.tasks[index]!;
      expect([task.name, task.startAt, task.finishAt, task.constraintDate, task.actualStartAt]).toEqual([original.name, later(original.startAt), later(original.finishAt), later(original.constraintDate), later(original.actualStartAt)]);
    }

    const long = 'L'.repeat(limits.nameMaxLength);
    const named = await client.createProject({ name: long, key: 'LNG' });
    const copy = await duplicate(named.id);
    expectStatus(copy, 201);
    expect(copy.body.project.name).toBe(`${'L'.repeat(limits.nameMaxLength - 7)} (copy)`);
    expect(copy.body.taskCount).toBe(0);
  });

  it('refuses bad input and callers without access, leaving nothing behind', async () => {
    const { project } = await richPlan(client, { key: 'REF', ownerId: owner.userId });
    const before = (await client.req<{ projects: unknown[] }>('GET', '/api/projects')).body.projects.length;
    expectRefused(await duplicate(project.id, { name: 'x'.repeat(limits.nameMaxLength + 1) }), 400, { error: 'invalid_request' });
    const taken = await duplicate(project.id, { key: 'REF' });
    expectRefused(taken, 409, { error: 'conflict' });
    expect(fieldPaths(taken.body)).toEqual(['key']);
    // A start so late the plan would leave the years the engine computes exactly: the whole copy is refused.
    expectRefused(await duplicate(project.id, { startDate: '2999-12-01' }), 400, { error: 'invalid_request' });
    expect((await client.req<{ projects: unknown[] }>('GET', '/api/projects')).body.projects).toHaveLength(before);

    // Without access to the source it does not exist; a viewer may copy only into a workspace of their own.
    expectRefused(await duplicate(project.id, {}, viewer.key), 404, { error: 'not_found' });
    const added = await server.cli('project', 'add-member', '--project', project.id, '--email', 'onlooker@example.com', '--role', 'viewer');
    expect(added.code, added.stderr).toBe(0);
    expectRefused(await duplicate(project.id, { workspaceId: project.workspaceId }, viewer.key), 404, { error: 'not_found' });
    const own = await duplicate(project.id, {}, viewer.key);
    expectStatus(own, 201);
    expect(own.body.project.workspaceId).toBe(viewer.personalWorkspaceId);
    // The owner has no access to the viewer's copy: the assignment stays, to a resource without an account.
    const copied = (await server.request<Full>('GET', `/api/projects/${own.body.project.id}`, { key: viewer.key })).body;
    expect(copied.resources).toEqual([{ id: expect.any(String), userId: null, name: 'copier', maxUnitsPct: 100 }]);
    expect(copied.assignments).toHaveLength(1);

    const readOnly = await server.cli('key', 'create', '--email', 'copier@example.com', '--scope', 'read', '--json');
    expectRefused(await duplicate(project.id, {}, (readOnly.json as { key: string }).key), 403, { error: 'forbidden', details: { reason: 'insufficient_scope' } });
  });
});
