import type { DeliveredEventType, EventEnvelopeOf, Invite, Member } from '@gantry/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addProjectMember } from '../../src/domain/members.js';
import type { WebhookWorker } from '../../src/webhooks/delivery-worker.js';
import { branchPlan, expectRefused, fieldPaths, planningClient, uuid, type ErrorBody, type PlanningClient, type WriteResult } from '../support/planning.js';
import { drainWorker, startReceiver } from '../support/receiver.js';
import { signedInPerson, type Person } from '../support/sessions.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// docs/api.md › Web sessions, › Deleting projects and tasks, › Invites and joining: the
// person's own operations over real HTTP with the session cookie and its X-CSRF-Token, and
// what they announce to a real receiver. (Keys refused on deletion, and the domain rules
// in full, are in webhooks/deletion.test.ts, domain/deletion.test.ts and invites.test.ts.)
let server: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let worker: WebhookWorker;
let owner: Person;
let editor: Person;
let viewer: Person;
let asOwner: PlanningClient;

beforeAll(async () => {
  server = await startTestServer({ GANTRY_WEBHOOK_ALLOW_PRIVATE: '1', GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
  receiver = await startReceiver();
  worker = server.webhookWorker({ timeoutMs: 2000 });
  owner = await signedInPerson(server, 'owner@example.com');
  editor = await signedInPerson(server, 'editor@example.com');
  viewer = await signedInPerson(server, 'viewer@example.com');
  asOwner = planningClient(server, owner);
});
afterAll(async () => {
  await receiver.close();
  await server.close();
});

/** Gives the editor and the viewer their roles on a project of the owner. */
async function addMembers(projectId: string): Promise<void> {
  const ctx = { store: server.store, clock: server.clock, baseUrl: server.config.baseUrl };
  await addProjectMember(ctx, { projectId, email: editor.email, role: 'editor' });
  await addProjectMember(ctx, { projectId, email: viewer.email, role: 'viewer' });
}

/** Subscribes (with the owner's session) to every event of the project, after what happened so far was fanned out. */
async function subscribe(projectId: string): Promise<void> {
  await drainWorker(worker);
  const created = await server.request('POST', '/api/webhooks', { headers: owner.headers, body: { url: receiver.url, events: ['*'], projectId } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}

/** The events of one type the receiver got for a project, after the worker sent what was due. */
async function delivered<Type extends DeliveredEventType>(type: Type, projectId: string): Promise<EventEnvelopeOf<Type>[]> {
  await drainWorker(worker);
  return receiver.of(type).filter((event) => event.projectId === projectId);
}

describe('DELETE /api/projects/{projectId}/tasks/{taskId} with the web session', () => {
  let plan: Awaited<ReturnType<typeof branchPlan>>;
  const url = (taskId: string, query: string) => `/api/projects/${plan.project.id}/tasks/${taskId}${query}`;
  const taskIds = async () => (await asOwner.fullProject(plan.project.id)).body.tasks.map((task) => task.id).sort();

  beforeAll(async () => {
    plan = await branchPlan(asOwner, 'DEL');
    const keys = (await asOwner.fullProject(plan.project.id)).body.tasks.map((task) => [task.id, task.key]);
    expect(keys).toEqual([
      [plan.phase, 'DEL-1'],
      [plan.a, 'DEL-2'],
      [plan.b, 'DEL-3'],
      [plan.c, 'DEL-4'],
    ]);
    await addMembers(plan.project.id);
    await subscribe(plan.project.id);
  });

  it('refuses no session (401), a key beside the cookie (403 destructive), a missing CSRF token or a foreign origin (403 csrf); nothing is deleted', async () => {
    const before = await taskIds();
    const target = url(plan.phase, '?confirm=DEL-1');
    expectRefused(await server.request('DELETE', target), 401, { error: 'unauthorized' });
    const key = (await server.cli('key', 'create', '--email', owner.email, '--scope', 'write', '--json')).json?.key as string;
    expectRefused(await server.request('DELETE', target, { key, headers: owner.headers }), 403, { error: 'forbidden', details: { reason: 'destructive' } });
    expectRefused(await server.request('DELETE', target, { headers: { cookie: owner.cookie } }), 403, { error: 'forbidden', details: { reason: 'csrf' } });
    expectRefused(await server.request('DELETE', target, { headers: { ...owner.headers, origin: 'https://attacker.example' } }), 403, { details: { reason: 'csrf' } });
    expect(await taskIds()).toEqual(before);
    expect(await delivered('task.deleted', plan.project.id)).toEqual([]);
  });

  it('answers 400 on confirm (missing, empty, wrong case, another task key), 403 to a viewer, 404 for unknown ids; nothing is deleted', async () => {
    const before = await taskIds();
    for (const query of ['', '?confirm=', '?confirm=del-1', '?confirm=DEL-4', '?confirm=DEL-1%20']) {
      const refused = await server.request<ErrorBody>('DELETE', url(plan.phase, query), { headers: editor.headers });
      expect(refused.status, query).toBe(400);
      expect(refused.body.error).toBe('invalid_request');
      expect(fieldPaths(refused.body), query).toEqual(['confirm']);
    }
    expectRefused(await server.request('DELETE', url(plan.phase, '?confirm=DEL-1'), { headers: viewer.headers }), 403, { error: 'forbidden', details: { reason: 'insufficient_role' } });
    for (const target of [url(uuid(), '?confirm=DEL-1'), `/api/projects/${uuid()}/tasks/${plan.phase}?confirm=DEL-1`, url('not-a-uuid', '?confirm=DEL-1')]) {
      expectRefused(await server.request('DELETE', target, { headers: editor.headers }), 404, { error: 'not_found' });
    }
    expect(await taskIds()).toEqual(before);
    expect(await delivered('task.deleted', plan.project.id)).toEqual([]);
  });

  it('lets an editor delete the branch: the WriteResult names the subtree and its links; task.deleted per task and dependency.deleted are delivered', async () => {
    const asTheyWere = (await asOwner.fullProject(plan.project.id)).body.tasks;
    const deleted = await server.request<WriteResult>('DELETE', url(plan.phase, '?confirm=DEL-1'), { headers: editor.headers });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body.deletedTaskIds).toEqual([plan.phase, plan.a, plan.b]);
    expect([...deleted.body.deletedDependencyIds].sort()).toEqual([...plan.links].sort());
    // C no longer waits for B: it moves to the project start.
    expect(deleted.body.tasks.map((task) => [task.id, task.startAt])).toEqual([[plan.c, '2026-03-02T08:00:00.000Z']]);
    expect(deleted.body.stats.taskCount).toBe(1);
    expect(deleted.body.dependencies).toEqual([]);

    const tasksDeleted = await delivered('task.deleted', plan.project.id);
    expect(tasksDeleted.map((event) => event.data.task.id).sort()).toEqual([plan.phase, plan.a, plan.b].sort());
    for (const event of tasksDeleted) {
      const { id, key, name, startAt, finishAt } = asTheyWere.find((task) => task.id === event.data.task.id) ?? {};
      expect(event.data.task).toMatchObject({ id, key, name, startAt, finishAt, projectId: plan.project.id });
    }
    expect((await delivered('dependency.deleted', plan.project.id)).map((event) => event.data.dependency.id).sort()).toEqual([...plan.links].sort());
    expect((await delivered('task.dates_changed', plan.project.id)).map((event) => [event.data.task.id, event.data.cause])).toEqual([[plan.c, 'reschedule']]);
    const actors = receiver.calls.filter((call) => call.body.projectId === plan.project.id).map((call) => call.body.actor);
    expect(new Set(actors.map((actor) => `${actor.id} ${String(actor.client)}`))).toEqual(new Set([`${editor.userId} null`]));

    expect(await taskIds()).toEqual([plan.c]);
    expectRefused(await asOwner.getTask(plan.project.id, plan.a), 404, { error: 'not_found' });
    expectRefused(await server.request('DELETE', url(plan.a, '?confirm=DEL-2'), { headers: editor.headers }), 404, { error: 'not_found' });
  });
});

describe('DELETE /api/projects/{projectId} with the web session', () => {
  let projectId: string;
  const url = (query: string) => `/api/projects/${projectId}${query}`;

  beforeAll(async () => {
    projectId = (await asOwner.createProject({ name: 'Doomed', key: 'GONE' })).id;
    expect((await asOwner.createTask(projectId, { name: 'Only' })).status).toBe(201);
    await addMembers(projectId);
    await subscribe(projectId);
  });

  it('refuses an editor (403 insufficient_role), a missing or different confirmation (400), a missing CSRF token (403 csrf); the project stays', async () => {
    expectRefused(await server.request('DELETE', url('?confirm=GONE'), { headers: editor.headers }), 403, { error: 'forbidden', details: { reason: 'insufficient_role' } });
    for (const query of ['', '?confirm=gone', '?confirm=GONE-1']) {
      const refused = await server.request<ErrorBody>('DELETE', url(query), { headers: owner.headers });
      expect(refused.status, query).toBe(400);
      expect(fieldPaths(refused.body), query).toEqual(['confirm']);
    }
    expectRefused(await server.request('DELETE', url('?confirm=GONE'), { headers: { cookie: owner.cookie } }), 403, { details: { reason: 'csrf' } });
    expect((await asOwner.fullProject(projectId)).status).toBe(200);
    expect(await delivered('project.deleted', projectId)).toEqual([]);
  });

  it('lets the owner delete it: 200 {deleted, projectId}; then 404 on GET, absent from GET /api/projects, project.deleted delivered', async () => {
    const asItWas = (await asOwner.fullProject(projectId)).body.project;
    const deleted = await server.request('DELETE', url('?confirm=GONE'), { headers: owner.headers });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toEqual({ deleted: true, projectId });

    for (const person of [owner, editor]) {
      expectRefused(await server.request('GET', url(''), { headers: { cookie: person.cookie } }), 404, { error: 'not_found' });
      for (const list of ['/api/projects', '/api/projects?archived=1']) {
        const listed = await server.request<{ projects: { id: string }[] }>('GET', list, { headers: { cookie: person.cookie } });
        expect(listed.status).toBe(200);
        expect(listed.body.projects.map((project) => project.id), `${person.email} ${list}`).not.toContain(projectId);
      }
    }
    expectRefused(await server.request('DELETE', url('?confirm=GONE'), { headers: owner.headers }), 404, { error: 'not_found' });

    const announced = await delivered('project.deleted', projectId);
    expect(announced).toHaveLength(1);
    expect(announced[0]).toMatchObject({ projectId, data: { project: asItWas }, actor: { id: owner.userId, client: null } });
  });
});

describe('invites with the web session', () => {
  let projectId: string;
  let joiner: Person;
  let other: Person;

  const invite = (body: Record<string, unknown>) =>
    server.request<{ invite: Invite & { url: string } }>('POST', `/api/projects/${projectId}/invites`, { headers: owner.headers, body });
  const tokenOf = (url: string) => url.split('/join/')[1] as string;
  const accept = (token: string, headers: Record<string, string>) => server.request<{ project: { id: string }; member: Member }>('POST', '/api/invites/accept', { headers, body: { token } });
  const listed = async () => {
    const response = await server.request<{ invites: Invite[] }>('GET', `/api/projects/${projectId}/invites`, { headers: { cookie: owner.cookie } });
    expect(response.status).toBe(200);
    return response.body.invites;
  };
  const memberIds = async () => (await server.request<{ members: Member[] }>('GET', `/api/projects/${projectId}/members`, { headers: { cookie: owner.cookie } })).body.members.map((m) => m.userId);

  beforeAll(async () => {
    joiner = await signedInPerson(server, 'joiner@example.com');
    other = await signedInPerson(server, 'other@example.com');
    projectId = (await asOwner.createProject({ name: 'Invited', key: 'INV' })).id;
    await subscribe(projectId);
  });

  it('creates, lists and revokes invites: the link only in the answer to its creation', async () => {
    const created = await invite({ role: 'viewer', email: 'Someone@Example.com' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { url, ...shown } = created.body.invite;
    expect(url).toMatch(new RegExp(`^${server.config.baseUrl}/join/[\\w-]{43}$`));
    expect(shown).toMatchObject({ role: 'viewer', email: 'someone@example.com', createdBy: owner.userId });
    expect(await listed()).toEqual([shown]);
    expect((await delivered('member.invited', projectId)).map((event) => event.data.invitation.id)).toEqual([shown.id]);

    const revoked = await server.request('POST', `/api/projects/${projectId}/invites/${shown.id}/revoke`, { headers: owner.headers });
    expect([revoked.status, revoked.body]).toEqual([200, { id: shown.id, revoked: true }]);
    expect(await listed()).toEqual([]);
  });

  it("lets a second person join with their session: the invite's role, member.joined delivered", async () => {
    const { url, id } = (await invite({ role: 'editor', email: 'joiner@example.com' })).body.invite;
    const joined = await accept(tokenOf(url), joiner.headers);
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(joined.body.project.id).toBe(projectId);
    expect(joined.body.member).toMatchObject({ userId: joiner.userId, email: 'joiner@example.com', role: 'editor', directRole: 'editor', inherited: false });

    const theirs = await server.request<{ projects: { id: string; role: string }[] }>('GET', '/api/projects', { headers: { cookie: joiner.cookie } });
    expect(theirs.body.projects.map((project) => [project.id, project.role])).toEqual([[projectId, 'editor']]);
    expect((await listed()).map((each) => each.id)).not.toContain(id);
    const announced = await delivered('member.joined', projectId);
    expect(announced.map((event) => [event.data.member, event.actor.id])).toEqual([[{ userId: joiner.userId, name: 'joiner', email: 'joiner@example.com', role: 'editor' }, joiner.userId]]);
  });

  it('refuses a key (401), a missing CSRF token (403 csrf), another address (403), a revoked or unknown token (404); the invite stays usable', async () => {
    const { url, id } = (await invite({ role: 'viewer', email: 'other@example.com' })).body.invite;
    const token = tokenOf(url);
    const otherKey = (await server.cli('key', 'create', '--email', other.email, '--scope', 'write', '--json')).json?.key as string;
    expectRefused(await server.request('POST', '/api/invites/accept', { key: otherKey, body: { token } }), 401, { error: 'unauthorized' });
    expectRefused(await accept(token, { cookie: other.cookie }), 403, { error: 'forbidden', details: { reason: 'csrf' } });
    expectRefused(await accept(token, joiner.headers), 403, { error: 'forbidden', details: { reason: 'invite_for_another_email' } });

    const revoked = (await invite({ role: 'viewer' })).body.invite;
    expect((await server.request('POST', `/api/projects/${projectId}/invites/${revoked.id}/revoke`, { headers: owner.headers })).status).toBe(200);
    for (const refusedToken of [tokenOf(revoked.url), 'no-such-token']) expectRefused(await accept(refusedToken, other.headers), 404, { error: 'not_found' });

    expect((await listed()).map((each) => each.id)).toContain(id);
    expect(await memberIds()).not.toContain(other.userId);
    expect((await delivered('member.joined', projectId)).filter((event) => event.data.member.userId === other.userId)).toEqual([]);
    // Nothing above used the invite up: its person still joins with it.
    expect((await accept(token, other.headers)).body.member).toMatchObject({ userId: other.userId, role: 'viewer' });
  });
});
