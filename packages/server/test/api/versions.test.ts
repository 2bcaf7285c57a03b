import { limits } from '@gantry/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventData, expectRefused, expectStatus, newTask, planningClient, uuid, type PlanningClient } from '../support/planning.js';
import { storedEvents } from '../support/event-check.js';
import { expectSamePlan, richPlan, type comparablePlan } from '../support/plan-copies.js';
import { signedInPerson, type Person } from '../support/sessions.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

interface Version {
  id: string;
  projectId: string;
  name: string | null;
  taskCount: number;
  createdBy: string | null;
  createdAt: string;
}
type Full = Parameters<typeof comparablePlan>[0] & {
  project: { key: string; startDate: string; deadline: string | null; scheduleFrom: string; calendarId: string | null };
  tasks: { id: string; number: number; calendarId: string | null; startAt: string | null }[];
};

// docs/api.md › Saved versions.
describe('saved versions', () => {
  let server: TestServer;
  let ada: Person;
  let client: PlanningClient;
  let apiKey: string;
  let readKey: string;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    ada = await signedInPerson(server, 'ada@example.com', 'Ada');
    client = planningClient(server, ada);
    const key = await server.cli('key', 'create', '--email', 'ada@example.com', '--scope', 'write', '--json');
    apiKey = (key.json as { key: string }).key;
    const read = await server.cli('key', 'create', '--email', 'ada@example.com', '--scope', 'read', '--json');
    readKey = (read.json as { key: string }).key;
  });
  afterAll(() => server.close());

  const save = (projectId: string, body: Record<string, unknown> = {}) => client.req<{ version: Version }>('POST', `/api/projects/${projectId}/versions`, body);
  const list = (projectId: string) => client.req<{ versions: Version[] }>('GET', `/api/projects/${projectId}/versions`);
  const restore = (projectId: string, versionId: string, confirm: string | null) =>
    client.req<{ project: { startDate: string }; conflicts: unknown[]; rescheduled: boolean; taskCount: number; savedBefore: Version }>(
      'POST',
      `/api/projects/${projectId}/versions/${versionId}/restore${confirm === null ? '' : `?confirm=${confirm}`}`,
    );
  const full = async (projectId: string) => (await client.req<Full>('GET', `/api/projects/${projectId}`)).body;

  it('restores the calendar of the project and of each task', async () => {
    const project = await client.createProject({ name: 'Shifts', key: 'SHF' });
    const calendar = (await client.req<{ calendar: { id: string } }>('POST', `/api/projects/${project.id}/calendars`, { name: 'Berlin', timeZone: 'Europe/Berlin' })).body.calendar;
    const task = await newTask(client, project.id, { name: 'Night shift', calendarId: calendar.id });
    expectStatus(await client.req('PATCH', `/api/projects/${project.id}`, { calendarId: calendar.id }), 200);
    const saved = (await save(project.id, { name: 'On Berlin time' })).body.version;
    const before = await full(project.id);

    expectStatus(await client.req('PATCH', `/api/projects/${project.id}`, { calendarId: null }), 200);
    expectStatus(await client.patchTask(project.id, task.id, { calendarId: null }), 200);
    expectStatus(await restore(project.id, saved.id, 'SHF'), 200);
    const after = await full(project.id);
    expect(after.project.calendarId).toBe(calendar.id);
    expect(after.tasks.map((t) => [t.calendarId, t.startAt])).toEqual(before.tasks.map((t) => [t.calendarId, t.startAt]));
  });

  it('saves and lists versions, newest first, without their content', async () => {
    const project = await client.createProject({ name: 'Listed', key: 'LST' });
    await newTask(client, project.id, { name: 'A' });
    const first = await save(project.id, { name: 'Approved' });
    expectStatus(first, 201);
    expect(first.body.version).toMatchObject({ projectId: project.id, name: 'Approved', taskCount: 1, createdBy: ada.userId });
    server.clock.advance(1000);
    await newTask(client, project.id, { name: 'B' });
    const second = await save(project.id);
    expect(second.body.version).toMatchObject({ name: null, taskCount: 2 });
    const listed = await list(project.id);
    expectStatus(listed, 200);
    expect(listed.body.versions.map((v) => v.id)).toEqual([second.body.version.id, first.body.version.id]);
    expect(Object.keys(listed.body.versions[0]!).sort()).toEqual(['createdAt', 'createdBy', 'id', 'name', 'projectId', 'taskCount']);
    expectRefused(await save(project.id, { name: 'x'.repeat(limits.nameMaxLength + 1) }), 400, { error: 'invalid_request' });
  });

  it('a restore gives back the saved plan exactly after edits, creations and deletions, and announces itself', async () => {
    const { project, ids } = await richPlan(client, { key: 'RST', ownerId: ada.userId });
    const saved = await full(project.id);
    const version = (await save(project.id, { name: 'Agreed' })).body.version;

    // Edits of every kind, a new task (with a link to a saved one), deletions, a moved subtask, project fields.
    expectStatus(await client.patchTask(project.id, ids.design, { durationMin: 2400, name: 'Design v2', progressPct: 80 }), 200);
    expectStatus(await client.patchTask(project.id, ids.review, { placement: { parentId: ids.phase } }), 200);
    expectStatus(await client.patchTask(project.id, ids.manual, { manuallyScheduled: false, constraintKind: 'must_start_on', constraintDate: '2026-04-01T08:00:00.000Z' }), 200);
    const extra = await newTask(client, project.id, { name: 'Extra', parentId: ids.phase });
    expectStatus(await client.link(project.id, { predecessorId: extra.id, successorId: ids.launch }), 201);
    expectStatus(await client.putAssignees(project.id, ids.build, { userIds: [] }), 200);
    const deleted = await client.req('DELETE', `/api/projects/${project.id}/tasks/${ids.pinned}?confirm=RST-5`);
    expectStatus(deleted, 200);
    expectStatus(await client.req('PATCH', `/api/projects/${project.id}`, { startDate: '2026-03-04', deadline: '2026-06-30' }), 200);
    const seen = (await storedEvents(server, project.id)).length;

    const restored = await restore(project.id, version.id, project.key);
    expectStatus(restored, 200);
    expect(restored.body).toMatchObject({ rescheduled: true, taskCount: 7, project: { startDate: '2026-03-02' }, savedBefore: { name: 'Before restore', taskCount: 7 } });

    const after = await full(project.id);
    expectSamePlan(after, saved);
    expect(after.project).toMatchObject({ startDate: '2026-03-02', deadline: null, scheduleFrom: 'forward' });
    // Saved tasks keep their ids; the one deleted since comes back with its id and a new number.
    expect(after.tasks.map((t) => t.id).sort()).toEqual(saved.tasks.map((t) => t.id).sort());
    expect(after.tasks.find((t) => t.id === ids.pinned)?.number).toBe(9);

    const events = (await storedEvents(server, project.id)).slice(seen);
    const types = events.map((e) => e.type);
    expect(types).toContain('task.created');
    expect(types).toContain('task.deleted');
    expect(types).toContain('task.updated');
    expect(types).toContain('dependency.deleted');
    const restoreEvents = events.filter((e) => e.type === 'project.updated');
    expect(restoreEvents).toHaveLength(1);
    expect(eventData(restoreEvents[0]!)).toMatchObject({ reason: 'restore', changes: { startDate: { from: '2026-03-04', to: '2026-03-02' }, deadline: { from: '2026-06-30', to: null } } });
    expect(types.at(-1)).toBe('project.updated');

    // "Before restore" undoes the restore.
    const undone = await restore(project.id, restored.body.savedBefore.id, project.key);
    expectStatus(undone, 200);
    expect((await full(project.id)).tasks.map((t) => t.name)).toContain('Extra');
  });

  it('announces a restore that changes nothing with one project.updated without changes', async () => {
    const project = await client.createProject({ name: 'Still', key: 'STL' });
    await newTask(client, project.id, { name: 'A' });
    const version = (await save(project.id)).body.version;
    const seen = (await storedEvents(server, project.id)).length;
    expectStatus(await restore(project.id, version.id, 'STL'), 200);
    const events = (await storedEvents(server, project.id)).slice(seen);
    expect(events.map((e) => e.type)).toEqual(['project.updated']);
    expect(eventData(events[0]!)).toMatchObject({ reason: 'restore', changes: {} });
  });

  it('refuses unknown versions, a missing or wrong confirmation, API keys and read-only keys, leaving the plan as it was', async () => {
    const project = await client.createProject({ name: 'Guarded', key: 'GRD' });
    await newTask(client, project.id, { name: 'A' });
    const version = (await save(project.id)).body.version;
    await newTask(client, project.id, { name: 'B' });
    const before = await full(project.id);

    expectRefused(await restore(project.id, uuid(), 'GRD'), 404, { error: 'not_found' });
    expectRefused(await restore(project.id, version.id, null), 400, { error: 'invalid_request' });
    expectRefused(await restore(project.id, version.id, 'NOPE'), 400, { error: 'invalid_request' });
    const path = `/api/projects/${project.id}/versions/${version.id}/restore?confirm=GRD`;
    expectRefused(await server.request('POST', path, { key: apiKey }), 403, { error: 'forbidden', details: { reason: 'destructive' } });
    expectRefused(await server.request('POST', `/api/projects/${project.id}/versions`, { key: readKey, body: {} }), 403, { error: 'forbidden', details: { reason: 'insufficient_scope' } });
    expectStatus(await server.request('GET', `/api/projects/${project.id}/versions`, { key: readKey }), 200);

    // A viewer lists versions but cannot save one.
    const viewer = await signedInPerson(server, 'viewer@example.com');
    const added = await server.cli('project', 'add-member', '--project', project.id, '--email', 'viewer@example.com', '--role', 'viewer');
    expect(added.code, added.stderr).toBe(0);
    const asViewer = planningClient(server, viewer);
    expectStatus(await asViewer.req('GET', `/api/projects/${project.id}/versions`), 200);
    expectRefused(await asViewer.req('POST', `/api/projects/${project.id}/versions`, {}), 403, { error: 'forbidden', details: { reason: 'insufficient_role' } });
    expectRefused(await asViewer.req('POST', path), 403, { error: 'forbidden', details: { reason: 'insufficient_role' } });

    expect(await full(project.id)).toEqual(before);
    expect((await list(project.id)).body.versions).toHaveLength(1);
  });

  it('a restore that fails leaves nothing behind, not even the "Before restore" version', async () => {
    const project = await client.createProject({ name: 'Broken', key: 'BRK' });
    await newTask(client, project.id, { name: 'A' });
    const version = (await save(project.id)).body.version;
    // A saved document the write refuses (a version written by an older or broken release).
    const row = await server.store.q.versions.find(project.id, version.id);
    const document = JSON.parse(row!.document) as { tasks: { durationMin: number }[] };
    document.tasks[0]!.durationMin = -5;
    const brokenId = uuid();
    await server.store.transaction((tx) => tx.versions.insert({ ...row!, id: brokenId, document: JSON.stringify(document) }));
    const before = await full(project.id);
    const refused = await restore(project.id, brokenId, 'BRK');
    expectRefused(refused, 400, { error: 'invalid_request' });
    expect(refused.body.details?.fields?.map((f) => f.path)).toEqual(['tasks[0].durationMin']);
    expect(await full(project.id)).toEqual(before);
    expect((await list(project.id)).body.versions).toHaveLength(2);
  });
});
