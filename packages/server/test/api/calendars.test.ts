import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedEvents } from '../support/event-check.js';
import {
  addProjectMember,
  eventData,
  expectRefused,
  expectStatus,
  fieldPaths,
  newTask,
  planningClient,
  readOnlyKey,
  scheduleDrift,
  uuid,
  type PlanningClient,
  type User,
} from '../support/planning.js';
import { signedInPerson } from '../support/sessions.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

interface Calendar {
  id: string;
  projectId: string;
  name: string;
  timeZone: string;
  weekly: ([string, string][] | null)[];
  exceptions: { name: string | null; from: string; to: string; intervals: [string, string][] }[];
  baseCalendarId: string | null;
}
type CalendarPatchResult = { calendar: Calendar; conflicts: unknown[]; rescheduled: boolean };

const day: [string, string][] = [
  ['08:00', '12:00'],
  ['13:00', '17:00'],
];
const standardWeek = [[], day, day, day, day, day, []];
const aroundTheClock = Array.from({ length: 7 }, () => [['00:00', '24:00']]);

// docs/api.md › Calendars: a project's working calendars, the project's and its tasks'
// calendarId, and rescheduling when working times change.
describe('calendars', () => {
  let server: TestServer;
  let owner: User;
  let client: PlanningClient;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    owner = await provisionUser(server, 'planner@example.com');
    client = planningClient(server, owner.key);
  });
  afterAll(() => server.close());

  const calendarsPath = (projectId: string) => `/api/projects/${projectId}/calendars`;
  const createCalendar = (projectId: string, body: Record<string, unknown>, key = owner.key) =>
    server.request<{ calendar: Calendar } & Parameters<typeof fieldPaths>[0]>('POST', calendarsPath(projectId), { key, body });
  const patchCalendar = (projectId: string, calendarId: string, body: Record<string, unknown>) =>
    server.request<CalendarPatchResult & Parameters<typeof fieldPaths>[0]>('PATCH', `${calendarsPath(projectId)}/${calendarId}`, { key: owner.key, body });
  const patchProject = (projectId: string, body: Record<string, unknown>) =>
    server.request<{ project: { calendarId: string | null }; rescheduled: boolean } & Parameters<typeof fieldPaths>[0]>('PATCH', `/api/projects/${projectId}`, { key: owner.key, body });
  async function calendarOf(projectId: string, body: Record<string, unknown>): Promise<Calendar> {
    const created = await createCalendar(projectId, body);
    expectStatus(created, 201);
    return created.body.calendar;
  }
  async function datesOf(projectId: string): Promise<Record<string, [string | null, string | null]>> {
    const full = await client.fullProject(projectId);
    return Object.fromEntries(full.body.tasks.map((task) => [task.name, [task.startAt, task.finishAt]]));
  }
  const movedTaskIds = async (projectId: string, since: number) =>
    (await storedEvents(server, projectId))
      .slice(since)
      .filter((event) => event.type === 'task.dates_changed')
      .map((event) => eventData(event) as { cause: string; task: { id: string } })
      .map(({ cause, task }) => `${cause} ${task.id}`);

  it('creates a calendar with the defaults, lists it, reads it and changes it', async () => {
    const project = await client.createProject({ name: 'Offices' });
    const created = await calendarOf(project.id, { name: 'Berlin office', timeZone: 'Europe/Berlin' });
    expect(created).toMatchObject({ projectId: project.id, name: 'Berlin office', timeZone: 'Europe/Berlin', weekly: standardWeek, exceptions: [], baseCalendarId: null });
    const utc = await calendarOf(project.id, { name: 'Plain' });
    expect(utc.timeZone).toBe('UTC');

    const listed = await server.request<{ calendars: Calendar[] }>('GET', calendarsPath(project.id), { key: owner.key });
    expectStatus(listed, 200);
    expect(listed.body.calendars.map((calendar) => calendar.name)).toEqual(['Berlin office', 'Plain']);
    const read = await server.request<{ calendar: Calendar }>('GET', `${calendarsPath(project.id)}/${created.id}`, { key: owner.key });
    expect(read.body.calendar).toEqual(created);
    const plan = await server.request<{ calendars: Calendar[] }>('GET', `/api/projects/${project.id}`, { key: owner.key });
    expect(plan.body.calendars).toEqual(listed.body.calendars);

    const exceptions = [{ name: 'Christmas', from: '2026-12-24', to: '2026-12-26', intervals: [] }];
    const patched = await patchCalendar(project.id, created.id, { name: 'Berlin', exceptions, baseCalendarId: utc.id });
    expectStatus(patched, 200);
    expect(patched.body).toMatchObject({ calendar: { name: 'Berlin', timeZone: 'Europe/Berlin', exceptions, baseCalendarId: utc.id }, conflicts: [], rescheduled: false });
    // The full read is cached per plan version: a calendar write moves it.
    const replanned = await server.request<{ calendars: Calendar[] }>('GET', `/api/projects/${project.id}`, { key: owner.key });
    expect(replanned.body.calendars.find((calendar) => calendar.id === created.id)).toEqual(patched.body.calendar);
    expectStatus(await server.request('GET', `${calendarsPath(project.id)}/${uuid()}`, { key: owner.key }), 404);
  });

  it('deletes a calendar nothing works on, for the person signed in alone; one in use is refused with 409 naming what works on it', async () => {
    const person = await signedInPerson(server, 'calendar-keeper@example.com');
    const asPerson = <T>(method: string, pathname: string, body?: unknown) => server.request<T>(method, pathname, { headers: person.headers, body });
    const { body: created } = await asPerson<{ project: { id: string } }>('POST', '/api/projects', { name: 'Calendars to tidy' });
    const projectId = created.project.id;
    const make = async (body: Record<string, unknown>) => (await asPerson<{ calendar: Calendar }>('POST', calendarsPath(projectId), body)).body.calendar;
    const base = await make({ name: 'Base' });
    const derived = await make({ name: 'Derived', baseCalendarId: base.id });
    const ofProject = await make({ name: 'Project calendar' });
    const ofTask = await make({ name: 'Task calendar' });
    const unused = await make({ name: 'Unused', exceptions: [{ name: 'Christmas', from: '2026-12-25', to: '2026-12-25', intervals: [] }] });
    expectStatus(await asPerson('PATCH', `/api/projects/${projectId}`, { calendarId: ofProject.id }), 200);
    const { body: written } = await asPerson<{ tasks: { id: string }[] }>('POST', `/api/projects/${projectId}/tasks`, { name: 'On a calendar of its own', calendarId: ofTask.id });
    const taskId = written.tasks[0]!.id;
    const remove = (calendar: Calendar, options: { key?: string } = {}) =>
      server.request('DELETE', `${calendarsPath(projectId)}/${calendar.id}`, options.key ? { key: options.key } : { headers: person.headers });
    const names = async () => (await asPerson<{ calendars: Calendar[] }>('GET', calendarsPath(projectId))).body.calendars.map((calendar) => calendar.name);

    // An API key never deletes, not even what the person may delete; a viewer may not either.
    const key = ((await server.cli('key', 'create', '--email', person.email, '--scope', 'write', '--json')).json as { key: string }).key;
    expectRefused(await remove(unused, { key }), 403, { error: 'forbidden', details: { reason: 'destructive' } });
    const viewer = await signedInPerson(server, 'calendar-viewer@example.com');
    await addProjectMember(server, projectId, viewer.email, 'viewer');
    expectRefused(await server.request('DELETE', `${calendarsPath(projectId)}/${unused.id}`, { headers: viewer.headers }), 403, { details: { reason: 'insufficient_role' } });

    // In use by the project, by a task, as the base of another calendar: refused, nothing moves.
    const before = (await asPerson<{ tasks: unknown[] }>('GET', `/api/projects/${projectId}`)).body.tasks;
    expectRefused(await remove(ofProject), 409, { error: 'conflict', details: { usedBy: { project: true, taskIds: [], calendarIds: [] } } });
    expectRefused(await remove(ofTask), 409, { error: 'conflict', details: { usedBy: { project: false, taskIds: [taskId], calendarIds: [] } } });
    expectRefused(await remove(base), 409, { error: 'conflict', details: { usedBy: { project: false, taskIds: [], calendarIds: [derived.id] } } });
    expect((await asPerson<{ tasks: unknown[] }>('GET', `/api/projects/${projectId}`)).body.tasks).toEqual(before);
    expect(await names()).toEqual(['Base', 'Derived', 'Project calendar', 'Task calendar', 'Unused']);

    expectStatus(await remove(unused), 204);
    expectStatus(await remove(unused), 404);
    expectStatus(await remove(derived), 204);
    expectStatus(await remove(base), 204);
    expect(await names()).toEqual(['Project calendar', 'Task calendar']);
    // The full read (cached per plan version) no longer holds them either.
    expect((await asPerson<{ calendars: Calendar[] }>('GET', `/api/projects/${projectId}`)).body.calendars.map((calendar) => calendar.name)).toEqual(['Project calendar', 'Task calendar']);
  });

  it('refuses what the scheduler cannot work with: 400 invalid_request naming each field', async () => {
    const project = await client.createProject({ name: 'Refusals' });
    const refused = async (body: Record<string, unknown>, path: string) => {
      const response = await createCalendar(project.id, { name: 'Bad', ...body });
      expectRefused(response, 400, { error: 'invalid_request' });
      expect(fieldPaths(response.body), JSON.stringify(response.body)).toContain(path);
    };
    await refused({ timeZone: 'Mars/Olympus_Mons' }, 'timeZone');
    await refused({ timeZone: '+01:00' }, 'timeZone');
    await refused({ weekly: [[], [['08:00', '25:00']], day, day, day, day, []] }, 'weekly[1][0][1]');
    await refused({ weekly: [[], [['12:00', '08:00']], day, day, day, day, []] }, 'weekly[1][0]');
    await refused({ weekly: [[], [['08:00', '12:00'], ['11:00', '13:00']], day, day, day, day, []] }, 'weekly[1][1]');
    await refused({ weekly: [[], day, day, day, day, day] }, 'weekly');
    await refused({ exceptions: [{ name: 'Backwards', from: '2026-05-02', to: '2026-05-01', intervals: [] }] }, 'exceptions[0].to');
    await refused({ exceptions: [{ name: 'Far', from: '1500-01-01', to: '1500-01-02', intervals: [] }] }, 'exceptions[0].from');
    await refused({ baseCalendarId: uuid() }, 'baseCalendarId');
    await refused({ weekly: [[], [], [], [], [], [], []] }, 'weekly');

    const base = await calendarOf(project.id, { name: 'Base' });
    const derived = await calendarOf(project.id, { name: 'Derived', baseCalendarId: base.id, weekly: [null, null, null, null, null, null, null] });
    const cycle = await patchCalendar(project.id, base.id, { baseCalendarId: derived.id });
    expectRefused(cycle, 400, { error: 'invalid_request', details: { fields: [{ path: 'baseCalendarId', message: 'would make a cycle of base calendars: Base → Derived → Base' }] } });
    const self = await patchCalendar(project.id, base.id, { baseCalendarId: base.id });
    expect(fieldPaths(self.body)).toEqual(['baseCalendarId']);
    // The derived calendar inherits every day: a base without working time would leave it none either.
    const idle = await patchCalendar(project.id, base.id, { weekly: [[], [], [], [], [], [], []] });
    expectRefused(idle, 400, { error: 'invalid_request' });
    expect(idle.body.details?.fields?.map((field) => field.message)).toEqual([
      'the week has no working time (null days inherit from the base calendar): a calendar needs some',
      'would leave the calendar "Derived", based on this one, without working time in its week',
    ]);

    const other = await client.createProject({ name: 'Elsewhere' });
    const foreignBase = await createCalendar(other.id, { name: 'Foreign', baseCalendarId: base.id });
    expect(fieldPaths(foreignBase.body)).toEqual(['baseCalendarId']);
  });

  it('lets viewers read, refuses them and read keys writing, and hides other workspaces\' projects', async () => {
    const [viewer, stranger, readKey] = await Promise.all([
      provisionUser(server, 'viewer@example.com'),
      provisionUser(server, 'stranger@example.com'),
      readOnlyKey(server, 'planner@example.com'),
    ]);
    const project = await client.createProject({ name: 'Guarded', key: 'GRD' });
    await addProjectMember(server, project.id, 'viewer@example.com', 'viewer');
    const calendar = await calendarOf(project.id, { name: 'Team' });

    expectStatus(await server.request('GET', calendarsPath(project.id), { key: viewer.key }), 200);
    expectStatus(await server.request('GET', `${calendarsPath(project.id)}/${calendar.id}`, { key: viewer.key }), 200);
    expectRefused(await createCalendar(project.id, { name: 'Mine' }, viewer.key), 403, { error: 'forbidden', details: { reason: 'insufficient_role' } });
    expectRefused(await server.request('PATCH', `${calendarsPath(project.id)}/${calendar.id}`, { key: viewer.key, body: { name: 'Mine' } }), 403, { error: 'forbidden' });
    expectRefused(await createCalendar(project.id, { name: 'Mine' }, readKey), 403, { error: 'forbidden', details: { reason: 'insufficient_scope' } });
    expectStatus(await server.request('GET', calendarsPath(project.id), { key: readKey }), 200);

    expectRefused(await server.request('GET', calendarsPath(project.id), { key: stranger.key }), 404, { error: 'not_found' });
    expectRefused(await server.request('GET', `${calendarsPath(project.id)}/${calendar.id}`, { key: stranger.key }), 404, { error: 'not_found' });
    expectRefused(await createCalendar(project.id, { name: 'Mine' }, stranger.key), 404, { error: 'not_found' });
  });

  it('starts a project created in America/New_York at 08:00 New York time', async () => {
    const project = await client.createProject({ name: 'New York', startDate: '2026-01-05', timeZone: 'America/New_York' });
    const calendars = await server.request<{ calendars: Calendar[] }>('GET', calendarsPath(project.id), { key: owner.key });
    expect(calendars.body.calendars).toEqual([expect.objectContaining({ name: 'Standard', timeZone: 'America/New_York', weekly: standardWeek })]);
    const [standard] = calendars.body.calendars as [Calendar];
    expect((await client.fullProject(project.id)).body.project).toMatchObject({ calendarId: standard.id });
    const listed = await server.request<{ projects: { id: string; finishAt: string }[] }>('GET', '/api/projects', { key: owner.key });
    expect(listed.body.projects.find((p) => p.id === project.id)?.finishAt).toBe('2026-01-05T13:00:00.000Z');

    const task = await newTask(client, project.id, { name: 'Kick-off', durationMin: 480 });
    expect(task).toMatchObject({ startAt: '2026-01-05T13:00:00.000Z', finishAt: '2026-01-05T22:00:00.000Z' });
    // Summer time: 08:00 EDT is 12:00 UTC.
    expectStatus(await patchProject(project.id, { startDate: '2026-07-06' }), 200);
    expect((await datesOf(project.id))['Kick-off']).toEqual(['2026-07-06T12:00:00.000Z', '2026-07-06T21:00:00.000Z']);
  });

  it('moves the plan when the project calendar changes: rescheduled, project.updated with the calendar, task.dates_changed', async () => {
    const project = await client.createProject({ name: 'Holidays', startDate: '2026-03-02' });
    const design = await newTask(client, project.id, { name: 'Design', durationMin: 960 });
    const build = await newTask(client, project.id, { name: 'Build', durationMin: 480 });
    expectStatus(await client.link(project.id, { predecessorId: design.id, successorId: build.id }), 201);
    expect(await datesOf(project.id)).toEqual({
      Design: ['2026-03-02T08:00:00.000Z', '2026-03-03T17:00:00.000Z'],
      Build: ['2026-03-04T08:00:00.000Z', '2026-03-04T17:00:00.000Z'],
    });
    const office = await calendarOf(project.id, { name: 'Office' });
    const unused = await patchCalendar(project.id, office.id, { exceptions: [{ name: 'Holiday', from: '2026-03-03', to: '2026-03-03', intervals: [] }] });
    expect(unused.body.rescheduled).toBe(false);
    expect((await datesOf(project.id)).Design).toEqual(['2026-03-02T08:00:00.000Z', '2026-03-03T17:00:00.000Z']);

    const before = (await storedEvents(server, project.id)).length;
    const patched = await patchProject(project.id, { calendarId: office.id });
    expectStatus(patched, 200);
    expect(patched.body).toMatchObject({ project: { calendarId: office.id }, rescheduled: true });
    expect(await datesOf(project.id)).toEqual({
      Design: ['2026-03-02T08:00:00.000Z', '2026-03-04T17:00:00.000Z'],
      Build: ['2026-03-05T08:00:00.000Z', '2026-03-05T17:00:00.000Z'],
    });
    const events = (await storedEvents(server, project.id)).slice(before);
    const updated = events.find((event) => event.type === 'project.updated');
    expect(updated && eventData(updated)).toMatchObject({ changes: { calendarId: { from: null, to: office.id } } });
    expect(await movedTaskIds(project.id, before)).toEqual([`reschedule ${design.id}`, `reschedule ${build.id}`]);

    // A second holiday, on the calendar the project works on: the same write moves both tasks again.
    const since = (await storedEvents(server, project.id)).length;
    const holidays = [
      { name: 'Holiday', from: '2026-03-03', to: '2026-03-03', intervals: [] },
      { name: 'Bridge day', from: '2026-03-05', to: '2026-03-05', intervals: [] },
    ];
    const rescheduled = await patchCalendar(project.id, office.id, { exceptions: holidays });
    expectStatus(rescheduled, 200);
    expect(rescheduled.body).toMatchObject({ rescheduled: true, conflicts: [] });
    expect(await datesOf(project.id)).toEqual({
      Design: ['2026-03-02T08:00:00.000Z', '2026-03-04T17:00:00.000Z'],
      Build: ['2026-03-06T08:00:00.000Z', '2026-03-06T17:00:00.000Z'],
    });
    expect(await movedTaskIds(project.id, since)).toEqual([`reschedule ${build.id}`]);
    // What was stored is what the engine computes from the stored rows and calendars.
    expect(await scheduleDrift(server, project.id)).toEqual([]);
    // A new name changes no working time: nothing is recalculated.
    expect((await patchCalendar(project.id, office.id, { name: 'Main office' })).body).toMatchObject({ calendar: { name: 'Main office' }, rescheduled: false });

    // Back to the Standard calendar.
    const standard = await patchProject(project.id, { calendarId: null });
    expect(standard.body).toMatchObject({ project: { calendarId: null }, rescheduled: true });
    expect((await datesOf(project.id)).Build).toEqual(['2026-03-04T08:00:00.000Z', '2026-03-04T17:00:00.000Z']);
  });

  it('reschedules through a base calendar: a change of the base moves tasks on calendars based on it', async () => {
    const project = await client.createProject({ name: 'Bases', startDate: '2026-03-02' });
    const base = await calendarOf(project.id, { name: 'Company' });
    const team = await calendarOf(project.id, { name: 'Team', baseCalendarId: base.id, weekly: [null, null, null, null, null, null, null] });
    const task = await newTask(client, project.id, { name: 'Work', durationMin: 480, calendarId: team.id });
    expect(task).toMatchObject({ calendarId: team.id, startAt: '2026-03-02T08:00:00.000Z' });
    const patched = await patchCalendar(project.id, base.id, { exceptions: [{ name: 'Closed', from: '2026-03-02', to: '2026-03-02', intervals: [] }] });
    expect(patched.body.rescheduled).toBe(true);
    expect((await datesOf(project.id)).Work).toEqual(['2026-03-03T08:00:00.000Z', '2026-03-03T17:00:00.000Z']);
  });

  it('a task calendar changes only that task; a calendar of another project is refused on the field', async () => {
    const project = await client.createProject({ name: 'Shifts', startDate: '2026-03-02' });
    const plain = await newTask(client, project.id, { name: 'Office work', durationMin: 960 });
    const shift = await newTask(client, project.id, { name: 'Shift work', durationMin: 960 });
    const allDay = await calendarOf(project.id, { name: '24 hours', weekly: aroundTheClock });

    const patched = await client.patchTask(project.id, shift.id, { calendarId: allDay.id });
    expectStatus(patched, 200);
    expect(patched.body.tasks.map((task) => task.id)).toEqual([shift.id]);
    expect(await datesOf(project.id)).toEqual({
      'Office work': [plain.startAt, plain.finishAt],
      'Shift work': ['2026-03-02T00:00:00.000Z', '2026-03-02T16:00:00.000Z'],
    });

    const other = await client.createProject({ name: 'Other' });
    const foreign = await calendarOf(other.id, { name: 'Foreign' });
    const onTask = await client.patchTask(project.id, plain.id, { calendarId: foreign.id });
    expectRefused(onTask, 400, { error: 'invalid_request', details: { fields: [{ path: 'calendarId', message: 'no such calendar in this project' }] } });
    const inChangeSet = await client.changeSet(project.id, { createTasks: [{ name: 'New', calendarId: foreign.id }] });
    expect(fieldPaths(inChangeSet.body)).toEqual(['createTasks[0].calendarId']);
    const onProject = await patchProject(project.id, { calendarId: foreign.id });
    expectRefused(onProject, 400, { error: 'invalid_request', details: { fields: [{ path: 'calendarId', message: 'no such calendar in this project' }] } });
  });
});
