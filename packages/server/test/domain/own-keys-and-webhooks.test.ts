import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { authenticateApiKey } from '../../src/domain/api-keys.js';
import type { Actor, DomainContext } from '../../src/domain/context.js';
import { perform } from '../../src/domain/operation.js';
import { operations } from '../../src/domain/operations.js';
import { createUser } from '../../src/domain/users.js';
import { listWorkspaces } from '../../src/domain/workspaces.js';
import { openStore } from '../../src/store/open-store.js';
import { destinationPolicy } from '../../src/webhooks/policy.js';
import { createTestStoreEnv, type TestStoreEnv } from '../support/test-store.js';
import { ManualClock } from '../support/test-server.js';

// docs/api.md › The person's own API keys, › Deliveries: what the web app's profile does,
// run as the signed-in person through the operation table.
describe("the person's own keys and webhooks", () => {
  let storeEnv: TestStoreEnv;
  let ctx: DomainContext;
  const clock = new ManualClock();
  let ada: Actor;
  let bob: Actor;

  const personOf = async (email: string): Promise<Actor> => {
    const user = await createUser(ctx, { email, name: email.split('@')[0] });
    return { userId: user.id, name: user.name ?? email, scope: 'write', workspaceId: null, credential: { kind: 'session', id: `session-of-${email}` } };
  };
  const run = async <T>(actor: Actor, operation: (typeof operations)[keyof typeof operations], raw: Parameters<typeof perform>[3]) => (await perform(ctx, actor, operation, raw)) as { status: number; body: T };

  beforeAll(async () => {
    storeEnv = await createTestStoreEnv();
    const { store } = await openStore(loadConfig({ ...storeEnv.env, LOG_LEVEL: 'silent' }));
    ctx = { store, clock, baseUrl: 'http://localhost:3000', webhookDestinations: destinationPolicy(true) };
    ada = await personOf('ada@example.com');
    bob = await personOf('bob@example.com');
  });
  afterAll(async () => {
    await ctx.store.close();
    await storeEnv.drop();
  });

  it('creates a key shown once, lists it with its last use, and revokes it at once', async () => {
    const [workspace] = await listWorkspaces(ctx, ada);
    const created = await run<{ key: string; apiKey: { id: string; prefix: string; scope: string; workspaceId: string } }>(ada, operations.createApiKey, {
      body: { name: 'CI', scope: 'read', workspaceId: workspace!.id, expiresAt: '2099-01-01T00:00:00Z' },
    });
    expect(created.status).toBe(201);
    const { key, apiKey } = created.body;
    expect(key.startsWith(apiKey.prefix)).toBe(true);
    expect(apiKey).toMatchObject({ scope: 'read', workspaceId: workspace!.id, revokedAt: null, lastUsedAt: null, expiresAt: '2099-01-01T00:00:00.000Z' });
    expect(await authenticateApiKey(ctx, key)).toMatchObject({ userId: ada.userId, scope: 'read', workspaceId: workspace!.id });

    // A call made with the key shows as its last use (the audit log is the source).
    const at = clock.now().toISOString();
    await ctx.store.q.apiKeys.insertAuditEntries([
      { id: crypto.randomUUID(), credential_kind: 'api_key', credential_id: apiKey.id, client_id: null, user_id: ada.userId, method: 'GET', path: '/api/projects', status: 200, request_id: 'r1', duration_ms: 3, created_at: at, calls: 1 },
    ]);
    const listed = await run<{ apiKeys: { id: string; lastUsedAt: string | null }[] }>(ada, operations.listApiKeys, {});
    expect(listed.body.apiKeys.find((item) => item.id === apiKey.id)?.lastUsedAt).toBe(at);
    expect(JSON.stringify(listed.body)).not.toContain(key);

    clock.advance(1000);
    const before = clock.now().toISOString();
    const revoked = await run<{ apiKey: { revokedAt: string } }>(ada, operations.revokeApiKey, { params: { keyId: apiKey.id } });
    expect(revoked.body.apiKey.revokedAt >= before && revoked.body.apiKey.revokedAt <= clock.now().toISOString()).toBe(true);
    expect(await authenticateApiKey(ctx, key)).toBeNull();
    clock.advance(1000);
    const again = await run<{ apiKey: { revokedAt: string } }>(ada, operations.revokeApiKey, { params: { keyId: apiKey.id } });
    expect(again.body.apiKey.revokedAt).toBe(revoked.body.apiKey.revokedAt);
  });

  it("refuses an expiry in the past (400 expiresAt), another person's workspace or key (404), and lists only one's own keys", async () => {
    await expect(run(ada, operations.createApiKey, { body: { scope: 'write', expiresAt: '2020-01-01T00:00:00Z' } })).rejects.toMatchObject({
      code: 'invalid_request',
      details: { fields: [{ path: 'expiresAt' }] },
    });
    await expect(run(ada, operations.createApiKey, { body: { scope: 'write', name: '' } })).rejects.toMatchObject({ code: 'invalid_request' });
    const [bobsWorkspace] = await listWorkspaces(ctx, bob);
    await expect(run(ada, operations.createApiKey, { body: { scope: 'write', workspaceId: bobsWorkspace!.id } })).rejects.toMatchObject({ code: 'not_found' });

    const bobs = await run<{ apiKey: { id: string } }>(bob, operations.createApiKey, { body: { scope: 'write' } });
    await expect(run(ada, operations.revokeApiKey, { params: { keyId: bobs.body.apiKey.id } })).rejects.toMatchObject({ code: 'not_found' });
    const adas = await run<{ apiKeys: { id: string }[] }>(ada, operations.listApiKeys, {});
    expect(adas.body.apiKeys.map((item) => item.id)).not.toContain(bobs.body.apiKey.id);
  });

  it('turns a disabled webhook on again, its failures counted anew; not an address the policy now refuses, not a webhook of someone else', async () => {
    const [workspace] = await listWorkspaces(ctx, ada);
    const { body } = await run<{ webhook: { id: string } }>(ada, operations.createWebhook, { body: { url: 'http://127.0.0.1:9/hooks', events: ['*'], workspaceId: workspace!.id } });
    const webhookId = body.webhook.id;
    const disable = () => ctx.store.q.webhooks.update(webhookId, { status: 'disabled', disabled_reason: 'failing', disabled_at: clock.now().toISOString(), consecutive_failures: 5 });
    await disable();

    await expect(run(bob, operations.enableWebhook, { params: { webhookId } })).rejects.toMatchObject({ code: 'not_found' });
    // Without the development switch, a loopback http address is refused (decided without connecting).
    await expect(perform({ ...ctx, webhookDestinations: destinationPolicy(false) }, ada, operations.enableWebhook, { params: { webhookId } })).rejects.toMatchObject({
      code: 'invalid_request',
      details: { fields: [{ path: 'url' }] },
    });
    expect((await ctx.store.q.webhooks.findById(webhookId))?.status).toBe('disabled');

    const enabled = await run<{ webhook: { status: string; disabledReason: string | null; disabledAt: string | null } }>(ada, operations.enableWebhook, { params: { webhookId } });
    expect(enabled.body.webhook).toMatchObject({ status: 'active', disabledReason: null, disabledAt: null });
    expect(await ctx.store.q.webhooks.findById(webhookId)).toMatchObject({ status: 'active', consecutive_failures: 0 });
    // Enabling an active webhook changes nothing.
    expect((await run<{ webhook: { status: string } }>(ada, operations.enableWebhook, { params: { webhookId } })).body.webhook.status).toBe('active');
  });
});
