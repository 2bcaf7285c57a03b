import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Actor, DomainContext } from '../../src/domain/context.js';
import { perform } from '../../src/domain/operation.js';
import { operations } from '../../src/domain/operations.js';
import type { WebhookWorker } from '../../src/webhooks/delivery-worker.js';
import { callError, callOk, connectModern } from '../mcp/support.js';
import { branchPlan, planningClient, uuid, type PlanningClient, type WriteResult } from '../support/planning.js';
import { drainWorker, startReceiver } from '../support/receiver.js';
import { sessionActor } from '../support/session-actor.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

type Created = { webhook: { id: string } };
type Deliveries = { deliveries: { eventType: string; status: string; payload: { type: string; data: unknown } }[] };

// docs/api.md › Deleting projects and tasks, against the real server and a real receiver:
// keys never delete; what the person deletes (run here through `perform` with a session
// credential, on the server's store; over HTTP: api/person-routes.test.ts) is announced to
// webhooks like any write, and a deleted project is gone for REST and MCP.
describe('deletion over HTTP and through webhooks', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let worker: WebhookWorker;
  let owner: Awaited<ReturnType<typeof provisionUser>>;
  let rest: PlanningClient;
  let ctx: DomainContext;
  let person: Actor;

  const drain = () => drainWorker(worker);
  const subscribe = async (body: Record<string, unknown>) => {
    const created = await server.request<Created>('POST', '/api/webhooks', { key: owner.key, body: { url: receiver.url, ...body } });
    expect(created.status).toBe(201);
    return created.body.webhook.id;
  };
  const deliveries = async (webhookId: string) => (await server.request<Deliveries>('GET', `/api/webhooks/${webhookId}/deliveries`, { key: owner.key })).body.deliveries;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_WEBHOOK_ALLOW_PRIVATE: '1', GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    receiver = await startReceiver();
    worker = server.webhookWorker({ timeoutMs: 2000 });
    owner = await provisionUser(server, 'deleter@example.com');
    rest = planningClient(server, owner.key);
    ctx = { store: server.store, clock: server.clock, baseUrl: server.config.baseUrl };
    person = await sessionActor(ctx, 'deleter@example.com');
  });
  afterAll(async () => {
    await receiver.close();
    await server.close();
  });
  beforeEach(async () => {
    await drain();
    receiver.calls.length = 0;
  });
  afterEach(async () => {
    const mine = await server.request<{ webhooks: { id: string }[] }>('GET', '/api/webhooks', { key: owner.key });
    for (const webhook of mine.body.webhooks) await server.request('DELETE', `/api/webhooks/${webhook.id}`, { key: owner.key });
  });

  /** A project with Phase (holding A → B) and C after B, announced before the test subscribes. */
  async function plan(key: string) {
    const created = await branchPlan(rest, key);
    // Fanned out before the test subscribes: its webhooks see only what follows.
    await drain();
    receiver.calls.length = 0;
    return created;
  }

  it('refuses every deletion by an API key with 403 destructive, with or without the confirmation, and counts it as a write', async () => {
    const { project, phase } = await plan('KEYS');
    const readKey = (await server.cli('key', 'create', '--email', 'deleter@example.com', '--scope', 'read', '--json')).json?.key as string;
    for (const key of [owner.key, readKey]) {
      for (const pathname of [`/api/projects/${project.id}?confirm=KEYS`, `/api/projects/${project.id}/tasks/${phase}?confirm=KEYS-1`, `/api/projects/${project.id}/tasks/${phase}`, `/api/projects/${uuid()}?confirm=X`]) {
        const response = await server.request('DELETE', pathname, { key });
        expect(response.status, pathname).toBe(403);
        expect(response.body).toMatchObject({ error: 'forbidden', details: { reason: 'destructive' } });
        expect(response.headers.get('x-ratelimit-limit')).toBe('100000');
      }
    }
    // No credential at all: the person must sign in.
    expect((await server.request('DELETE', `/api/projects/${project.id}/tasks/${phase}?confirm=KEYS-1`)).status).toBe(401);
    expect((await rest.fullProject(project.id)).body.tasks).toHaveLength(4);
  });

  it('announces a task deletion like any write: task.deleted per task, dependency.deleted, the successors that moved', async () => {
    const { project, phase, a, b, c, links } = await plan('TSK');
    const everything = await subscribe({ workspaceId: project.workspaceId, events: ['*'] });
    const ofProject = await subscribe({ projectId: project.id, events: ['task.deleted'] });
    const asTheyWere = (await rest.fullProject(project.id)).body.tasks;

    const { body } = await perform(ctx, person, operations.deleteTask, { params: { projectId: project.id, taskId: phase }, query: { confirm: 'TSK-1' } });
    expect((body as WriteResult).deletedTaskIds).toEqual([phase, a, b]);
    await drain();

    const deleted = receiver.of('task.deleted');
    expect(deleted.map((event) => event.data.task.id).sort()).toEqual([phase, phase, a, a, b, b].sort());
    expect(deleted.find((event) => event.data.task.id === a)?.data.task).toMatchObject({ name: 'A', key: 'TSK-2', startAt: asTheyWere.find((t) => t.id === a)?.startAt });
    expect(receiver.of('dependency.deleted').map((event) => event.data.dependency.id).sort()).toEqual([...links].sort());
    expect(receiver.of('task.dates_changed').map((event) => [event.data.task.id, event.data.cause])).toEqual([[c, 'reschedule']]);
    expect(new Set(receiver.calls.map((call) => call.body.actor.id))).toEqual(new Set([person.userId]));
    expect((await deliveries(ofProject)).map((delivery) => [delivery.eventType, delivery.status])).toEqual(Array(3).fill(['task.deleted', 'succeeded']));
    expect((await deliveries(everything)).every((delivery) => delivery.status === 'succeeded')).toBe(true);

    expect((await rest.getTask(project.id, a)).status).toBe(404);
    expect((await rest.listTasks(project.id)).body.tasks.map((task) => task.id)).toEqual([c]);
    expect((await rest.listDependencies(project.id)).body.dependencies).toEqual([]);
  });

  it('announces a project deletion to workspace-wide and project webhooks, keeps their delivery log, and hides the project from REST and MCP', async () => {
    const { project, a } = await plan('PRJ');
    const everything = await subscribe({ workspaceId: project.workspaceId, events: ['project.deleted'] });
    const ofProject = await subscribe({ projectId: project.id, events: ['*'] });
    const asItWas = (await rest.fullProject(project.id)).body.project;

    const { body } = await perform(ctx, person, operations.deleteProject, { params: { projectId: project.id }, query: { confirm: 'PRJ' } });
    expect(body).toEqual({ deleted: true, projectId: project.id });
    await drain();

    const announced = receiver.of('project.deleted');
    expect(announced).toHaveLength(2);
    for (const event of announced) expect(event).toMatchObject({ projectId: project.id, workspaceId: project.workspaceId, data: { project: asItWas }, actor: { id: person.userId, client: null } });
    for (const webhookId of [everything, ofProject]) {
      expect((await deliveries(webhookId)).map((delivery) => [delivery.eventType, delivery.status, delivery.payload.type])).toEqual([['project.deleted', 'succeeded', 'project.deleted']]);
    }
    // The project webhook stays (its owner deletes it); nothing more is announced for the project.
    expect((await server.request('GET', `/api/webhooks/${ofProject}`, { key: owner.key })).status).toBe(200);

    for (const pathname of [`/api/projects/${project.id}`, `/api/projects/${project.id}/tasks`, `/api/projects/${project.id}/tasks/${a}`, `/api/projects/${project.id}/members`, `/api/projects/${project.id}/invites`]) {
      expect((await server.request('GET', pathname, { key: owner.key })).status, pathname).toBe(404);
    }
    expect((await rest.changeSet(project.id, { createTasks: [{ name: 'Late' }] })).status).toBe(404);
    expect((await server.request('POST', '/api/webhooks', { key: owner.key, body: { url: receiver.url, events: ['*'], projectId: project.id } })).status).toBe(404);
    const listed = await server.request<{ projects: { id: string }[] }>('GET', '/api/projects?archived=1', { key: owner.key });
    expect(listed.body.projects.map((p) => p.id)).not.toContain(project.id);

    const mcp = await connectModern(server, owner.key);
    try {
      expect((await callError(mcp, 'get_plan', { projectId: project.id })).error).toBe('not_found');
      expect((await callError(mcp, 'apply_changes', { projectId: project.id, createTasks: [{ name: 'Late' }] })).error).toBe('not_found');
      const projects = await callOk<{ projects: { id: string }[] }>(mcp, 'list_projects');
      expect(projects.structuredContent.projects.map((p) => p.id)).not.toContain(project.id);
      // MCP offers no way to delete a project or a task (the tools marked destructive change
      // fields, links, delays, baselines, calendars and resources: docs/mcp.md › Tools).
      const { tools } = await mcp.listTools();
      expect(tools.filter((tool) => /delet|remove/i.test(tool.name)).map((tool) => tool.name)).toEqual([]);
      expect(tools.filter((tool) => tool.annotations?.destructiveHint === true).map((tool) => tool.name).sort()).toEqual([
        'apply_changes',
        'level_resources',
        'save_baseline',
        'update_calendar',
        'update_resource',
      ]);
    } finally {
      await mcp.close();
    }
  });
});
