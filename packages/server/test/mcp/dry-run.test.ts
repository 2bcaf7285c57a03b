import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookWorker } from '../../src/webhooks/delivery-worker.js';
import { storedEvents } from '../support/event-check.js';
import { planningClient, scheduleDrift, uuid, type PlanTask, type PlanningClient, type WriteResult } from '../support/planning.js';
import { startReceiver } from '../support/receiver.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';
import { callOk, connectModern, type McpClient } from './support.js';

const dates = (tasks: PlanTask[]) => tasks.map((t) => ({ id: t.id, durationMin: t.durationMin, startAt: t.startAt, finishAt: t.finishAt, totalFloatMin: t.totalFloatMin }));

// docs/mcp.md › what_if: a dry run answers what apply_changes would, and leaves no trace —
// no row, no event, no webhook, nothing in the plan or read caches; a write through MCP is
// announced like any other.
describe('MCP what_if and apply_changes', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let worker: WebhookWorker;
  let rest: PlanningClient;
  let client: McpClient;
  let secret: string;
  let projectId: string;
  let design: PlanTask;
  let build: PlanTask;
  const stripe = new Stripe('sk_test_not_used');

  const drain = async () => {
    for (let round = 0; round < 10 && (await worker.runOnce()); round++);
  };
  /** The full plan as REST serves it, byte for byte. */
  const planBytes = async () => {
    const response = await fetch(`${server.url}/api/projects/${projectId}`, { headers: { authorization: `Bearer ${rest.key}` } });
    expect(response.status).toBe(200);
    return response.text();
  };

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_WEBHOOK_ALLOW_PRIVATE: '1', GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    receiver = await startReceiver();
    worker = server.webhookWorker({ timeoutMs: 2000 });
    const owner = await provisionUser(server, 'whatif@example.com');
    rest = planningClient(server, owner.key);
    projectId = (await rest.createProject({ name: 'Launch' })).id;
    const [designId, buildId] = [uuid(), uuid()];
    const created = await rest.changeSet(projectId, {
      createTasks: [
        { id: designId, name: 'Design', durationMin: 960 },
        { id: buildId, name: 'Build', durationMin: 2400 },
      ],
      createDependencies: [{ predecessorId: designId, successorId: buildId }],
    });
    expect(created.status).toBe(200);
    [design, build] = [designId, buildId].map((id) => created.body.tasks.find((t) => t.id === id)) as [PlanTask, PlanTask];
    const hook = await server.request<{ secret: string }>('POST', '/api/webhooks', { key: owner.key, body: { url: receiver.url, events: ['*'], projectId } });
    expect(hook.status).toBe(201);
    secret = hook.body.secret;
    await drain();
    receiver.calls.length = 0;
    client = await connectModern(server, owner.key);
  });
  afterAll(async () => {
    await client?.close();
    await receiver.close();
    await server.close();
  });

  it('answers what the change set would do and changes nothing; apply_changes then saves the same and announces it', async () => {
    const testId = uuid();
    const changes = {
      createTasks: [{ id: testId, name: 'Test', durationMin: 480 }],
      updateTasks: [{ id: design.id, durationMin: 1920 }],
      createDependencies: [{ predecessorId: build.id, successorId: testId }],
    };
    const before = await planBytes();
    const eventsBefore = (await storedEvents(server, projectId)).length;

    const tried = await callOk<WriteResult>(client, 'what_if', { projectId, ...changes });
    // The answer is the write's: the new task, the longer design, and the build it pushes out.
    expect(tried.structuredContent.tasks.map((t) => t.id).sort()).toEqual([design.id, build.id, testId].sort());
    const triedBuild = tried.structuredContent.tasks.find((t) => t.id === build.id);
    expect(triedBuild && triedBuild.startAt! > build.startAt!).toBe(true);
    expect(tried.structuredContent.projectFinishAt > build.finishAt!).toBe(true);

    // Nothing saved, cached or announced.
    expect(await planBytes()).toBe(before);
    expect((await storedEvents(server, projectId)).length).toBe(eventsBefore);
    await drain();
    expect(receiver.calls).toEqual([]);

    // The next write starts from the plan cache: it must not see the dry run either.
    const renamed = await rest.patchTask(projectId, build.id, { name: 'Build it' });
    expect(renamed.status).toBe(200);
    const after = (await rest.fullProject(projectId)).body;
    expect(after.tasks.map((t) => t.id)).toEqual([design.id, build.id]);
    expect(dates(after.tasks)).toEqual(dates([design, build]));
    expect(await scheduleDrift(server, projectId)).toEqual([]);
    await drain();
    expect(receiver.calls.map((call) => call.body.type)).toEqual(['task.updated']);
    receiver.calls.length = 0;

    // Applied for real: the same answer, saved and announced with a signed delivery.
    const applied = await callOk<WriteResult>(client, 'apply_changes', { projectId, ...changes });
    expect(dates(applied.structuredContent.tasks)).toEqual(dates(tried.structuredContent.tasks));
    expect(applied.structuredContent.projectFinishAt).toBe(tried.structuredContent.projectFinishAt);
    const saved = (await rest.fullProject(projectId)).body;
    expect(dates(saved.tasks).sort((a, b) => a.id.localeCompare(b.id))).toEqual(dates(applied.structuredContent.tasks).sort((a, b) => a.id.localeCompare(b.id)));
    expect(await scheduleDrift(server, projectId)).toEqual([]);
    expect((await storedEvents(server, projectId)).length).toBeGreaterThan(eventsBefore + 1);

    await drain();
    const createdCall = receiver.calls.find((call) => call.body.type === 'task.created');
    expect(createdCall, JSON.stringify(receiver.calls.map((call) => call.body.type))).toBeDefined();
    const event = stripe.webhooks.constructEvent(createdCall?.rawBody ?? '', createdCall?.headers['service-signature'] as string, secret) as unknown as {
      data: { task: { id: string } };
      actor: { name: string };
    };
    expect(event.data.task.id).toBe(testId);
    expect(event.actor.name).toBe('whatif');
    expect(receiver.calls.map((call) => call.body.type)).toEqual(expect.arrayContaining(['task.created', 'task.updated', 'task.dates_changed', 'dependency.created']));
  });

  it('leaves nothing behind when the dry run is refused', async () => {
    const before = await planBytes();
    const result = (await client.callTool({ name: 'what_if', arguments: { projectId, createDependencies: [{ predecessorId: build.id, successorId: design.id }] } })) as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0]?.text ?? '{}')).toMatchObject({ error: 'dependency_cycle' });
    expect(await planBytes()).toBe(before);
  });
});
