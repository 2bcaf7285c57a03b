import type { ApiKey, Delivery, Webhook } from '@gantry/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookWorker } from '../../src/webhooks/delivery-worker.js';
import { expectRefused, fieldPaths, planningClient, type ErrorBody, type PlanningClient } from '../support/planning.js';
import { drainWorker, startReceiver } from '../support/receiver.js';
import { signedInPerson, type Person } from '../support/sessions.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// docs/api.md › The person's own API keys, › Deliveries: what the web app's profile does, over
// real HTTP with the session cookie and its X-CSRF-Token; keys never reach these routes.
// (The same operations at the domain level: domain/own-keys-and-webhooks.test.ts.)
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ GANTRY_WEBHOOK_ALLOW_PRIVATE: '1', GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
});
afterAll(() => server.close());

describe("the person's own API keys", () => {
  let ada: Person;
  let bob: Person;

  const keysOf = async (person: Person) => {
    const listed = await server.request<{ apiKeys: ApiKey[] }>('GET', '/api/auth/keys', { headers: { cookie: person.cookie } });
    expect(listed.status).toBe(200);
    return listed.body.apiKeys;
  };
  const create = (body: Record<string, unknown>, person = ada) => server.request<{ key: string; apiKey: ApiKey } & ErrorBody>('POST', '/api/auth/keys', { headers: person.headers, body });
  const revoke = (keyId: string, headers = ada.headers) => server.request<{ apiKey: ApiKey }>('POST', `/api/auth/keys/${keyId}/revoke`, { headers });
  const me = (key: string) => server.request<{ user: { id: string; email: string } }>('GET', '/api/auth/me', { key });

  beforeAll(async () => {
    ada = await signedInPerson(server, 'ada@example.com');
    bob = await signedInPerson(server, 'bob@example.com');
  });

  it('creates a key (201) that works at once, shown in that answer only, and lists it with its last use', async () => {
    const created = await create({ scope: 'read', name: 'CI' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { key, apiKey } = created.body;
    expect(key).toMatch(/^gnt_[\w-]{43}$/);
    expect(apiKey).toMatchObject({ name: 'CI', prefix: key.slice(0, 8), scope: 'read', workspaceId: null, expiresAt: null, revokedAt: null, lastUsedAt: null });
    const listed = await keysOf(ada);
    expect(listed).toEqual([apiKey]);
    expect(JSON.stringify(listed)).not.toContain(key.slice(8));

    const used = await me(key);
    expect(used.status).toBe(200);
    expect(used.body.user).toMatchObject({ id: ada.userId, email: ada.email });
    // The audit log is written in batches, within a second.
    await expect.poll(async () => (await keysOf(ada))[0]?.lastUsedAt, { timeout: 5000, interval: 100 }).toEqual(expect.any(String));
    const { lastUsedAt } = (await keysOf(ada))[0] as ApiKey;
    expect(Date.parse(lastUsedAt as string)).toBeGreaterThanOrEqual(Date.parse(apiKey.createdAt));
    expect(Date.parse(lastUsedAt as string)).toBeLessThanOrEqual(server.clock.now().getTime());
  });

  it('revokes a key: it gets 401 at once; revoking again answers the same; the list keeps it, newest first', async () => {
    const before = (await keysOf(ada)).map((each) => each.id);
    const { key, apiKey } = (await create({ scope: 'write' })).body;
    expect((await me(key)).status).toBe(200);

    const revoked = await revoke(apiKey.id);
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body.apiKey).toMatchObject({ id: apiKey.id, scope: 'write', revokedAt: expect.any(String) });
    expectRefused(await me(key), 401, { error: 'unauthorized' });
    expectRefused(await server.request('POST', '/api/projects', { key, body: { name: 'After revocation' } }), 401, { error: 'unauthorized' });

    server.clock.advance(1000);
    const again = await revoke(apiKey.id);
    expect(again.status).toBe(200);
    expect(again.body.apiKey.revokedAt).toBe(revoked.body.apiKey.revokedAt);
    const listed = await keysOf(ada);
    expect(listed.map((each) => [each.id, each.revokedAt])).toEqual([[apiKey.id, revoked.body.apiKey.revokedAt], ...before.map((id) => [id, null])]);
  });

  it("refuses a key on each of these routes (401), also beside the session cookie, a missing CSRF token (403 csrf), another person's key (404), an expiry in the past (400 expiresAt)", async () => {
    const { key, apiKey } = (await create({ scope: 'write', name: 'Not a key minter' })).body;
    const before = (await keysOf(ada)).map((each) => [each.id, each.revokedAt]);
    for (const [method, path, body] of [
      ['GET', '/api/auth/keys', undefined],
      ['POST', '/api/auth/keys', { scope: 'write' }],
      ['POST', `/api/auth/keys/${apiKey.id}/revoke`, undefined],
    ] as const) {
      expectRefused(await server.request(method, path, { key, body }), 401, { error: 'unauthorized' });
      // A key beside the session cookie acts as the key (docs/api.md › Web sessions): refused too.
      expectRefused(await server.request(method, path, { key, headers: ada.headers, body }), 401, { error: 'unauthorized' });
    }
    expectRefused(await server.request('POST', '/api/auth/keys', { headers: { cookie: ada.cookie }, body: { scope: 'write' } }), 403, { error: 'forbidden', details: { reason: 'csrf' } });
    expectRefused(await revoke(apiKey.id, { cookie: ada.cookie }), 403, { details: { reason: 'csrf' } });

    const bobs = (await create({ scope: 'read' }, bob)).body.apiKey;
    expectRefused(await revoke(bobs.id), 404, { error: 'not_found' });
    expect((await keysOf(bob)).map((each) => [each.id, each.revokedAt])).toEqual([[bobs.id, null]]);

    const past = await create({ scope: 'write', expiresAt: new Date(server.clock.now().getTime() - 60_000).toISOString() });
    expect(past.status).toBe(400);
    expect(fieldPaths(past.body)).toEqual(['expiresAt']);
    expect((await keysOf(ada)).map((each) => [each.id, each.revokedAt])).toEqual(before);
    expect((await me(key)).status).toBe(200);
  });
});

describe('POST /api/webhooks/{id}/enable', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let worker: WebhookWorker;
  let person: Person;
  let asPerson: PlanningClient;
  let projectId: string;
  let webhookId: string;

  const webhook = async () => (await server.request<{ webhook: Webhook }>('GET', `/api/webhooks/${webhookId}`, { headers: { cookie: person.cookie } })).body.webhook;
  const taskAnnounced = async (name: string) => {
    expect((await asPerson.createTask(projectId, { name })).status).toBe(201);
    await drainWorker(worker);
  };
  const received = () => receiver.of('task.created').map((event) => event.data.task.name);

  beforeAll(async () => {
    receiver = await startReceiver();
    worker = server.webhookWorker({ timeoutMs: 2000 });
    person = await signedInPerson(server, 'hooks@example.com');
    asPerson = planningClient(server, person);
    projectId = (await asPerson.createProject({ name: 'Hooked' })).id;
    const created = await server.request<{ webhook: Webhook }>('POST', '/api/webhooks', { headers: person.headers, body: { url: receiver.url, events: ['task.created'], projectId } });
    expect(created.status).toBe(201);
    webhookId = created.body.webhook.id;

    // 410 Gone disables the webhook at once; what happens while it is off is not sent.
    receiver.answer(() => ({ status: 410 }));
    await taskAnnounced('Gone');
    expect(await webhook()).toMatchObject({ status: 'disabled', disabledReason: 'gone', disabledAt: expect.any(String) });
    receiver.answer(() => ({ status: 200 }));
    await taskAnnounced('While off');
    expect(received()).toEqual(['Gone']);
  });
  afterAll(() => receiver.close());

  it('refuses a key (401) and a session without its CSRF token (403 csrf); the webhook stays disabled', async () => {
    const key = (await server.cli('key', 'create', '--email', person.email, '--scope', 'write', '--json')).json?.key as string;
    expectRefused(await server.request('POST', `/api/webhooks/${webhookId}/enable`, { key }), 401, { error: 'unauthorized' });
    expectRefused(await server.request('POST', `/api/webhooks/${webhookId}/enable`, { headers: { cookie: person.cookie } }), 403, { error: 'forbidden', details: { reason: 'csrf' } });
    expect(await webhook()).toMatchObject({ status: 'disabled', disabledReason: 'gone' });
  });

  it('turns it on again with the session (200 active); deliveries flow again, without the events of the time it was off', async () => {
    // Written while it is off and not yet picked up by the worker when it is turned on: still not sent.
    expect((await asPerson.createTask(projectId, { name: 'Off, not yet picked up' })).status).toBe(201);
    const enabled = await server.request<{ webhook: Webhook }>('POST', `/api/webhooks/${webhookId}/enable`, { headers: person.headers });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    expect(enabled.body.webhook).toMatchObject({ id: webhookId, status: 'active', disabledReason: null, disabledAt: null });
    expect(await webhook()).toEqual(enabled.body.webhook);

    await taskAnnounced('Back on');
    expect(received()).toEqual(['Gone', 'Back on']);
    const log = await server.request<{ deliveries: Delivery[] }>('GET', `/api/webhooks/${webhookId}/deliveries`, { headers: { cookie: person.cookie } });
    expect(log.body.deliveries.map((delivery) => [delivery.status, delivery.attempts.map((attempt) => attempt.httpStatus)])).toEqual([
      ['succeeded', [200]],
      ['failed', [410]],
    ]);
  });
});
