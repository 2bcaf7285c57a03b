import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedEvents } from '../support/event-check.js';
import { addProjectMember, expectRefused, expectStatus, fieldPaths, planningClient, readOnlyKey, uuid, type PlanningClient, type User } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

interface Resource {
  id: string;
  userId: string | null;
  name: string;
  maxUnitsPct: number;
}

// docs/api.md › Resources, and Max. Units in › Resource leveling.
describe('resources of a project', () => {
  let server: TestServer;
  let owner: User;
  let client: PlanningClient;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    owner = await provisionUser(server, 'owner@example.com');
    client = planningClient(server, owner.key);
  });
  afterAll(() => server.close());

  const list = (projectId: string, c = client) => c.req<{ resources: Resource[] }>('GET', `/api/projects/${projectId}/resources`);
  const create = (projectId: string, body: unknown, c = client) => c.req<{ resource: Resource }>('POST', `/api/projects/${projectId}/resources`, body);
  const patch = (projectId: string, resourceId: string, body: unknown, c = client) =>
    c.req<{ resource: Resource }>('PATCH', `/api/projects/${projectId}/resources/${resourceId}`, body);

  it('creates resources without an account, lists them with members once assigned, and renames them where tasks show them', async () => {
    const project = await client.createProject({ name: 'Site', key: 'SITE' });
    const created = await create(project.id, { name: ' Crane ' });
    expectStatus(created, 201);
    expect(created.body.resource).toEqual({ id: expect.any(String), userId: null, name: 'Crane', maxUnitsPct: 100 });
    const crane = created.body.resource;
    const team = (await create(project.id, { name: 'Electricians', maxUnitsPct: 300 })).body.resource;
    expect(team.maxUnitsPct).toBe(300);

    const task = uuid();
    expectStatus(await client.changeSet(project.id, { createTasks: [{ id: task, name: 'Lift', durationMin: 480 }] }), 200);
    const assigned = await client.putAssignees(project.id, task, { userIds: [owner.userId], resourceIds: [crane.id] });
    expectStatus(assigned, 200);
    const mine = assigned.body.task.assignees.find((a) => a.userId === owner.userId)!;

    const listed = await list(project.id);
    expectStatus(listed, 200);
    expect(listed.body.resources.map((r) => [r.name, r.userId, r.maxUnitsPct])).toEqual([
      ['Crane', null, 100],
      ['Electricians', null, 300],
      [mine.name, owner.userId, 100],
    ]);

    const events = (await storedEvents(server, project.id)).length;
    const renamed = await patch(project.id, crane.id, { name: 'Tower crane', maxUnitsPct: 200 });
    expectStatus(renamed, 200);
    expect(renamed.body.resource).toEqual({ ...crane, name: 'Tower crane', maxUnitsPct: 200 });
    // Only what is sent changes.
    expect((await patch(project.id, crane.id, { maxUnitsPct: 150 })).body.resource).toEqual({ ...crane, name: 'Tower crane', maxUnitsPct: 150 });
    expect((await patch(project.id, mine.resourceId, { name: 'Site manager' })).body.resource).toMatchObject({ userId: owner.userId, name: 'Site manager', maxUnitsPct: 100 });

    // Tasks and the full project read show the new names and units at once.
    const read = (await client.getTask(project.id, task)).body.task.assignees.map((a) => a.name).sort();
    expect(read).toEqual(['Site manager', 'Tower crane']);
    const full = await client.req<{ resources: Resource[] }>('GET', `/api/projects/${project.id}`);
    expect(full.body.resources.find((r) => r.id === crane.id)).toEqual({ ...crane, name: 'Tower crane', maxUnitsPct: 150 });
    // No event: the resource is not a task, and no date moved.
    expect((await storedEvents(server, project.id)).length).toBe(events);

    // A copy of the project, and its exported file, keep them.
    const copy = await client.req<{ project: { id: string } }>('POST', `/api/projects/${project.id}/duplicate`, {});
    expectStatus(copy, 201);
    expect((await list(copy.body.project.id)).body.resources.map((r) => [r.name, r.maxUnitsPct])).toContainEqual(['Tower crane', 150]);
    const exported = await fetch(`${server.url}/api/projects/${project.id}/export?format=mspdi`, { headers: { authorization: `Bearer ${owner.key}` } });
    expect(await exported.text()).toMatch(/<Name>Tower crane<\/Name>\s*<Type>1<\/Type>\s*<IsNull>0<\/IsNull>\s*<MaxUnits>1.5<\/MaxUnits>/);
  });

  it('levels each resource within its Max. Units', async () => {
    const project = await client.createProject({ name: 'Cranes', key: 'CRN' });
    const cranes = (await create(project.id, { name: 'Cranes', maxUnitsPct: 200 })).body.resource;
    const [a, b, c] = [uuid(), uuid(), uuid()];
    expectStatus(
      await client.changeSet(project.id, {
        createTasks: [
          { id: a, name: 'Lift A', durationMin: 480 },
          { id: b, name: 'Lift B', durationMin: 480 },
          { id: c, name: 'Lift C', durationMin: 480 },
        ],
      }),
      200,
    );
    for (const taskId of [a, b, c]) expectStatus(await client.putAssignees(project.id, taskId, { userIds: [], resourceIds: [cranes.id] }), 200);
    const level = () => client.req<{ leveling: { tasks: { taskId: string; levelingDelayMin: { to: number } }[]; overallocations: unknown[] } }>('POST', `/api/projects/${project.id}/level?dryRun=true`, {});

    // Two cranes: two lifts on Monday, the third on Tuesday.
    const two = await level();
    expectStatus(two, 200);
    expect(two.body.leveling.tasks.map((t) => [t.taskId, t.levelingDelayMin.to])).toEqual([[c, 480]]);
    // Three: nothing waits. One: the lifts go one a day.
    await patch(project.id, cranes.id, { maxUnitsPct: 300 });
    expect((await level()).body.leveling.tasks).toEqual([]);
    await patch(project.id, cranes.id, { maxUnitsPct: 100 });
    expect((await level()).body.leveling.tasks.map((t) => [t.taskId, t.levelingDelayMin.to])).toEqual([
      [b, 480],
      [c, 960],
    ]);
  });

  it('refuses bad input with the field at fault, and changes nothing', async () => {
    const project = await client.createProject({ name: 'Bad', key: 'BAD' });
    const crane = (await create(project.id, { name: 'Crane' })).body.resource;
    const badCreates: [unknown, string][] = [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ name: 'A', maxUnitsPct: 0 }, 'maxUnitsPct'],
      [{ name: 'A', maxUnitsPct: 1.5 }, 'maxUnitsPct'],
      [{ name: 'A', maxUnitsPct: 100_001 }, 'maxUnitsPct'],
      [{ name: 'A', maxUnitsPct: '100' }, 'maxUnitsPct'],
    ];
    for (const [body, path] of badCreates) {
      const refused = await create(project.id, body);
      expectStatus(refused, 400);
      expect(refused.body.error).toBe('invalid_request');
      expect(fieldPaths(refused.body)).toEqual([path]);
    }
    for (const body of [{ name: null }, { maxUnitsPct: -5 }, { maxUnitsPct: null }]) {
      const refused = await patch(project.id, crane.id, body);
      expectStatus(refused, 400);
      expect(fieldPaths(refused.body)).toEqual([Object.keys(body)[0]]);
    }
    expectStatus(await client.req('PATCH', `/api/projects/${project.id}/resources/${crane.id}`, [1]), 400);
    expect((await list(project.id)).body.resources).toEqual([crane]);

    // A resource of another project, or none at all, is not found.
    const other = await client.createProject({ name: 'Other', key: 'OTH' });
    expectRefused(await patch(other.id, crane.id, { name: 'Stolen' }), 404, { error: 'not_found' });
    expectRefused(await patch(project.id, uuid(), { name: 'Nobody' }), 404, { error: 'not_found' });
    expectRefused(await patch(project.id, 'not-a-uuid', { name: 'Nobody' }), 404, { error: 'not_found' });
    expect((await list(project.id)).body.resources).toEqual([crane]);
  });

  it('lets viewers and read-only keys list, only editors and owners change, and strangers see nothing', async () => {
    const project = await client.createProject({ name: 'Roles', key: 'ROL' });
    const crane = (await create(project.id, { name: 'Crane' })).body.resource;
    const viewer = await provisionUser(server, 'viewer@example.com');
    const editor = await provisionUser(server, 'editor@example.com');
    const stranger = await provisionUser(server, 'stranger@example.com');
    await addProjectMember(server, project.id, 'viewer@example.com', 'viewer');
    await addProjectMember(server, project.id, 'editor@example.com', 'editor');
    const as = (key: string) => planningClient(server, key);

    expectStatus(await list(project.id, as(viewer.key)), 200);
    expectRefused(await create(project.id, { name: 'Mine' }, as(viewer.key)), 403, { error: 'forbidden' });
    expectRefused(await patch(project.id, crane.id, { maxUnitsPct: 500 }, as(viewer.key)), 403, { error: 'forbidden' });

    const readKey = await readOnlyKey(server, 'owner@example.com');
    expectStatus(await list(project.id, as(readKey)), 200);
    expectRefused(await create(project.id, { name: 'Read' }, as(readKey)), 403, { error: 'forbidden' });
    expectRefused(await patch(project.id, crane.id, { name: 'Read' }, as(readKey)), 403, { error: 'forbidden' });

    expectRefused(await list(project.id, as(stranger.key)), 404, { error: 'not_found' });
    expectRefused(await patch(project.id, crane.id, { name: 'Mine' }, as(stranger.key)), 404, { error: 'not_found' });

    expectStatus(await create(project.id, { name: 'Scaffold' }, as(editor.key)), 201);
    expectStatus(await patch(project.id, crane.id, { maxUnitsPct: 200 }, as(editor.key)), 200);
    expect((await list(project.id)).body.resources.map((r) => [r.name, r.maxUnitsPct])).toEqual([
      ['Crane', 200],
      ['Scaffold', 100],
    ]);
  });
});
