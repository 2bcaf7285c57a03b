import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedEvents } from '../support/event-check.js';
import { addProjectMember, eventData, expectRefused, expectStatus, fieldPaths, newTask, planningClient, uuid, type PlanningClient, type Task, type WriteResult } from '../support/planning.js';
import { signedInPerson, type Person } from '../support/sessions.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// docs/api.md › WriteResult and conflicts (`assignments`, `reassignedTaskIds`) and
// › Change sets (`createTasks[].assignments`); contract WriteResult, TaskCreate.
type Assignment = WriteResult['assignments'][number];
type Resource = { id: string; userId: string | null; name: string; maxUnitsPct: number };

describe('what a plan write changed about assignments', () => {
  let server: TestServer;
  let owner: Person;
  let editor: Person;
  let viewer: Person;
  let client: PlanningClient;
  let projectId: string;
  let crane: Resource;
  let truck: Resource;
  let foreign: Resource;

  const createResource = async (id: string, name: string) => {
    const created = await client.req<{ resource: Resource }>('POST', `/api/projects/${id}/resources`, { name });
    expectStatus(created, 201);
    return created.body.resource;
  };
  const write = (body: Record<string, unknown>, query = '') => client.req<WriteResult>('POST', `/api/projects/${projectId}/tasks${query}`, body);
  const assignmentsOf = async (taskId: string) => (await client.getTask(projectId, taskId)).body.task.assignees.map(({ resourceId, unitsPct }) => ({ resourceId, unitsPct }));

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    owner = await signedInPerson(server, 'owner@example.com', 'Olga Owner');
    editor = await signedInPerson(server, 'editor@example.com', 'Ed Editor');
    viewer = await signedInPerson(server, 'viewer@example.com', 'Vi Viewer');
    client = planningClient(server, { headers: owner.headers });
    projectId = (await client.createProject({ name: 'Assignments', key: 'ASG' })).id;
    await addProjectMember(server, projectId, editor.email, 'editor');
    await addProjectMember(server, projectId, viewer.email, 'viewer');
    crane = await createResource(projectId, 'Crane');
    truck = await createResource(projectId, 'Truck');
    foreign = await createResource((await client.createProject({ name: 'Elsewhere', key: 'ELS' })).id, 'Foreign crane');
  });
  afterAll(() => server.close());

  it('PUT …/assignees answers the task in reassignedTaskIds with all its assignments, then with none', async () => {
    const task = await newTask(client, projectId, { name: 'Lift' });
    const other = await newTask(client, projectId, { name: 'Untouched' });
    const assigned = await client.putAssignees(projectId, task.id, { userIds: [editor.userId], resourceIds: [crane.id] });
    expectStatus(assigned, 200);
    const { body } = assigned;
    expect(body.reassignedTaskIds).toEqual([task.id]);
    // The same rows as the task's assignees, in their order.
    expect(body.assignments).toEqual(body.task.assignees.map((a) => ({ taskId: task.id, resourceId: a.resourceId, unitsPct: 100 })));
    expect(body.assignments.map((a) => a.resourceId)).toContain(crane.id);
    expect(body.assignments).toHaveLength(2);
    expect(body.reassignedTaskIds).not.toContain(other.id);

    // The same assignees again: nothing changed, nothing listed.
    const again = await client.putAssignees(projectId, task.id, { userIds: [editor.userId] });
    expectStatus(again, 200);
    expect(again.body).toMatchObject({ reassignedTaskIds: [], assignments: [] });

    // The last assignment removed: the task is listed, with no assignment.
    const cleared = await client.putAssignees(projectId, task.id, { userIds: [], resourceIds: [] });
    expectStatus(cleared, 200);
    expect(cleared.body).toMatchObject({ reassignedTaskIds: [task.id], assignments: [] });
  });

  it('a change set creates tasks with assignments as given: duration, work and units untouched; task.created carries them', async () => {
    const memberResource = (await client.putAssignees(projectId, (await newTask(client, projectId, { name: 'Staffing' })).id, { userIds: [editor.userId] })).body.task
      .assignees[0]!.resourceId;
    const [pasted, plain] = [uuid(), uuid()];
    const seen = (await storedEvents(server, projectId)).length;
    const response = await write({
      createTasks: [
        {
          id: pasted,
          name: 'Pasted',
          durationMin: 960,
          workMin: 300,
          effortDriven: true,
          taskType: 'fixed_work',
          assignments: [
            { resourceId: truck.id, unitsPct: 0 },
            { resourceId: crane.id, unitsPct: 250 },
            { resourceId: memberResource },
          ],
        },
        { id: plain, name: 'Plain', assignments: [] },
      ],
    });
    expectStatus(response, 200);
    expect(response.body.reassignedTaskIds).toEqual([pasted]);
    // By resource name, as the task's assignees: Crane, Ed Editor, Truck; units default to 100.
    expect(response.body.assignments).toEqual([
      { taskId: pasted, resourceId: crane.id, unitsPct: 250 },
      { taskId: pasted, resourceId: memberResource, unitsPct: 100 },
      { taskId: pasted, resourceId: truck.id, unitsPct: 0 },
    ]);
    const created = response.body.tasks.find((task) => task.id === pasted);
    expect(created).toMatchObject({ durationMin: 960, workMin: 300 });

    const read = await client.getTask(projectId, pasted);
    expect(read.body.task).toMatchObject({ durationMin: 960, workMin: 300 });
    expect(await assignmentsOf(pasted)).toEqual([
      { resourceId: crane.id, unitsPct: 250 },
      { resourceId: memberResource, unitsPct: 100 },
      { resourceId: truck.id, unitsPct: 0 },
    ]);
    const full = await client.req<{ assignments: Assignment[] }>('GET', `/api/projects/${projectId}`);
    expect(full.body.assignments.filter((a) => a.taskId === pasted).sort((a, b) => a.resourceId.localeCompare(b.resourceId))).toEqual(
      response.body.assignments.slice().sort((a, b) => a.resourceId.localeCompare(b.resourceId)),
    );

    const events = (await storedEvents(server, projectId)).slice(seen);
    const announced = events.filter((event) => event.type === 'task.created').map((event) => (eventData(event) as { task: Task }).task);
    expect(announced.map((task) => task.id)).toEqual([pasted, plain]);
    expect(announced[0]!.assignees).toEqual(read.body.task.assignees);
    expect(announced[0]!.assignees.map((a) => a.name)).toEqual(['Crane', 'Ed Editor', 'Truck']);
    expect(announced[1]!.assignees).toEqual([]);
    expect(events.filter((event) => event.type === 'task.updated')).toEqual([]);
  });

  it('an edit that changes units lists the task; one that changes only work does not', async () => {
    const fixedWork = uuid();
    const fixedUnits = uuid();
    const created = await write({
      createTasks: [
        { id: fixedWork, name: 'Fixed work', durationMin: 960, workMin: 960, taskType: 'fixed_work', assignments: [{ resourceId: crane.id, unitsPct: 100 }] },
        { id: fixedUnits, name: 'Fixed units', durationMin: 960, workMin: 960, assignments: [{ resourceId: truck.id, unitsPct: 100 }] },
      ],
    });
    expectStatus(created, 200);
    expect(created.body.reassignedTaskIds).toEqual([fixedWork, fixedUnits]);

    // Fixed work: half the duration doubles the units.
    const halved = await client.req<WriteResult>('PATCH', `/api/projects/${projectId}/tasks/${fixedWork}`, { durationMin: 480 });
    expectStatus(halved, 200);
    expect(halved.body).toMatchObject({ reassignedTaskIds: [fixedWork], assignments: [{ taskId: fixedWork, resourceId: crane.id, unitsPct: 200 }] });
    // Fixed units: the work follows the duration, the units stay.
    const longer = await client.req<WriteResult>('PATCH', `/api/projects/${projectId}/tasks/${fixedUnits}`, { durationMin: 1920 });
    expectStatus(longer, 200);
    expect(longer.body.tasks.find((task) => task.id === fixedUnits)).toMatchObject({ workMin: 1920 });
    expect(longer.body).toMatchObject({ reassignedTaskIds: [], assignments: [] });
  });

  it('every write answers the fields: links, leveling (nothing reassigned)', async () => {
    const [a, b] = [uuid(), uuid()];
    expectStatus(await write({ createTasks: [{ id: a, name: 'A' }, { id: b, name: 'B' }] }), 200);
    const linked = await client.req<WriteResult>('POST', `/api/projects/${projectId}/dependencies`, { predecessorId: a, successorId: b });
    expectStatus(linked, 201);
    expect(linked.body).toMatchObject({ reassignedTaskIds: [], assignments: [] });
    const leveled = await client.req<WriteResult>('POST', `/api/projects/${projectId}/level`, {});
    expectStatus(leveled, 200);
    expect(leveled.body).toMatchObject({ reassignedTaskIds: [], assignments: [] });
  });

  it('deleting a task lists it in deletedTaskIds only, its assignments gone with it', async () => {
    const [phase, sub] = [uuid(), uuid()];
    const created = await write({
      createTasks: [
        { id: phase, name: 'Doomed phase', type: 'summary' },
        { id: sub, name: 'Doomed', parentId: phase, assignments: [{ resourceId: crane.id, unitsPct: 50 }] },
      ],
    });
    expectStatus(created, 200);
    const key = created.body.tasks.find((task) => task.id === phase)!.key;
    const deleted = await client.req<WriteResult>('DELETE', `/api/projects/${projectId}/tasks/${phase}?confirm=${key}`);
    expectStatus(deleted, 200);
    expect(deleted.body.deletedTaskIds).toEqual([phase, sub]);
    expect(deleted.body).toMatchObject({ reassignedTaskIds: [], assignments: [] });
    const full = await client.req<{ assignments: Assignment[] }>('GET', `/api/projects/${projectId}`);
    expect(full.body.assignments.filter((a) => a.taskId === sub)).toEqual([]);
  });

  it('a dry run answers the fields and saves nothing', async () => {
    const id = uuid();
    const dry = await write({ createTasks: [{ id, name: 'Tried', assignments: [{ resourceId: crane.id, unitsPct: 75 }] }] }, '?dryRun=true');
    expectStatus(dry, 200);
    expect(dry.body).toMatchObject({ reassignedTaskIds: [id], assignments: [{ taskId: id, resourceId: crane.id, unitsPct: 75 }] });
    expectStatus(await client.getTask(projectId, id), 404);

    const task = await newTask(client, projectId, { name: 'Tried on' });
    const fixedWork = uuid();
    expectStatus(await write({ createTasks: [{ id: fixedWork, name: 'Dry fixed work', durationMin: 960, workMin: 960, taskType: 'fixed_work', assignments: [{ resourceId: truck.id }] }] }), 200);
    const patched = await client.req<WriteResult>('PATCH', `/api/projects/${projectId}/tasks/${fixedWork}?dryRun=true`, { durationMin: 1920 });
    expectStatus(patched, 200);
    expect(patched.body).toMatchObject({ reassignedTaskIds: [fixedWork], assignments: [{ taskId: fixedWork, resourceId: truck.id, unitsPct: 50 }] });
    expect(await assignmentsOf(fixedWork)).toEqual([{ resourceId: truck.id, unitsPct: 100 }]);
    expect(await assignmentsOf(task.id)).toEqual([]);
  });

  it('bad assignments are a 400 at their path and nothing is saved', async () => {
    const before = (await client.fullProject(projectId)).body.tasks.length;
    const seen = (await storedEvents(server, projectId)).length;
    const [first, second] = [uuid(), uuid()];
    const response = await write({
      createTasks: [
        { id: first, name: 'Fine', assignments: [{ resourceId: crane.id, unitsPct: 100 }] },
        {
          id: second,
          name: 'Wrong',
          assignments: [
            { resourceId: uuid(), unitsPct: 100 },
            { resourceId: foreign.id, unitsPct: 100 },
            { resourceId: crane.id, unitsPct: 100 },
            { resourceId: crane.id, unitsPct: 50 },
          ],
        },
      ],
    });
    expectRefused(response, 400, { error: 'invalid_request' });
    expect(fieldPaths(response.body)).toEqual(['createTasks[1].assignments[0].resourceId', 'createTasks[1].assignments[1].resourceId', 'createTasks[1].assignments[3].resourceId']);

    for (const unitsPct of [-1, 100_001, 12.5, '100', null]) {
      const refused = await write({ createTasks: [{ name: 'Units', assignments: [{ resourceId: crane.id }, { resourceId: truck.id, unitsPct }] }] });
      expectRefused(refused, 400, { error: 'invalid_request' });
      expect(fieldPaths(refused.body)).toEqual(['createTasks[0].assignments[1].unitsPct']);
    }
    const bounds = await write({ createTasks: [{ name: 'Bounds', assignments: [{ resourceId: crane.id, unitsPct: 100_000 }, { resourceId: truck.id, unitsPct: 0 }] }] }, '?dryRun=true');
    expectStatus(bounds, 200);
    for (const assignments of [[{ unitsPct: 100 }], [{ resourceId: 'crane' }], {}]) {
      const refused = await write({ createTasks: [{ name: 'Shape', assignments }] });
      expectStatus(refused, 400);
      expect(fieldPaths(refused.body)[0]).toMatch(/^createTasks\[0\]\.assignments/);
    }
    // Only in change sets, as a client-chosen id.
    const single = await client.createTask(projectId, { name: 'Single', assignments: [{ resourceId: crane.id, unitsPct: 100 }] });
    expectRefused(single, 400, { error: 'invalid_request' });
    expect(fieldPaths(single.body)).toEqual(['assignments']);

    expect((await client.fullProject(projectId)).body.tasks).toHaveLength(before);
    expectStatus(await client.getTask(projectId, first), 404);
    expect((await storedEvents(server, projectId)).slice(seen)).toEqual([]);
  });

  it('a viewer is 403 as for any write; an editor may assign', async () => {
    const id = uuid();
    const body = { createTasks: [{ id, name: 'By a viewer', assignments: [{ resourceId: crane.id, unitsPct: 100 }] }] };
    const refused = await planningClient(server, { headers: viewer.headers }).changeSet(projectId, body);
    expectRefused(refused, 403, { error: 'forbidden', details: { reason: 'insufficient_role' } });
    expectStatus(await client.getTask(projectId, id), 404);
    const allowed = await planningClient(server, { headers: editor.headers }).changeSet(projectId, { createTasks: [{ ...body.createTasks[0], name: 'By an editor' }] });
    expectStatus(allowed, 200);
    expect(await assignmentsOf(id)).toEqual([{ resourceId: crane.id, unitsPct: 100 }]);
  });
});
