import { routes } from '@gantry/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { authenticateApiKey, createApiKey } from '../../src/domain/api-keys.js';
import type { Actor, DomainContext } from '../../src/domain/context.js';
import { AppError } from '../../src/domain/errors.js';
import { defineOperation, perform, type Operation } from '../../src/domain/operation.js';
import { operations } from '../../src/domain/operations.js';
import { createProject, listProjects } from '../../src/domain/projects/projects.js';
import { createUser } from '../../src/domain/users.js';
import { openStore } from '../../src/store/open-store.js';
import { createTestStoreEnv, type TestStoreEnv } from '../support/test-store.js';

const all = Object.values(operations) as Operation[];

// docs/architecture.md: the operation table is what every adapter binds; scope, input and
// idempotency are enforced by `perform` in the domain, with no HTTP involved.
describe('the operation table', () => {
  let storeEnv: TestStoreEnv;
  let ctx: DomainContext;
  let reader: Actor;
  let writer: Actor;

  async function actorWith(email: string, scope: 'read' | 'write'): Promise<Actor> {
    const { key } = await createApiKey(ctx, { email, scope });
    return (await authenticateApiKey(ctx, key)) as Actor;
  }

  beforeAll(async () => {
    storeEnv = await createTestStoreEnv();
    const { store } = await openStore(loadConfig({ ...storeEnv.env, LOG_LEVEL: 'silent' }));
    ctx = { store, clock: systemClock, baseUrl: 'http://localhost:3000' };
    await createUser(ctx, { email: 'table@example.com', name: 'Table' });
    reader = await actorWith('table@example.com', 'read');
    writer = await actorWith('table@example.com', 'write');
  });
  afterAll(async () => {
    await ctx.store.close();
    await storeEnv.drop();
  });

  it('has one operation per contract route, bound to that route', () => {
    expect(Object.keys(operations).sort()).toEqual(Object.keys(routes).sort());
    for (const [name, operation] of Object.entries(operations)) expect(operation.def).toBe(routes[name as keyof typeof routes]);
  });

  it.each(all.filter((operation) => operation.def.scope === 'write' && operation.def.credentials !== 'session' && operation.def.credentials !== 'none').map((operation) => [operation.def.operationId, operation] as const))(
    '%s refuses a read-scope actor (403 insufficient_scope) and writes nothing',
    async (_name, operation) => {
      const eventsBefore = await ctx.store.q.events.latestCreatedAt();
      const refused = perform(ctx, reader, operation, { params: {}, query: {}, body: {} });
      await expect(refused).rejects.toBeInstanceOf(AppError);
      await expect(refused).rejects.toMatchObject({ code: 'forbidden', details: { reason: 'insufficient_scope' } });
      expect(await ctx.store.q.events.latestCreatedAt()).toBe(eventsBefore);
    },
  );

  it.each(all.filter((operation) => operation.def.scope === 'read' && operation.def.credentials !== 'session').map((operation) => [operation.def.operationId, operation] as const))(
    '%s lets a read-scope actor through the scope check',
    async (_name, operation) => {
      const outcome = perform(ctx, reader, operation, { params: {}, query: {}, body: {} }).catch((error: unknown) => error);
      expect(await outcome).not.toMatchObject({ code: 'forbidden' });
    },
  );

  it.each(all.filter((operation) => operation.def.credentials === 'session').map((operation) => [operation.def.operationId, operation] as const))(
    "%s is the person's own: a key or an OAuth app is refused (403 session_required, or destructive for a deletion) and nothing is written",
    async (_name, operation) => {
      const reason = operation.def.destructive ? 'destructive' : 'session_required';
      const eventsBefore = await ctx.store.q.events.latestCreatedAt();
      const keysBefore = await ctx.store.q.apiKeys.listForUser(writer.userId);
      const app: Actor = { ...writer, credential: { kind: 'oauth', id: 'grant', clientId: 'app', clientName: 'App' } };
      for (const actor of [writer, app]) {
        await expect(perform(ctx, actor, operation, { params: {}, query: {}, body: { scope: 'write' } })).rejects.toMatchObject({ code: 'forbidden', details: { reason } });
      }
      expect(await ctx.store.q.events.latestCreatedAt()).toBe(eventsBefore);
      expect(await ctx.store.q.apiKeys.listForUser(writer.userId)).toEqual(keysBefore);
    },
  );

  it('validates input in the domain: a bad id is 404, every body problem one 400', async () => {
    await expect(perform(ctx, writer, operations.getTask, { params: { projectId: 'nope', taskId: 'nope' } })).rejects.toMatchObject({ code: 'not_found' });
    const invalid = perform(ctx, writer, operations.createProject, { body: { name: '', key: '1' } });
    await expect(invalid).rejects.toMatchObject({ code: 'invalid_request' });
    const fields = ((await invalid.catch((error: AppError) => error)) as AppError).details?.fields as { path: string }[];
    expect(fields.map((field) => field.path).sort()).toEqual(['key', 'name']);
  });

  describe('idempotency keys: the claim, the write and the answer commit together', () => {
    it('a request that fails after writing leaves neither its write nor its claim: a retry runs', async () => {
      const failsAfterWriting = defineOperation(routes.createProject, async (scoped, actor, { body }) => {
        await createProject(scoped, actor, body);
        throw new AppError('service_unavailable', 'the process stopped before answering');
      });
      const body = { name: 'Half done' };
      await expect(perform(ctx, writer, failsAfterWriting, { body }, { idempotencyKey: 'crash-1' })).rejects.toMatchObject({ code: 'service_unavailable' });
      expect((await listProjects(ctx, writer, { includeArchived: true })).map((p) => p.name)).not.toContain('Half done');
      expect(await ctx.store.q.outbox.findIdempotency(writer.userId, 'crash-1')).toBeUndefined();

      const retried = await perform(ctx, writer, operations.createProject, { body }, { idempotencyKey: 'crash-1' });
      expect(retried).toMatchObject({ status: 201, replayed: false });
      const replayed = await perform(ctx, writer, operations.createProject, { body }, { idempotencyKey: 'crash-1' });
      expect(replayed).toEqual({ ...retried, replayed: true });
      expect((await listProjects(ctx, writer, { includeArchived: true })).filter((p) => p.name === 'Half done')).toHaveLength(1);
    });

    it('what must see only committed state (the plan and read caches) waits for the unit to commit, and never runs on a rollback', async () => {
      const ran: string[] = [];
      await ctx.store.unitOfWork(async (store) => {
        store.afterCommit(() => ran.push('committed'));
        expect(ran).toEqual([]);
      });
      expect(ran).toEqual(['committed']);
      const failed = ctx.store.unitOfWork(async (store) => {
        store.afterCommit(() => ran.push('rolled back'));
        throw new Error('stopped');
      });
      await expect(failed).rejects.toThrow('stopped');
      expect(ran).toEqual(['committed']);
    });

    it('a claim left unanswered by an older version is taken over, not a 409 for 24 hours', async () => {
      await ctx.store.q.outbox.claimIdempotency({ user_id: writer.userId, key: 'left-over', fingerprint: 'x', fingerprint_formula: 1, status: null, response: null, created_at: new Date().toISOString() });
      const taken = await perform(ctx, writer, operations.createProject, { body: { name: 'After the crash' } }, { idempotencyKey: 'left-over' });
      expect(taken).toMatchObject({ status: 201, replayed: false });
      const again = await perform(ctx, writer, operations.createProject, { body: { name: 'After the crash' } }, { idempotencyKey: 'left-over' });
      expect(again).toEqual({ ...taken, replayed: true });
    });
  });
});
