import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, fieldPaths, newTask, planningClient, scheduleDrift, uuid, type PlanningClient, type PlanTask } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

const planOnly = ['sortKey'];
const readOnly = ['projectId', 'completed', 'assignees', 'url'];

// docs/api.md › Tasks and › WriteResult and conflicts; contract Task and WriteResult.
describe('tasks', () => {
  let server: TestServer;
  let client: PlanningClient;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    const owner = await provisionUser(server, 'tasks@example.com');
    client = planningClient(server, owner.key);
  });
  afterAll(() => server.close());

  describe('POST …/tasks (one TaskCreate)', () => {
    it('answers 201 with a WriteResult; numbers are sequential, keys are <projectKey>-<number>, keyLocked turns true', async () => {
      const project = await client.createProject({ name: 'Website', key: 'WEB' });
      expect(project.keyLocked).toBe(false);
      const first = await client.createTask(project.id, { name: 'Design' });
      expectStatus(first, 201);
      expect(first.body.stats.taskCount).toBe(1);
      expect(first.body.tasks).toHaveLength(1);
      const task = first.body.tasks[0];
      expect(task).toMatchObject({ number: 1, key: 'WEB-1', parentId: null, name: 'Design', type: 'task', durationMin: 480, progressPct: 0, constraintKind: 'asap' });
      for (const field of planOnly) expect(task).toHaveProperty(field);
      for (const field of readOnly) expect(task).not.toHaveProperty(field);
      expect(first.body.deletedTaskIds).toEqual([]);
      expect(first.body.dependencies).toEqual([]);
      expect(first.body.projectStartAt).toBe('2026-03-02T08:00:00.000Z');
      expect(first.body.stats.savedCount).toBeGreaterThanOrEqual(1);
      expect(first.body.stats.recomputedCount).toBeGreaterThanOrEqual(1);
      expect(Number.isInteger(first.body.stats.durationMs)).toBe(true);

      const second = await newTask(client, project.id, { name: 'Build' });
      const third = await newTask(client, project.id, { name: 'Ship' });
      expect([second.number, third.number]).toEqual([2, 3]);
      expect(third.key).toBe('WEB-3');

      const full = await client.fullProject(project.id);
      expect(full.body.project.keyLocked).toBe(true);
      // The project listing counts the tasks and ends at the latest finish (docs/api.md › Projects).
      const listing = await server.request<{ projects: { id: string; taskCount: number; finishAt: string }[] }>('GET', '/api/projects', { key: client.key });
      const listed = listing.body.projects.find((p) => p.id === project.id);
      expect(listed?.taskCount).toBe(3);
      expect(listed?.finishAt).toBe(full.body.tasks.map((t) => t.finishAt as string).sort().at(-1));
      // A locked key cannot change any more (docs/api.md › Projects).
      const rekey = await server.request('PATCH', `/api/projects/${project.id}`, { key: client.key, body: { key: 'NEW' } });
      expect(rekey.status).toBe(409);
    });

    it('never reuses a number: a refused create does not consume one', async () => {
      const project = await client.createProject({ name: 'Numbers', key: 'NUM' });
      await newTask(client, project.id, { name: 'One' });
      expectStatus(await client.createTask(project.id, { name: 'Bad', durationMin: -1 }), 400);
      expectStatus(await client.createTask(project.id, { name: 'Bad', constraintKind: 'must_start_on' }), 400);
      const two = await newTask(client, project.id, { name: 'Two' });
      expect(two.number).toBe(2);
      const set = await client.changeSet(project.id, { createTasks: [{ name: 'Three' }, { name: 'Four' }] });
      expectStatus(set, 200);
      expect(set.body.tasks.map((t) => t.number).sort()).toEqual([3, 4]);
    });

    it('computes dates: 960 min from Mon 08:00 ends Tue 17:00, an FS successor starts Wed 08:00', async () => {
      const project = await client.createProject({ name: 'Dates', key: 'DAT' });
      const a = await newTask(client, project.id, { name: 'A', durationMin: 960 });
      expect(a.startAt).toBe('2026-03-02T08:00:00.000Z');
      expect(a.finishAt).toBe('2026-03-03T17:00:00.000Z');
      const b = await newTask(client, project.id, { name: 'B', durationMin: 480 });
      const linked = await client.link(project.id, { predecessorId: a.id, successorId: b.id });
      expectStatus(linked, 201);
      const movedB = linked.body.tasks.find((t) => t.id === b.id);
      expect(movedB?.startAt).toBe('2026-03-04T08:00:00.000Z');
      expect(movedB?.finishAt).toBe('2026-03-04T17:00:00.000Z');
      expect(linked.body.projectFinishAt).toBe('2026-03-04T17:00:00.000Z');

      // The write result includes tasks moved by the recalculation, not only the edited one.
      const longer = await client.patchTask(project.id, a.id, { durationMin: 1440 });
      expectStatus(longer, 200);
      const ids = longer.body.tasks.map((t) => t.id);
      expect(ids).toContain(a.id);
      expect(ids).toContain(b.id);
      expect(longer.body.tasks.find((t) => t.id === b.id)?.startAt).toBe('2026-03-05T08:00:00.000Z');
      expect(longer.body.stats.savedCount).toBe(2);
      expect(longer.body.stats.taskCount).toBe(2);
      expect(longer.body.projectFinishAt).toBe('2026-03-05T17:00:00.000Z');
    });

    it('types: durationMin 0 makes a milestone; a milestone with a duration is 400; a task with children is a summary', async () => {
      const project = await client.createProject({ name: 'Types', key: 'TYP' });
      const milestone = await newTask(client, project.id, { name: 'Go-live', durationMin: 0 });
      expect(milestone.type).toBe('milestone');
      expect(milestone.startAt).toBe(milestone.finishAt);
      const explicit = await newTask(client, project.id, { name: 'Gate', type: 'milestone' });
      expect(explicit).toMatchObject({ type: 'milestone', durationMin: 0 });
      const bad = await client.createTask(project.id, { name: 'Bad', type: 'milestone', durationMin: 60 });
      expectStatus(bad, 400);
      expect(fieldPaths(bad.body)).toContain('durationMin');
      const phase = await newTask(client, project.id, { name: 'Phase 1' });
      const child = await client.createTask(project.id, { name: 'Step', parentId: phase.id, durationMin: 960 });
      expectStatus(child, 201);
      const parent = child.body.tasks.find((t) => t.id === phase.id);
      expect(parent?.type).toBe('summary');
      expect(parent?.durationMin).toBe(960);
      expect(child.body.tasks.find((t) => t.name === 'Step')?.parentId).toBe(phase.id);
    });

    it('constraint kinds other than asap/alap need constraintDate (400 naming it)', async () => {
      const project = await client.createProject({ name: 'Constraints', key: 'CON' });
      for (const kind of ['start_no_earlier_than', 'start_no_later_than', 'finish_no_earlier_than', 'finish_no_later_than', 'must_start_on', 'must_finish_on']) {
        const response = await client.createTask(project.id, { name: kind, constraintKind: kind });
        expectStatus(response, 400);
        expect(fieldPaths(response.body)).toContain('constraintDate');
      }
      const pinned = await newTask(client, project.id, { name: 'Pinned', constraintKind: 'must_start_on', constraintDate: '2026-03-04T08:00:00Z' });
      expect(pinned.startAt).toBe('2026-03-04T08:00:00.000Z');
      expect(pinned.constraintDate).toBe('2026-03-04T08:00:00.000Z');
    });

    it('computed fields in a body are 400 and the message points to constraints', async () => {
      const project = await client.createProject({ name: 'Computed', key: 'CMP' });
      const task = await newTask(client, project.id, { name: 'T' });
      for (const field of ['startAt', 'finishAt', 'earlyStartAt', 'lateFinishAt', 'totalFloatMin', 'isCritical']) {
        const value = field === 'isCritical' ? true : field === 'totalFloatMin' ? 0 : '2026-03-05T08:00:00Z';
        const create = await client.createTask(project.id, { name: 'X', [field]: value });
        expectStatus(create, 400);
        const problem = create.body.details?.fields?.find((f) => f.path === field);
        expect(problem?.message).toMatch(/constraint/);
        const patch = await client.patchTask(project.id, task.id, { [field]: value });
        expectStatus(patch, 400);
        expect(patch.body.details?.fields?.find((f) => f.path === field)?.message).toMatch(/constraint/);
      }
      const inSet = await client.changeSet(project.id, { createTasks: [{ name: 'Y', startAt: '2026-03-05T08:00:00Z' }] });
      expectStatus(inSet, 400);
      expect(fieldPaths(inSet.body)).toContain('createTasks[0].startAt');
    });

    it('a client id is only for change sets; unknown project → 404; non-UUID project → 404', async () => {
      const project = await client.createProject({ name: 'Ids', key: 'IDS' });
      const withId = await client.createTask(project.id, { id: uuid(), name: 'X' });
      expectStatus(withId, 400);
      expect(fieldPaths(withId.body)).toContain('id');
      expectStatus(await client.createTask(uuid(), { name: 'X' }), 404);
      expectStatus(await client.createTask('nope', { name: 'X' }), 404);
      expectStatus(await client.createTask(project.id, {}), 400);
    });
  });

  describe('placement', () => {
    it('parentId/afterTaskId/beforeTaskId on create order siblings by sortKey in the full project', async () => {
      const project = await client.createProject({ name: 'Order', key: 'ORD' });
      const a = await newTask(client, project.id, { name: 'A' });
      const c = await newTask(client, project.id, { name: 'C' });
      const b = await newTask(client, project.id, { name: 'B', afterTaskId: a.id });
      const first = await newTask(client, project.id, { name: 'First', beforeTaskId: a.id });
      const full = await client.fullProject(project.id);
      expectStatus(full, 200);
      const top = full.body.tasks.filter((t) => t.parentId === null);
      expect(top.map((t) => t.name)).toEqual(['First', 'A', 'B', 'C']);
      const sorted = [...top].sort((x, y) => (x.sortKey < y.sortKey ? -1 : 1));
      expect(sorted.map((t) => t.id)).toEqual([first.id, a.id, b.id, c.id]);
      for (const task of full.body.tasks) {
        expect(task).toHaveProperty('sortKey');
        for (const field of readOnly) expect(task).not.toHaveProperty(field);
      }

      // Under a parent, anchored on a sibling under that parent.
      const x = await newTask(client, project.id, { name: 'X', parentId: c.id });
      const w = await newTask(client, project.id, { name: 'W', parentId: c.id, beforeTaskId: x.id });
      const after = await client.fullProject(project.id);
      const children = after.body.tasks.filter((t) => t.parentId === c.id);
      expect(children.map((t) => t.id)).toEqual([w.id, x.id]);
      // An anchor that is not a sibling under the given parent is refused.
      const wrong = await client.createTask(project.id, { name: 'Bad', parentId: c.id, afterTaskId: a.id });
      expectStatus(wrong, 400);
      expect(fieldPaths(wrong.body)).toContain('afterTaskId');
      const missing = await client.createTask(project.id, { name: 'Bad', parentId: uuid() });
      expectStatus(missing, 400);
      expect(fieldPaths(missing.body)).toContain('parentId');
    });

    it('PATCH placement moves a task; moving it under its own descendant is 400', async () => {
      const project = await client.createProject({ name: 'Moves', key: 'MOV' });
      const root = await newTask(client, project.id, { name: 'Root' });
      const mid = await newTask(client, project.id, { name: 'Mid', parentId: root.id });
      const leaf = await newTask(client, project.id, { name: 'Leaf', parentId: mid.id });
      const other = await newTask(client, project.id, { name: 'Other' });

      const intoSelf = await client.patchTask(project.id, root.id, { placement: { parentId: leaf.id } });
      expectStatus(intoSelf, 400);
      expect(fieldPaths(intoSelf.body)).toContain('placement.parentId');
      const selfParent = await client.patchTask(project.id, root.id, { placement: { parentId: root.id } });
      expectStatus(selfParent, 400);
      // Beside its own subtask: the field sent is named, not the parent it implies.
      const besideOwn = await client.patchTask(project.id, root.id, { placement: { afterTaskId: leaf.id } });
      expect(fieldPaths(besideOwn.body)).toEqual(['placement.afterTaskId']);
      // Both anchors: they must be neighbours, the task going between them.
      const apart = await client.patchTask(project.id, leaf.id, { placement: { parentId: null, afterTaskId: other.id, beforeTaskId: root.id } });
      expectStatus(apart, 400);
      expect(fieldPaths(apart.body)).toEqual(['placement.beforeTaskId']);

      const between = await client.createTask(project.id, { name: 'Between', afterTaskId: root.id, beforeTaskId: other.id });
      expectStatus(between, 201);
      const moved = await client.patchTask(project.id, leaf.id, { placement: { parentId: null, beforeTaskId: root.id } });
      expectStatus(moved, 200);
      const full = await client.fullProject(project.id);
      expect(full.body.tasks.filter((t) => t.parentId === null).map((t) => t.name)).toEqual(['Leaf', 'Root', 'Between', 'Other']);
      // Mid lost its only child: still a summary (a phase waiting for subtasks), with the span it had.
      expect(full.body.tasks.find((t) => t.id === mid.id)).toMatchObject({ type: 'summary', durationMin: 480 });
      expect(full.body.tasks.find((t) => t.id === root.id)?.type).toBe('summary');

      const under = await client.patchTask(project.id, other.id, { placement: { parentId: mid.id } });
      expectStatus(under, 200);
      expect(under.body.tasks.find((t) => t.id === other.id)?.parentId).toBe(mid.id);
      expect((await client.getTask(project.id, mid.id)).body.task.type).toBe('summary');
    });
  });

  // docs/api.md › Tasks: TaskCreate accepts every Task type, `summary` included.
  describe('explicit summaries (a phase created before its subtasks)', () => {
    it('a summary created alone spans nothing at its earliest date, then rolls up as subtasks arrive', async () => {
      const project = await client.createProject({ name: 'Phases first', key: 'PHF' });
      const created = await client.createTask(project.id, { name: 'Phase', type: 'summary' });
      expectStatus(created, 201);
      const phase = created.body.tasks.find((t) => t.name === 'Phase');
      expect(phase).toMatchObject({ type: 'summary', durationMin: 0, startAt: '2026-03-02T08:00:00.000Z', finishAt: '2026-03-02T08:00:00.000Z' });

      const first = await client.createTask(project.id, { name: 'Design', parentId: phase?.id, durationMin: 960 });
      expectStatus(first, 201);
      expect(first.body.tasks.find((t) => t.id === phase?.id)).toMatchObject({ type: 'summary', durationMin: 960, finishAt: '2026-03-03T17:00:00.000Z' });
      const design = first.body.tasks.find((t) => t.name === 'Design');
      const second = await client.createTask(project.id, { name: 'Build', parentId: phase?.id, durationMin: 480 });
      const build = second.body.tasks.find((t) => t.name === 'Build');
      await client.link(project.id, { predecessorId: design?.id, successorId: build?.id });
      expect((await client.getTask(project.id, phase!.id)).body.task).toMatchObject({ type: 'summary', durationMin: 1440, finishAt: '2026-03-04T17:00:00.000Z' });
    });

    it("a task with progress that gets subtasks rolls up their progress and actuals, not its own", async () => {
      const project = await client.createProject({ name: 'Started then split', key: 'SPL' });
      const task = await newTask(client, project.id, { name: 'Survey', durationMin: 960 });
      expectStatus(await client.patchTask(project.id, task.id, { progressPct: 50 }), 200);
      const child = await newTask(client, project.id, { name: 'Walk the site', parentId: task.id, durationMin: 480 });
      const actuals = async () => {
        const { task: read } = (await client.getTask(project.id, task.id)).body;
        return { type: read.type, progressPct: read.progressPct, actualStartAt: read.actualStartAt, actualFinishAt: read.actualFinishAt, actualDurationMin: read.actualDurationMin, remainingDurationMin: read.remainingDurationMin };
      };
      expect(await actuals()).toEqual({ type: 'summary', progressPct: 0, actualStartAt: null, actualFinishAt: null, actualDurationMin: null, remainingDurationMin: null });

      expectStatus(await client.patchTask(project.id, child.id, { progressPct: 50 }), 200);
      expect(await actuals()).toEqual({ type: 'summary', progressPct: 50, actualStartAt: '2026-03-02T08:00:00.000Z', actualFinishAt: null, actualDurationMin: 240, remainingDurationMin: 240 });
      expectStatus(await client.patchTask(project.id, child.id, { progressPct: 100 }), 200);
      expect(await actuals()).toEqual({
        type: 'summary',
        progressPct: 100,
        actualStartAt: '2026-03-02T08:00:00.000Z',
        actualFinishAt: '2026-03-02T17:00:00.000Z',
        actualDurationMin: 480,
        remainingDurationMin: 0,
      });
      expect(await scheduleDrift(server, project.id)).toEqual([]);
    });

    it('a change set creates a phase and its subtasks in one go, referring to the phase by its client id', async () => {
      const project = await client.createProject({ name: 'Import like', key: 'IML' });
      const [phase, a, b] = [uuid(), uuid(), uuid()];
      const response = await client.changeSet(project.id, {
        createTasks: [
          { id: phase, name: 'Phase', type: 'summary' },
          { id: a, name: 'A', parentId: phase, durationMin: 480 },
          { id: b, name: 'B', parentId: phase, durationMin: 480 },
        ],
        createDependencies: [{ predecessorId: a, successorId: b }],
      });
      expectStatus(response, 200);
      expect(response.body.tasks.find((t) => t.id === phase)).toMatchObject({ type: 'summary', durationMin: 960, startAt: '2026-03-02T08:00:00.000Z', finishAt: '2026-03-03T17:00:00.000Z' });
    });

    it('a childless summary with a duration holds its successors until subtasks replace that span', async () => {
      const project = await client.createProject({ name: 'Top down', key: 'TOP' });
      const phase = await newTask(client, project.id, { name: 'Phase', type: 'summary', durationMin: 960 });
      const next = await newTask(client, project.id, { name: 'Next' });
      const linked = await client.link(project.id, { predecessorId: phase.id, successorId: next.id });
      expect(linked.body.tasks.find((t) => t.id === next.id)?.startAt).toBe('2026-03-04T08:00:00.000Z');
      const child = await client.createTask(project.id, { name: 'Only step', parentId: phase.id, durationMin: 480 });
      expectStatus(child, 201);
      expect(child.body.tasks.find((t) => t.id === phase.id)).toMatchObject({ type: 'summary', durationMin: 480 });
      expect(child.body.tasks.find((t) => t.id === next.id)?.startAt).toBe('2026-03-03T08:00:00.000Z');
    });

    it('PATCH type turns a leaf into a summary and back; with subtasks the type stays summary (400)', async () => {
      const project = await client.createProject({ name: 'Retype', key: 'RTY' });
      const task = await newTask(client, project.id, { name: 'Work', durationMin: 960 });
      const toSummary = await client.patchTask(project.id, task.id, { type: 'summary' });
      expectStatus(toSummary, 200);
      expect(toSummary.body.tasks.find((t) => t.id === task.id)).toMatchObject({ type: 'summary', durationMin: 960 });
      const longer = await client.patchTask(project.id, task.id, { durationMin: 1440 });
      expectStatus(longer, 200);
      expect(longer.body.tasks.find((t) => t.id === task.id)).toMatchObject({ type: 'summary', durationMin: 1440 });
      const back = await client.patchTask(project.id, task.id, { type: 'task' });
      expectStatus(back, 200);
      expect(back.body.tasks.find((t) => t.id === task.id)).toMatchObject({ type: 'task', durationMin: 1440 });

      await newTask(client, project.id, { name: 'Sub', parentId: task.id });
      const refused = await client.patchTask(project.id, task.id, { type: 'task' });
      expectStatus(refused, 400);
      expect(fieldPaths(refused.body)).toEqual(['type']);
    });
  });

  describe('GET/PATCH …/tasks/{id}', () => {
    it('the read shape has projectId/completed/assignees/url and no sortKey', async () => {
      const project = await client.createProject({ name: 'Read', key: 'REA' });
      const task = await newTask(client, project.id, { name: 'Read me', externalId: 'ext-1', notes: 'n' });
      const read = await client.getTask(project.id, task.id);
      expectStatus(read, 200);
      expect(read.body.task).toMatchObject({ id: task.id, projectId: project.id, completed: false, assignees: [], key: 'REA-1', externalId: 'ext-1', notes: 'n' });
      expect(read.body.task.url).toMatch(new RegExp(`/projects/${project.id}/tasks/${task.id}$`));
      expect(read.body.task).not.toHaveProperty('sortKey');
      expectStatus(await client.getTask(project.id, uuid()), 404);
      expectStatus(await client.getTask(project.id, 'x'), 404);
      // A task of another project is not found under this one.
      const other = await client.createProject({ name: 'Elsewhere', key: 'ELS' });
      expectStatus(await client.getTask(other.id, task.id), 404);
      expectStatus(await client.patchTask(other.id, task.id, { name: 'hijack' }), 404);
      const missing = await client.patchTask(project.id, uuid(), { name: 'nobody' });
      expectStatus(missing, 404);
      expect(missing.body).toMatchObject({ error: 'not_found' });
    });

    it('PATCH changes only the fields sent; null clears nullable fields', async () => {
      const project = await client.createProject({ name: 'Patch', key: 'PAT' });
      const task = await newTask(client, project.id, {
        name: 'Full',
        durationMin: 600,
        notes: 'keep',
        color: '#ff0000',
        wbs: '1.1',
        externalId: 'E-1',
        costFixed: 250,
        deadline: '2026-03-20T17:00:00Z',
        constraintKind: 'start_no_earlier_than',
        constraintDate: '2026-03-03T08:00:00Z',
      });
      const before = (await client.getTask(project.id, task.id)).body.task;
      const renamed = await client.patchTask(project.id, task.id, { name: 'Renamed' });
      expectStatus(renamed, 200);
      const after = (await client.getTask(project.id, task.id)).body.task;
      expect(after).toEqual({ ...before, name: 'Renamed' });

      const cleared = await client.patchTask(project.id, task.id, { notes: null, color: null, wbs: null, externalId: null, deadline: null });
      expectStatus(cleared, 200);
      const now = (await client.getTask(project.id, task.id)).body.task;
      expect(now).toMatchObject({ notes: null, color: null, wbs: null, externalId: null, deadline: null, name: 'Renamed', durationMin: 600, costFixed: 250 });
      expect(now.constraintKind).toBe('start_no_earlier_than');

      // Clearing the date a dated constraint needs is refused.
      const noDate = await client.patchTask(project.id, task.id, { constraintDate: null });
      expectStatus(noDate, 400);
      expect(fieldPaths(noDate.body)).toContain('constraintDate');
      const asap = await client.patchTask(project.id, task.id, { constraintKind: 'asap' });
      expectStatus(asap, 200);
      expect(asap.body.tasks.find((t) => t.id === task.id)).toMatchObject({ constraintKind: 'asap', constraintDate: null, startAt: '2026-03-02T08:00:00.000Z' });

      const badName = await client.patchTask(project.id, task.id, { name: '   ', durationMin: -3 });
      expectStatus(badName, 400);
      expect(fieldPaths(badName.body)).toEqual(expect.arrayContaining(['name', 'durationMin']));
      expectStatus(await client.patchTask(project.id, uuid(), { name: 'x' }), 404);
    });

    it('values round-trip exactly (costFixed, progressPct)', async () => {
      const project = await client.createProject({ name: 'Precision', key: 'PRE' });
      const task = await newTask(client, project.id, { name: 'Costly', costFixed: 12345678.9 });
      expect(task.costFixed).toBe(12345678.9);
      expect((await client.getTask(project.id, task.id)).body.task.costFixed).toBe(12345678.9);
      await client.patchTask(project.id, task.id, { progressPct: 33.3 });
      expect((await client.getTask(project.id, task.id)).body.task.progressPct).toBe(33.3);
      // Nothing changed: a repeated no-op write saves nothing.
      const noop = await client.patchTask(project.id, task.id, { name: 'Costly' });
      expectStatus(noop, 200);
      expect(noop.body.stats.savedCount).toBe(0);
    });

    it('progress 100 completes the task', async () => {
      const project = await client.createProject({ name: 'Done', key: 'DON' });
      const task = await newTask(client, project.id, { name: 'Finish me' });
      expectStatus(await client.patchTask(project.id, task.id, { progressPct: 100 }), 200);
      const read = await client.getTask(project.id, task.id);
      expect(read.body.task).toMatchObject({ progressPct: 100, completed: true });
      expectStatus(await client.patchTask(project.id, task.id, { progressPct: 101 }), 400);
    });

    it('progress sent with a new task sets its actual dates as an edit does: the task starts where it is scheduled', async () => {
      const project = await client.createProject({ name: 'Started', key: 'STA' });
      const first = await newTask(client, project.id, { name: 'First', durationMin: 960 });
      const created = await client.changeSet(project.id, {
        createTasks: [
          { id: uuid(), name: 'Half', durationMin: 480, progressPct: 50 },
          { id: uuid(), name: 'Done', durationMin: 240, progressPct: 100 },
        ],
        createDependencies: [],
      });
      expectStatus(created, 200);
      const byName = (name: string) => created.body.tasks.find((t) => t.name === name) as PlanTask & Record<string, unknown>;
      const [half, done] = [byName('Half'), byName('Done')];
      expect(half).toMatchObject({ actualStartAt: half.startAt, actualFinishAt: null, actualDurationMin: 240, remainingDurationMin: 240 });
      expect(done).toMatchObject({ actualStartAt: done.startAt, actualFinishAt: done.finishAt, progressPct: 100 });
      expect((await client.getTask(project.id, done.id)).body.task).toMatchObject({ completed: true, actualStartAt: '2026-03-02T08:00:00.000Z' });
      // A single create behaves the same.
      const later = await client.createTask(project.id, { name: 'Later', durationMin: 480, progressPct: 25 });
      expectStatus(later, 201);
      expect(later.body.tasks.find((t) => t.name === 'Later')).toMatchObject({ actualStartAt: '2026-03-02T08:00:00.000Z', actualDurationMin: 120 });
      expect(first.startAt).toBe('2026-03-02T08:00:00.000Z');
    });

    it("a summary's rolled-up fields and its type cannot be set: 400 naming each, nothing saved", async () => {
      const project = await client.createProject({ name: 'Phases', key: 'PHA' });
      const phase = await newTask(client, project.id, { name: 'Phase' });
      await newTask(client, project.id, { name: 'Step', parentId: phase.id, durationMin: 960 });
      const response = await client.patchTask(project.id, phase.id, { durationMin: 50, workMin: 10, type: 'task', name: 'Renamed' });
      expectStatus(response, 400);
      expect(fieldPaths(response.body).sort()).toEqual(['durationMin', 'type', 'workMin']);
      expect((await client.getTask(project.id, phase.id)).body.task).toMatchObject({ name: 'Phase', type: 'summary', durationMin: 960 });
      expectStatus(await client.patchTask(project.id, phase.id, { name: 'Renamed', type: 'summary' }), 200);
    });

    it('ids are case-insensitive: upper-case UUIDs find the same project and task, and name the same task in a change set', async () => {
      const project = await client.createProject({ name: 'Cases', key: 'CAS' });
      const task = await newTask(client, project.id, { name: 'Lower' });
      const read = await client.getTask(project.id.toUpperCase(), task.id.toUpperCase());
      expectStatus(read, 200);
      expect(read.body.task.id).toBe(task.id);
      const id = uuid();
      const created = await client.changeSet(project.id, { createTasks: [{ id: id.toUpperCase(), name: 'Upper', parentId: null }] });
      expectStatus(created, 200);
      expect(created.body.tasks.map((t) => t.id)).toContain(id);
      const again = await client.changeSet(project.id, { createTasks: [{ id, name: 'Same id' }] });
      expectStatus(again, 400);
      expect(fieldPaths(again.body)).toEqual(['createTasks[0].id']);
      expectStatus(await client.link(project.id, { predecessorId: task.id.toUpperCase(), successorId: id.toUpperCase() }), 201);
    });
  });

  // docs/api.md › Error codes: 500 is a fault of the server. Any JSON string is a valid request value;
  // one the store cannot keep must be a 400 naming the field, never a 500.
  describe('text values the store may not keep (NUL character)', () => {
    const nul = 'before\u0000after';

    it('in task text fields: stored as sent, or 400 naming the field', async () => {
      const project = await client.createProject({ name: 'Text', key: 'TXT' });
      for (const field of ['name', 'notes', 'externalId', 'wbs', 'color']) {
        const response = await client.createTask(project.id, { name: 'plain', [field]: nul });
        expect([201, 400], `${field} → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`).toContain(response.status);
        if (response.status === 400) expect(fieldPaths(response.body)).toContain(field);
        else expect(response.body.tasks[0]?.[field as 'name']).toBe(nul);
      }
      const task = await newTask(client, project.id, { name: 'target' });
      const patched = await client.patchTask(project.id, task.id, { notes: nul });
      expect([200, 400], `PATCH → ${patched.status}`).toContain(patched.status);
    });

    it('in a listing filter, a comment and a baseline name: never a 5xx', async () => {
      const project = await client.createProject({ name: 'Text 2', key: 'TXU' });
      const task = await newTask(client, project.id, { name: 'target' });
      for (const query of ['q=%00', 'externalId=%00']) {
        const response = await client.listTasks(project.id, query);
        expect([200, 400], `${query} → ${response.status}`).toContain(response.status);
      }
      const comment = await client.comment(project.id, task.id, { body: nul });
      expect([201, 400], `comment → ${comment.status}`).toContain(comment.status);
      const baseline = await client.saveBaseline(project.id, { name: nul });
      expect([201, 400], `baseline → ${baseline.status}`).toContain(baseline.status);
    });
  });

  // Every date-time in a response is RFC 3339 (the harness checks each response against the
  // OpenAPI document): inputs that would push computed dates past year 9999 are refused or
  // kept within range, never answered with an extended-year string such as "+010000-…".
  it('a schedule pushed past year 9999 never yields an invalid date-time', async () => {
    const project = await client.createProject({ name: 'Far future', key: 'FAR' });
    const task = await newTask(client, project.id, { name: 'Late' });
    const response = await client.patchTask(project.id, task.id, { constraintKind: 'must_start_on', constraintDate: '9999-06-01T08:00:00Z', durationMin: 480 * 300 });
    expect([200, 400], JSON.stringify(response.body).slice(0, 300)).toContain(response.status);
    const read = await client.getTask(project.id, task.id);
    expectStatus(read, 200);
    for (const value of [read.body.task.startAt, read.body.task.finishAt, read.body.task.lateFinishAt]) expect(value ?? '').not.toMatch(/^[+-]/);
    expectStatus(await client.fullProject(project.id), 200);
  });
});

