import { eventTypes, isOptInEventType, type EventEnvelope } from '@gantry/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { presentEvent } from '../../src/domain/events.js';
import { storedEvents } from '../support/event-check.js';
import { expectStatus, newTask, planningClient, type PlanningClient, type PlanTask, type User } from '../support/planning.js';
import { startReceiver } from '../support/receiver.js';
import { signedInPerson } from '../support/sessions.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;
const scheduleTypes = ['schedule.critical_path_changed', 'schedule.finish_changed'] as const;

// docs/api.md › Events › Opt-in schedule events: delivered to webhooks that name them, never to
// `*`, whatever made the write; the catalog keeps its `events` and lists them apart.
describe('opt-in schedule events', () => {
  let server: TestServer;
  let owner: User;
  let client: PlanningClient;
  let project: { id: string; workspaceId: string };
  /** A workspace-wide webhook naming the two schedule events. */
  let scheduled: Receiver;
  /** A webhook of the project subscribed to `*`. */
  let everything: Receiver;
  let a: PlanTask;
  let b: PlanTask;

  const finishChanges = () => scheduled.of('schedule.finish_changed').map((event) => event.data);
  const criticalPathChanges = () => scheduled.of('schedule.critical_path_changed').map((event) => event.data);
  const named = (task: PlanTask) => ({ taskId: task.id, key: task.key, name: task.name });

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_WEBHOOK_ALLOW_PRIVATE: '1', GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    owner = await provisionUser(server, 'schedule-events@example.com');
    client = planningClient(server, owner.key);
    [scheduled, everything] = await Promise.all([startReceiver(), startReceiver()]);
    project = await client.createProject({ name: 'Schedule', key: 'SCH', startDate: '2026-03-02' });
    const subscribe = async (body: Record<string, unknown>) => expectStatus(await server.request('POST', '/api/webhooks', { key: owner.key, body }), 201);
    await subscribe({ url: scheduled.url, events: [...scheduleTypes], workspaceId: project.workspaceId });
    await subscribe({ url: everything.url, events: ['*'], projectId: project.id });
  });
  afterAll(async () => {
    await scheduled.close();
    await everything.close();
    await server.close();
  });
  beforeEach(async () => {
    await server.deliverAll();
    scheduled.calls.length = 0;
    everything.calls.length = 0;
  });

  it('the first tasks: the finish moves from none, and the longest task enters the critical path', async () => {
    a = await newTask(client, project.id, { name: 'A', durationMin: 960 });
    b = await newTask(client, project.id, { name: 'B', durationMin: 480 });
    expect([a.isCritical, b.isCritical]).toEqual([true, false]);
    await server.deliverAll();
    expect(finishChanges()).toEqual([{ from: null, to: '2026-03-03T17:00:00.000Z' }]);
    // B, shorter than A, has float: only A entered.
    expect(criticalPathChanges()).toEqual([{ entered: [named(a)], left: [] }]);
  });

  it('schedule.finish_changed when a PATCH lengthens the last task, with the finish before and after', async () => {
    const patched = await client.patchTask(project.id, a.id, { durationMin: 1440 });
    expectStatus(patched, 200);
    await server.deliverAll();
    expect(finishChanges()).toEqual([{ from: '2026-03-03T17:00:00.000Z', to: patched.body.projectFinishAt }]);
    expect(patched.body.projectFinishAt).toBe('2026-03-04T17:00:00.000Z');
    // A was critical and stays so; B still has float.
    expect(criticalPathChanges()).toEqual([]);
  });

  it('schedule.critical_path_changed when a link makes a task critical, and when removing it makes it leave', async () => {
    const linked = await client.link(project.id, { predecessorId: a.id, successorId: b.id });
    expectStatus(linked, 201);
    await server.deliverAll();
    expect(criticalPathChanges()).toEqual([{ entered: [named(b)], left: [] }]);
    expect(finishChanges()).toEqual([{ from: '2026-03-04T17:00:00.000Z', to: '2026-03-05T17:00:00.000Z' }]);

    scheduled.calls.length = 0;
    expectStatus(await client.unlink(project.id, linked.body.dependencies[0]?.id as string), 200);
    await server.deliverAll();
    expect(criticalPathChanges()).toEqual([{ entered: [], left: [named(b)] }]);
    expect(finishChanges()).toEqual([{ from: '2026-03-05T17:00:00.000Z', to: '2026-03-04T17:00:00.000Z' }]);
  });

  it('whatever made the write: a new project start date moves the finish', async () => {
    expectStatus(await server.request('PATCH', `/api/projects/${project.id}`, { key: owner.key, body: { startDate: '2026-03-09' } }), 200);
    await server.deliverAll();
    expect(finishChanges()).toEqual([{ from: '2026-03-04T17:00:00.000Z', to: '2026-03-11T17:00:00.000Z' }]);
    expect(criticalPathChanges()).toEqual([]);
  });

  it('nothing for a no-op PATCH, a write that leaves the schedule as it was, or a dry run', async () => {
    expectStatus(await client.patchTask(project.id, a.id, { durationMin: 1440 }), 200);
    expectStatus(await client.patchTask(project.id, b.id, { notes: 'renamed nothing that schedules' }), 200);
    expectStatus(await client.req('PATCH', `/api/projects/${project.id}/tasks/${a.id}?dryRun=true`, { durationMin: 2400 }), 200);
    await server.deliverAll();
    expect(scheduled.calls).toEqual([]);
    expect(everything.of('task.updated')).toHaveLength(1);
  });

  it('nothing for the write that creates a project: project.created announces its plan', async () => {
    const copy = await server.request<{ project: { id: string } }>('POST', `/api/projects/${project.id}/duplicate`, { key: owner.key, body: { key: 'SCC' } });
    expectStatus(copy, 201);
    await server.deliverAll();
    expect(scheduled.calls).toEqual([]);
    // Its first edit is an ordinary write.
    const copied = (await client.fullProject(copy.body.project.id)).body.tasks.find((task) => task.name === 'A') as PlanTask;
    expectStatus(await client.patchTask(copy.body.project.id, copied.id, { durationMin: 480 }), 200);
    await server.deliverAll();
    expect(scheduled.of('schedule.finish_changed').map((event) => event.projectId)).toEqual([copy.body.project.id]);
  });

  it("a '*' webhook receives every catalog event of the project and none of the schedule events", async () => {
    const before = everything.calls.length;
    expectStatus(await client.patchTask(project.id, b.id, { durationMin: 2400 }), 200);
    await server.deliverAll();
    expect(scheduled.calls.map((call) => call.body.type).sort()).toEqual([...scheduleTypes]);
    expect(everything.calls.length).toBeGreaterThan(before);

    // The outbox holds both kinds: the workspace-wide webhook names the schedule events.
    const outbox = (await storedEvents(server, project.id)).map(presentEvent);
    expect(outbox.some((event) => isOptInEventType(event.type))).toBe(true);
    const { since, received } = await deliveredToEverything();
    const described = (events: EventEnvelope[]) => events.map((event) => `${event.type} ${event.id}`).sort();
    expect(received.every((event) => (eventTypes as readonly string[]).includes(event.type))).toBe(true);
    expect(described(received)).toEqual(described(outbox.filter((event) => !isOptInEventType(event.type) && event.createdAt >= since)));
  });

  it('a write appends no schedule event where no webhook names one', async () => {
    const other = planningClient(server, (await provisionUser(server, 'no-schedule-hooks@example.com')).key);
    const elsewhere = await other.createProject({ name: 'Unwatched', key: 'UNW' });
    const task = await newTask(other, elsewhere.id, { name: 'Only', durationMin: 480 });
    expectStatus(await other.patchTask(elsewhere.id, task.id, { durationMin: 960 }), 200);
    const types = (await storedEvents(server, elsewhere.id)).map((event) => event.type);
    expect(types).toContain('task.dates_changed');
    expect(types.filter(isOptInEventType)).toEqual([]);
  });

  it('deleting tasks in the web app: a deleted critical task leaves, and the finish is none once the last is gone', async () => {
    const person = await signedInPerson(server, 'schedule-deleter@example.com');
    const web = planningClient(server, person);
    const own = await web.createProject({ name: 'Deleted', key: 'DEL', startDate: '2026-03-02' });
    const subscribed = await web.req('POST', '/api/webhooks', { url: scheduled.url, events: [...scheduleTypes], projectId: own.id });
    expectStatus(subscribed, 201);
    const long = await newTask(web, own.id, { name: 'Long', durationMin: 960 });
    const short = await newTask(web, own.id, { name: 'Short', durationMin: 480 });
    await server.deliverAll();
    scheduled.calls.length = 0;

    expectStatus(await web.req('DELETE', `/api/projects/${own.id}/tasks/${long.id}?confirm=${long.key}`), 200);
    expectStatus(await web.req('DELETE', `/api/projects/${own.id}/tasks/${short.id}?confirm=${short.key}`), 200);
    await server.deliverAll();
    const ofProject = <T extends { projectId: string; createdAt: string }>(events: T[]) => events.filter((event) => event.projectId === own.id).sort((x, y) => x.createdAt.localeCompare(y.createdAt));
    // Without Long, Short (the only task left) is the whole critical path.
    expect(ofProject(scheduled.of('schedule.critical_path_changed')).map((event) => event.data)).toEqual([
      { entered: [named(short)], left: [named(long)] },
      { entered: [], left: [named(short)] },
    ]);
    expect(ofProject(scheduled.of('schedule.finish_changed')).map((event) => event.data)).toEqual([
      { from: '2026-03-03T17:00:00.000Z', to: '2026-03-02T17:00:00.000Z' },
      { from: '2026-03-02T17:00:00.000Z', to: null },
    ]);
  });

  it('subscribing: the schedule types by name, an unknown type is still 400', async () => {
    const subscribe = (events: string[]) => server.request('POST', '/api/webhooks', { key: owner.key, body: { url: scheduled.url, events, projectId: project.id } });
    expectStatus(await subscribe(['schedule.finish_changed']), 201);
    expectStatus(await subscribe(['*', 'schedule.critical_path_changed']), 201);
    const unknown = await subscribe(['schedule.started']);
    expectStatus(unknown, 400);
    expect(unknown.body).toMatchObject({ details: { fields: [{ path: 'events[0]' }] } });
  });

  it('the catalog keeps its events and lists the schedule events under optInEvents', async () => {
    const catalog = await server.request<{ events: { type: string }[]; optInEvents: { type: string; description: string }[] }>('GET', '/api/webhooks/events', { key: owner.key });
    expectStatus(catalog, 200);
    expect(catalog.body.events.map((event) => event.type)).toEqual([...eventTypes, 'webhook.ping']);
    expect(catalog.body.optInEvents.map((event) => event.type)).toEqual([...scheduleTypes]);
    for (const event of catalog.body.optInEvents) expect(event.description).toMatch(/^Opt-in: /);
  });

  /** When the `*` webhook was made, and every event it was sent since, from its delivery log. */
  async function deliveredToEverything(): Promise<{ since: string; received: EventEnvelope[] }> {
    const list = await server.request<{ webhooks: { id: string; events: string[]; projectId: string | null; createdAt: string }[] }>('GET', '/api/webhooks', { key: owner.key });
    const webhook = list.body.webhooks.find((w) => w.events.join() === '*' && w.projectId === project.id);
    const received: EventEnvelope[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { deliveries: { payload: EventEnvelope }[]; nextCursor: string | null } } = await server.request(
        'GET',
        `/api/webhooks/${webhook?.id}/deliveries?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
        { key: owner.key },
      );
      received.push(...page.body.deliveries.map((delivery) => delivery.payload));
      cursor = page.body.nextCursor;
    } while (cursor);
    return { since: webhook?.createdAt ?? '', received };
  }
});
