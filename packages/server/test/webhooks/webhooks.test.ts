import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dispatchEvents } from '../../src/domain/webhooks/deliveries.js';
import type { WebhookWorker } from '../../src/webhooks/delivery-worker.js';
import { drainWorker, startReceiver } from '../support/receiver.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

type Created = { webhook: { id: string; status: string; events: string[] }; secret: string };
type Delivery = { id: string; status: string; attemptCount: number; nextAttemptAt: string | null; attempts: { ok: boolean; httpStatus: number | null; error: string | null }[]; eventType: string; eventId: string };

// docs/api.md › Webhooks, › Deliveries and › Events, against a real local receiver; the worker is
// driven round by round on the test's clock.
describe('webhooks', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let worker: WebhookWorker;
  let owner: Awaited<ReturnType<typeof provisionUser>>;
  let projectId: string;
  const stripe = new Stripe('sk_test_not_used');

  const drain = async () => {
    for (let round = 0; round < 10 && (await worker.runOnce()); round++);
  };
  const subscribe = async (body: Record<string, unknown>, key = owner.key) => server.request<Created>('POST', '/api/webhooks', { key, body });

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_WEBHOOK_ALLOW_PRIVATE: '1', GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    receiver = await startReceiver();
    worker = server.webhookWorker({ timeoutMs: 2000 });
    owner = await provisionUser(server, 'hooks@example.com');
    const project = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key: owner.key, body: { name: 'Hooked', startDate: '2026-03-02' } });
    projectId = project.body.project.id;
  });
  afterAll(async () => {
    await receiver.close();
    await server.close();
  });
  afterEach(async () => {
    const mine = await server.request<{ webhooks: { id: string }[] }>('GET', '/api/webhooks', { key: owner.key });
    for (const webhook of mine.body.webhooks) await server.request('DELETE', `/api/webhooks/${webhook.id}`, { key: owner.key });
  });
  beforeEach(async () => {
    await drain();
    receiver.calls.length = 0;
    receiver.answer(() => ({ status: 200 }));
  });

  it('subscribes with a secret shown once, lists, reads and describes the catalog', async () => {
    const created = await subscribe({ url: receiver.url, events: ['task.created'], projectId, name: 'CI' });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    expect(created.body.webhook).toMatchObject({ status: 'active', events: ['task.created'], scope: 'project', projectId, name: 'CI' });
    const read = await server.request<{ webhook: Record<string, unknown> }>('GET', `/api/webhooks/${created.body.webhook.id}`, { key: owner.key });
    expect(read.body.webhook).not.toHaveProperty('secret');
    const list = await server.request<{ webhooks: { id: string }[] }>('GET', '/api/webhooks', { key: owner.key });
    expect(list.body.webhooks.map((w) => w.id)).toContain(created.body.webhook.id);
    const catalog = await server.request<{ events: { type: string; description: string }[] }>('GET', '/api/webhooks/events', { key: owner.key });
    // docs/api.md › Events: the catalog, in its order, then the test event.
    expect(catalog.body.events.map((e) => e.type)).toEqual([
      'project.created',
      'project.updated',
      'project.deleted',
      'task.created',
      'task.updated',
      'task.deleted',
      'task.completed',
      'task.dates_changed',
      'dependency.created',
      'dependency.deleted',
      'baseline.saved',
      'member.invited',
      'member.joined',
      'comment.created',
      'webhook.ping',
    ]);
    expect(catalog.body.events.every((e) => e.description.length > 10)).toBe(true);
  });

  it('refuses bad subscriptions with field details, and hides other people\'s webhooks', async () => {
    const bad = await subscribe({ url: 'not a url', events: ['nope'] });
    expect(bad.status).toBe(400);
    const paths = ((bad.body as unknown as { details: { fields: { path: string }[] } }).details.fields).map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['events[0]', 'projectId']));
    expect((await subscribe({ url: 'ftp://example.com/x', events: ['task.created'], projectId })).status).toBe(400);

    const stranger = await provisionUser(server, 'hook-stranger@example.com');
    expect((await subscribe({ url: receiver.url, events: ['task.created'], projectId }, stranger.key)).status).toBe(404);
    const mine = await subscribe({ url: receiver.url, events: ['task.created'], projectId });
    expect((await server.request('GET', `/api/webhooks/${mine.body.webhook.id}`, { key: stranger.key })).status).toBe(404);
    expect((await server.request('DELETE', `/api/webhooks/${mine.body.webhook.id}`, { key: stranger.key })).status).toBe(404);
    expect((await server.request('DELETE', `/api/webhooks/${mine.body.webhook.id}`, { key: owner.key })).body).toEqual({ id: mine.body.webhook.id, deleted: true });
  });

  it('delivers signed envelopes that an independent verifier (stripe) accepts, with the documented headers', async () => {
    const created = await subscribe({ url: receiver.url, events: ['task.created', 'task.updated'], projectId });
    const task = await server.request<{ tasks: { id: string }[] }>('POST', `/api/projects/${projectId}/tasks`, { key: owner.key, body: { name: 'Signed' } });
    await server.request('PATCH', `/api/projects/${projectId}/tasks/${task.body.tasks[0]?.id}`, { key: owner.key, body: { notes: 'changed' } });
    await drain();
    // Delivery is unordered (docs/api.md › Deliveries): receivers order by createdAt.
    receiver.calls.sort((a, b) => a.body.createdAt.localeCompare(b.body.createdAt) || (a.body.type === 'task.created' ? -1 : 1));
    expect(receiver.calls.map((c) => c.body.type)).toEqual(['task.created', 'task.updated']);
    for (const call of receiver.calls) {
      expect(call.headers['service-event']).toBe(call.body.type);
      expect(call.headers['service-event-id']).toBe(call.body.id);
      expect(call.headers['service-delivery']).toMatch(/^[0-9a-f-]{36}$/);
      expect(call.headers['content-type']).toBe('application/json');
      const event = stripe.webhooks.constructEvent(call.rawBody, call.headers['service-signature'] as string, created.body.secret);
      expect(event.id).toBe(call.body.id);
      expect(call.body).toMatchObject({ apiVersion: '2026-10-01', projectId, actor: { id: owner.userId } });
    }
    const updated = receiver.calls[1]?.body.data as { changes: Record<string, unknown>; task: { projectId: string; url: string; completed: boolean } };
    expect(Object.keys(updated.changes)).toEqual(['notes']);
    expect(updated.task).toMatchObject({ projectId, completed: false });
  });

  it('rotates the secret: deliveries are signed with the new one and the old one fails verification', async () => {
    const created = await subscribe({ url: receiver.url, events: ['task.created'], projectId });
    const rotated = await server.request<Created>('POST', `/api/webhooks/${created.body.webhook.id}/rotate-secret`, { key: owner.key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    await server.request('POST', `/api/projects/${projectId}/tasks`, { key: owner.key, body: { name: 'After rotation' } });
    await drain();
    const [call] = receiver.calls;
    expect(() => stripe.webhooks.constructEvent(call?.rawBody ?? '', call?.headers['service-signature'] as string, rotated.body.secret)).not.toThrow();
    expect(() => stripe.webhooks.constructEvent(call?.rawBody ?? '', call?.headers['service-signature'] as string, created.body.secret)).toThrow();
  });

  describe('a change to the webhook counts at once, also for the deliveries of a round already under way', () => {
    /** Three task.created deliveries, sent one after the other: the first one's receiver changes the webhook before it answers. */
    const roundOfThree = async (onFirst: (webhookId: string) => Promise<number>) => {
      const created = await subscribe({ url: receiver.url, events: ['task.created'], projectId });
      const webhookId = created.body.webhook.id;
      receiver.answer(async () => (receiver.calls.length === 1 ? { status: await onFirst(webhookId) } : { status: 200 }));
      await server.request('POST', `/api/projects/${projectId}/tasks`, { key: owner.key, body: { createTasks: [{ name: 'One' }, { name: 'Two' }, { name: 'Three' }] } });
      await drainWorker(server.webhookWorker({ timeoutMs: 2000, concurrency: 1, batchSize: 3 }));
      return { created, webhookId };
    };

    it('a rotated secret signs the rest of the round', async () => {
      let secret = '';
      const { created } = await roundOfThree(async (webhookId) => {
        secret = (await server.request<Created>('POST', `/api/webhooks/${webhookId}/rotate-secret`, { key: owner.key })).body.secret;
        return 200;
      });
      expect(receiver.calls).toHaveLength(3);
      const [first, ...rest] = receiver.calls;
      expect(() => stripe.webhooks.constructEvent(first!.rawBody, first!.headers['service-signature'] as string, created.body.secret)).not.toThrow();
      for (const call of rest) {
        expect(() => stripe.webhooks.constructEvent(call.rawBody, call.headers['service-signature'] as string, secret)).not.toThrow();
        expect(() => stripe.webhooks.constructEvent(call.rawBody, call.headers['service-signature'] as string, created.body.secret)).toThrow();
      }
    });

    it('a 410 Gone stops the rest of the round, and so does a deletion; what was not sent is closed, not counted as failing', async () => {
      const { webhookId } = await roundOfThree(async () => 410);
      expect(receiver.calls).toHaveLength(1);
      const deliveries = await server.request<{ deliveries: Delivery[] }>('GET', `/api/webhooks/${webhookId}/deliveries`, { key: owner.key });
      expect(deliveries.body.deliveries.map((d) => `${d.status} ${d.attempts[0]?.httpStatus ?? d.attempts[0]?.error}`).sort()).toEqual([
        'failed 410',
        'failed not sent: the webhook was disabled or deleted meanwhile',
        'failed not sent: the webhook was disabled or deleted meanwhile',
      ]);
      expect((await server.request<{ webhook: { status: string } }>('GET', `/api/webhooks/${webhookId}`, { key: owner.key })).body.webhook.status).toBe('disabled');

      receiver.calls.length = 0;
      await roundOfThree(async (id) => {
        expect((await server.request('DELETE', `/api/webhooks/${id}`, { key: owner.key })).status).toBe(200);
        return 200;
      });
      expect(receiver.calls).toHaveLength(1);
    });
  });

  describe('a delivery is sent by the worker that holds its lease, never by two', () => {
    const deliveriesOf = async (webhookId: string) =>
      (await server.request<{ deliveries: Delivery[] }>('GET', `/api/webhooks/${webhookId}/deliveries`, { key: owner.key })).body.deliveries;

    it('a round claims only what it sends at once', async () => {
      const created = await subscribe({ url: receiver.url, events: ['task.created'], projectId });
      await server.request('POST', `/api/projects/${projectId}/tasks`, { key: owner.key, body: { createTasks: Array.from({ length: 5 }, (_, i) => ({ name: `T${i}` })) } });
      const narrow = server.webhookWorker({ timeoutMs: 2000, concurrency: 2 });
      await narrow.runOnce();
      expect(receiver.calls).toHaveLength(2);
      // The other three are not held: a second worker sends them at once.
      await drainWorker(server.webhookWorker({ timeoutMs: 2000 }));
      expect(receiver.calls).toHaveLength(5);
      expect(new Set(receiver.calls.map((c) => c.headers['service-delivery'])).size).toBe(5);
      expect((await deliveriesOf(created.body.webhook.id)).map((d) => d.status)).toEqual(Array(5).fill('succeeded'));
    });

    it('what waited past its lease is left to the next claim, not sent as well', async () => {
      const created = await subscribe({ url: receiver.url, events: ['task.created'], projectId });
      await server.request('POST', `/api/projects/${projectId}/tasks`, { key: owner.key, body: { createTasks: [{ name: 'One' }, { name: 'Two' }, { name: 'Three' }] } });
      // The first send outlasts the lease of the whole claim: another worker may hold the other two by now.
      receiver.answer(() => {
        if (receiver.calls.length === 1) server.clock.advance(61_000);
        return { status: 200 };
      });
      const slow = server.webhookWorker({ timeoutMs: 2000, concurrency: 1, batchSize: 3 });
      await slow.runOnce();
      expect(receiver.calls).toHaveLength(1);
      await drainWorker(slow);
      expect(receiver.calls).toHaveLength(3);
      expect(new Set(receiver.calls.map((c) => c.headers['service-delivery'])).size).toBe(3);
      expect((await deliveriesOf(created.body.webhook.id)).map((d) => `${d.status} ${d.attemptCount}`)).toEqual(Array(3).fill('succeeded 1'));
    });
  });

  it('sends every event type the API triggers to a workspace-wide webhook', async () => {
    const created = await subscribe({ url: receiver.url, events: ['*'], workspaceId: owner.personalWorkspaceId });
    expect(created.status).toBe(201);
    const project = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key: owner.key, body: { name: 'All events', startDate: '2026-03-02' } });
    const id = project.body.project.id;
    await server.request('PATCH', `/api/projects/${id}`, { key: owner.key, body: { description: 'x' } });
    const tasks = await server.request<{ tasks: { id: string }[] }>('POST', `/api/projects/${id}/tasks`, {
      key: owner.key,
      body: { createTasks: [{ name: 'A' }, { name: 'B' }] },
    });
    const [a, b] = tasks.body.tasks.map((t) => t.id);
    const linked = await server.request<{ dependencies: { id: string }[] }>('POST', `/api/projects/${id}/dependencies`, { key: owner.key, body: { predecessorId: a, successorId: b } });
    await server.request('PATCH', `/api/projects/${id}/tasks/${a}`, { key: owner.key, body: { durationMin: 960 } });
    await server.request('POST', `/api/projects/${id}/baseline`, { key: owner.key, body: {} });
    await server.request('PATCH', `/api/projects/${id}/tasks/${a}`, { key: owner.key, body: { progressPct: 100 } });
    await server.request('POST', `/api/projects/${id}/tasks/${a}/comments`, { key: owner.key, body: { body: 'Done' } });
    await server.request('DELETE', `/api/projects/${id}/dependencies/${linked.body.dependencies[0]?.id}`, { key: owner.key });
    await provisionUser(server, 'joiner@example.com');
    await server.cli('project', 'add-member', '--project', id, '--email', 'joiner@example.com', '--role', 'viewer');
    await drain();
    const types = new Set(receiver.calls.map((c) => c.body.type));
    for (const type of ['project.created', 'project.updated', 'task.created', 'task.updated', 'task.completed', 'task.dates_changed', 'dependency.created', 'dependency.deleted', 'baseline.saved', 'comment.created', 'member.joined']) {
      expect(types, type).toContain(type);
    }
    const completed = receiver.of('task.completed')[0]?.data.task;
    expect(completed).toMatchObject({ id: a, projectId: id, completed: true, assignees: [] });
    expect(completed).toHaveProperty('url');
    expect(completed).not.toHaveProperty('sortKey');
  });

  it('filters by scope and event list, and by what the owner can still see at delivery time', async () => {
    const member = await provisionUser(server, 'hook-member@example.com');
    const shared = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key: owner.key, body: { name: 'Shared' } });
    const sharedId = shared.body.project.id;
    await server.cli('project', 'add-member', '--project', sharedId, '--email', 'hook-member@example.com', '--role', 'viewer');
    const hook = await subscribe({ url: receiver.url, events: ['task.created'], projectId: sharedId }, member.key);
    expect(hook.status).toBe(201);
    // A workspace-wide webhook needs the workspace owner or admin role.
    expect((await subscribe({ url: receiver.url, events: ['*'], workspaceId: owner.personalWorkspaceId }, member.key)).status).toBe(404);

    await server.request('POST', `/api/projects/${projectId}/tasks`, { key: owner.key, body: { name: 'Other project' } });
    await server.request('PATCH', `/api/projects/${sharedId}`, { key: owner.key, body: { description: 'not subscribed' } });
    await server.request('POST', `/api/projects/${sharedId}/tasks`, { key: owner.key, body: { name: 'Seen' } });
    await drain();
    expect(receiver.calls.map((c) => [c.body.type, c.body.projectId])).toEqual([['task.created', sharedId]]);

    // The owner of the webhook loses access to the project: nothing more reaches the webhook,
    // not even an event queued before (access is checked again when sending).
    await server.request('POST', `/api/projects/${sharedId}/tasks`, { key: owner.key, body: { name: 'Queued before removal' } });
    expect(await dispatchEvents({ store: server.store, clock: server.clock, baseUrl: server.config.baseUrl })).toBeGreaterThan(0);
    expect((await server.cli('project', 'remove-member', '--project', sharedId, '--email', 'hook-member@example.com')).code).toBe(0);
    await server.request('POST', `/api/projects/${sharedId}/tasks`, { key: owner.key, body: { name: 'Not seen' } });
    await drain();
    expect(receiver.of('task.created').map((event) => event.data.task.name)).toEqual(['Seen']);
    const log = await server.request<{ deliveries: Delivery[] }>('GET', `/api/webhooks/${hook.body.webhook.id}/deliveries`, { key: member.key });
    expect(log.body.deliveries[0]?.attempts[0]?.error).toMatch(/can no longer see the project/);
  });

  it('retries on the documented schedule, keeps a delivery log, and resends on request', async () => {
    const created = await subscribe({ url: receiver.url, events: ['task.created'], projectId });
    receiver.answer(() => ({ status: 503, body: 'down for maintenance' }));
    await server.request('POST', `/api/projects/${projectId}/tasks`, { key: owner.key, body: { name: 'Retried' } });
    const delays = [60, 300, 1800, 7200, 43200];
    await drain();
    for (const delay of delays) {
      server.clock.advance((delay - 1) * 1000);
      await drain();
      const before = receiver.calls.length;
      server.clock.advance(1000);
      await drain();
      expect(receiver.calls.length, `attempt after ${delay}s`).toBe(before + 1);
    }
    expect(receiver.calls).toHaveLength(6);
    server.clock.advance(86_400_000);
    await drain();
    expect(receiver.calls).toHaveLength(6);

    const log = await server.request<{ deliveries: Delivery[] }>('GET', `/api/webhooks/${created.body.webhook.id}/deliveries`, { key: owner.key });
    const [delivery] = log.body.deliveries;
    expect(delivery).toMatchObject({ status: 'failed', attemptCount: 6, eventType: 'task.created', nextAttemptAt: null });
    expect(delivery?.attempts.map((a) => [a.ok, a.httpStatus])).toEqual(Array.from({ length: 6 }, () => [false, 503]));
    expect((delivery?.attempts[0] as unknown as { responseExcerpt: string }).responseExcerpt).toBe('down for maintenance');

    receiver.answer(() => ({ status: 200 }));
    const resent = await server.request<{ delivery: Delivery }>('POST', `/api/webhooks/${created.body.webhook.id}/deliveries/${delivery?.id}/resend`, { key: owner.key });
    expect(resent.status).toBe(202);
    await drain();
    expect(receiver.calls.at(-1)?.body.id).toBe(delivery?.eventId);
    const after = await server.request<{ deliveries: Delivery[] }>('GET', `/api/webhooks/${created.body.webhook.id}/deliveries?limit=1`, { key: owner.key });
    expect(after.body.deliveries[0]).toMatchObject({ id: resent.body.delivery.id, status: 'succeeded', attemptCount: 1 });
    expect(after.body).toHaveProperty('nextCursor');
  });

  it('purges the delivery log after 30 days', async () => {
    const created = await subscribe({ url: receiver.url, events: ['task.created'], projectId });
    await server.request('POST', `/api/projects/${projectId}/tasks`, { key: owner.key, body: { name: 'Logged' } });
    await drain();
    const logged = await server.request<{ deliveries: Delivery[] }>('GET', `/api/webhooks/${created.body.webhook.id}/deliveries`, { key: owner.key });
    expect(logged.body.deliveries).toHaveLength(1);
    server.clock.advance(29 * 86_400_000);
    await server.webhookWorker().runOnce();
    expect((await server.request<{ deliveries: Delivery[] }>('GET', `/api/webhooks/${created.body.webhook.id}/deliveries`, { key: owner.key })).body.deliveries).toHaveLength(1);
    server.clock.advance(2 * 86_400_000);
    await server.webhookWorker().runOnce();
    expect((await server.request<{ deliveries: Delivery[] }>('GET', `/api/webhooks/${created.body.webhook.id}/deliveries`, { key: owner.key })).body.deliveries).toEqual([]);
  });

  it('treats redirects as failures without following them', async () => {
    const created = await subscribe({ url: receiver.url, events: ['task.created'], projectId });
    receiver.answer((call) => (call.headers['x-followed'] ? { status: 200 } : { status: 302, headers: { location: `${receiver.url}?followed=1` } }));
    await server.request('POST', `/api/projects/${projectId}/tasks`, { key: owner.key, body: { name: 'Redirected' } });
    await drain();
    expect(receiver.calls).toHaveLength(1);
    const log = await server.request<{ deliveries: Delivery[] }>('GET', `/api/webhooks/${created.body.webhook.id}/deliveries`, { key: owner.key });
    expect(log.body.deliveries[0]).toMatchObject({ status: 'pending', attemptCount: 1 });
    expect(log.body.deliveries[0]?.attempts[0]).toMatchObject({ ok: false, httpStatus: 302 });
  });

  it('disables the webhook at once on 410 Gone and e-mails its owner', async () => {
    const created = await subscribe({ url: receiver.url, events: ['task.created'], projectId, name: 'Gone hook' });
    receiver.answer(() => ({ status: 410 }));
    await server.request('POST', `/api/projects/${projectId}/tasks`, { key: owner.key, body: { name: 'Gone' } });
    await drain();
    await server.request('POST', `/api/projects/${projectId}/tasks`, { key: owner.key, body: { name: 'Never sent' } });
    await drain();
    expect(receiver.calls).toHaveLength(1);
    const read = await server.request<{ webhook: { status: string; disabledReason: string; disabledAt: string } }>('GET', `/api/webhooks/${created.body.webhook.id}`, { key: owner.key });
    expect(read.body.webhook).toMatchObject({ status: 'disabled', disabledReason: 'gone' });
    const mail = await server.store.q.outbox.listMail({ pendingOnly: false, limit: 100 });
    expect(mail.some((m) => m.to_address === 'hooks@example.com' && m.subject.includes('Gone hook'))).toBe(true);
  });

  it('sends the test event webhook.ping with the webhook in its data', async () => {
    const created = await subscribe({ url: receiver.url, events: ['task.created'], projectId, name: 'Pinged' });
    const ping = await server.request<{ delivery: Delivery }>('POST', `/api/webhooks/${created.body.webhook.id}/ping`, { key: owner.key });
    expect(ping.status).toBe(202);
    await drain();
    const call = receiver.calls.find((c) => c.body.type === 'webhook.ping');
    expect(call?.headers['service-event']).toBe('webhook.ping');
    expect(call?.body.data).toMatchObject({ message: expect.any(String), webhook: { id: created.body.webhook.id, name: 'Pinged', events: ['task.created'] } });
    expect(() => stripe.webhooks.constructEvent(call?.rawBody ?? '', call?.headers['service-signature'] as string, created.body.secret)).not.toThrow();
  });

  it("a workspace-wide webhook's ping names no project with the nil UUID (the envelope's projectId is a UUID)", async () => {
    const created = await subscribe({ url: receiver.url, events: ['*'], workspaceId: owner.personalWorkspaceId });
    expect((await server.request('POST', `/api/webhooks/${created.body.webhook.id}/ping`, { key: owner.key })).status).toBe(202);
    await drain();
    expect(receiver.calls.find((c) => c.body.type === 'webhook.ping')?.body).toMatchObject({ workspaceId: owner.personalWorkspaceId, projectId: '00000000-0000-0000-0000-000000000000' });
  });

  it('orders the events of one write by createdAt; reports what summaries roll up, never sortKey; announces the key lock', async () => {
    await subscribe({ url: receiver.url, events: ['*'], workspaceId: owner.personalWorkspaceId });
    const project = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key: owner.key, body: { name: 'Ordered', startDate: '2026-03-02' } });
    const id = project.body.project.id;
    const phase = crypto.randomUUID();
    const step = crypto.randomUUID();
    await server.request('POST', `/api/projects/${id}/tasks`, {
      key: owner.key,
      body: { createTasks: [{ id: phase, name: 'Phase' }, { id: step, name: 'Step', parentId: phase, durationMin: 480, progressPct: 100 }] },
    });
    await drain();
    const first = receiver.calls.filter((c) => c.body.projectId === id && c.body.type !== 'project.created');
    const order = [...first].sort((x, y) => String(x.body.createdAt).localeCompare(String(y.body.createdAt))).map((c) => `${c.body.type} ${'task' in c.body.data ? c.body.data.task.name : ''}`.trim());
    expect(order.indexOf('task.created Step')).toBeLessThan(order.indexOf('task.completed Step'));
    expect(new Set(first.map((c) => c.body.createdAt)).size).toBe(first.length);
    const locked = first.find((c) => c.body.type === 'project.updated');
    expect(locked?.body.data).toMatchObject({ changes: { keyLocked: { from: false, to: true } }, project: { keyLocked: true } });

    receiver.calls.length = 0;
    await server.request('PATCH', `/api/projects/${id}/tasks/${step}`, { key: owner.key, body: { durationMin: 960, progressPct: 50 } });
    await drain();
    const phaseUpdate = receiver.of('task.updated').find((event) => event.data.task.id === phase);
    expect(phaseUpdate?.data.changes).toEqual({
      durationMin: { from: 480, to: 960 },
      progressPct: { from: 100, to: 50 },
      remainingDurationMin: { from: 0, to: 480 },
      actualFinishAt: { from: '2026-03-02T17:00:00.000Z', to: null },
    });
    const phaseMoved = receiver.of('task.dates_changed').find((event) => event.data.task.id === phase);
    expect(phaseMoved?.data.cause).toBe('reschedule');

    receiver.calls.length = 0;
    const other = await server.request<{ tasks: { id: string }[] }>('POST', `/api/projects/${id}/tasks`, { key: owner.key, body: { name: 'Other' } });
    await drain();
    receiver.calls.length = 0;
    await server.request('PATCH', `/api/projects/${id}/tasks/${other.body.tasks[0]?.id}`, { key: owner.key, body: { placement: { beforeTaskId: phase } } });
    await drain();
    for (const event of receiver.of('task.updated')) expect(event.data.changes).not.toHaveProperty('sortKey');
  });

  it('stops a workspace-wide webhook whose owner is no longer a workspace owner or admin', async () => {
    const admin = await provisionUser(server, 'demoted@example.com');
    expect((await server.cli('workspace', 'add-member', '--workspace', owner.personalWorkspaceId, '--email', 'demoted@example.com', '--role', 'admin')).code).toBe(0);
    expect((await subscribe({ url: receiver.url, events: ['task.created'], workspaceId: owner.personalWorkspaceId }, admin.key)).status).toBe(201);
    await server.request('POST', `/api/projects/${projectId}/tasks`, { key: owner.key, body: { name: 'While admin' } });
    await drain();
    expect((await server.cli('workspace', 'add-member', '--workspace', owner.personalWorkspaceId, '--email', 'demoted@example.com', '--role', 'member')).code).toBe(0);
    await server.request('POST', `/api/projects/${projectId}/tasks`, { key: owner.key, body: { name: 'After demotion' } });
    await drain();
    expect(receiver.of('task.created').map((event) => event.data.task.name)).toEqual(['While admin']);
    const mine = await server.request<{ webhooks: { id: string }[] }>('GET', '/api/webhooks', { key: admin.key });
    for (const webhook of mine.body.webhooks) await server.request('DELETE', `/api/webhooks/${webhook.id}`, { key: admin.key });
  });

  it('allows at most 50 webhooks per workspace (422 limit_exceeded)', async () => {
    const other = await provisionUser(server, 'many-hooks@example.com');
    const project = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key: other.key, body: { name: 'Many' } });
    for (let i = 0; i < 50; i++) {
      expect((await subscribe({ url: receiver.url, events: ['task.created'], projectId: project.body.project.id }, other.key)).status).toBe(201);
    }
    const over = await subscribe({ url: receiver.url, events: ['task.created'], projectId: project.body.project.id }, other.key);
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({ error: 'limit_exceeded', details: { limit: 50 } });
  });
});

describe('webhooks that keep failing', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    // One attempt per event, so that five failing events take five rounds.
    server = await startTestServer({ GANTRY_WEBHOOK_ALLOW_PRIVATE: '1', GANTRY_WEBHOOK_RETRY_DELAYS: '0' });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await server.close();
  });

  it('are disabled after 5 consecutive events fail every attempt, and a success resets the count', async () => {
    const worker = server.webhookWorker({ timeoutMs: 2000 });
    const owner = await provisionUser(server, 'failing@example.com');
    const project = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key: owner.key, body: { name: 'Failing' } });
    const projectId = project.body.project.id;
    const created = await server.request<Created>('POST', '/api/webhooks', { key: owner.key, body: { url: receiver.url, events: ['task.created'], projectId } });
    const status = async () => (await server.request<{ webhook: { status: string; disabledReason: string | null } }>('GET', `/api/webhooks/${created.body.webhook.id}`, { key: owner.key })).body.webhook;
    const event = async (answer: number) => {
      receiver.answer(() => ({ status: answer }));
      await server.request('POST', `/api/projects/${projectId}/tasks`, { key: owner.key, body: { name: `answer ${answer}` } });
      while (await worker.runOnce());
    };
    for (let i = 0; i < 4; i++) await event(500);
    await event(200);
    for (let i = 0; i < 4; i++) await event(500);
    expect((await status()).status).toBe('active');
    await event(500);
    expect(await status()).toMatchObject({ status: 'disabled', disabledReason: 'failing' });
    await event(200);
    expect(receiver.calls).toHaveLength(10);
    const mail = await server.store.q.outbox.listMail({ pendingOnly: false, limit: 10 });
    expect(mail.filter((m) => m.to_address === 'failing@example.com' && /disabled/.test(m.subject))).toHaveLength(1);
  });
});
