import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { authenticateApiKey, createApiKey } from '../../src/domain/api-keys.js';
import type { Actor, DomainContext } from '../../src/domain/context.js';
import { VersionedMemo } from '../../src/domain/memo.js';
import { perform } from '../../src/domain/operation.js';
import { operations } from '../../src/domain/operations.js';
import { PlanCache } from '../../src/domain/planning/plan-cache.js';
import { readVersion, ReadCache } from '../../src/domain/projects/read-cache.js';
import { createUser } from '../../src/domain/users.js';
import { openStore } from '../../src/store/open-store.js';
import type { ProjectRow } from '../../src/store/store.js';
import { createTestStoreEnv, type TestStoreEnv } from '../support/test-store.js';

// docs/architecture.md › perform: a dry run is the write path run in full and rolled back.
// Besides the store, nothing it did may stay in the process's caches.
describe('perform with dryRun', () => {
  let storeEnv: TestStoreEnv;
  let ctx: DomainContext & { planCache: PlanCache; readCache: ReadCache };
  let actor: Actor;
  let projectId: string;

  beforeAll(async () => {
    storeEnv = await createTestStoreEnv();
    const { store } = await openStore(loadConfig({ ...storeEnv.env, LOG_LEVEL: 'silent' }));
    ctx = { store, clock: systemClock, baseUrl: 'http://localhost:3000', planCache: new PlanCache(), readCache: new ReadCache(), memo: new VersionedMemo() };
    await createUser(ctx, { email: 'dry@example.com', name: 'Dry' });
    actor = (await authenticateApiKey(ctx, (await createApiKey(ctx, { email: 'dry@example.com', scope: 'write' })).key)) as Actor;
    const created = await perform(ctx, actor, operations.createProject, { body: { name: 'Dry', startDate: '2026-03-02' } });
    projectId = (created.body as { project: { id: string } }).project.id;
    // A real write: the plan and read caches now hold the committed plan.
    await perform(ctx, actor, operations.createTasks, { params: { projectId }, body: { name: 'Design', durationMin: 960 } });
  });
  afterAll(async () => {
    await ctx.store.close();
    await storeEnv.drop();
  });

  const project = async () => (await ctx.store.q.projects.findById(projectId)) as ProjectRow;

  it('answers the write, then leaves the store, the outbox and both caches as they were', async () => {
    const before = await project();
    const eventsBefore = await ctx.store.q.events.latestCreatedAt();
    const id = randomUUID();
    const outcome = await perform(ctx, actor, operations.createTasks, { params: { projectId }, body: { createTasks: [{ id, name: 'Maybe', durationMin: 480 }] } }, { dryRun: true });
    expect(outcome.status).toBe(200);
    expect((outcome.body as { tasks: { id: string }[] }).tasks.map((task) => task.id)).toEqual([id]);

    expect(await project()).toEqual(before);
    expect(await ctx.store.q.tasks.findById(projectId, id)).toBeUndefined();
    expect(await ctx.store.q.events.latestCreatedAt()).toBe(eventsBefore);
    // Nothing remembered for the version the dry run would have written …
    const wouldBe = { ...before, plan_version: before.plan_version + 1 };
    expect(ctx.planCache.get(wouldBe)).toBeUndefined();
    expect(ctx.readCache.get(projectId, readVersion(wouldBe))).toBeUndefined();
    // … and the committed plan is still the one the next write starts from.
    const cached = ctx.planCache.get(before);
    expect(cached?.tasks.size).toBe(1);
    expect(cached?.tasks.has(id)).toBe(false);
    expect(cached?.project.plan_version).toBe(before.plan_version);
  });

  it('refuses like the write would, and leaves nothing either', async () => {
    const before = await project();
    const refused = perform(ctx, actor, operations.createTasks, { params: { projectId }, body: { createTasks: [{ name: '' }] } }, { dryRun: true });
    await expect(refused).rejects.toMatchObject({ code: 'invalid_request' });
    expect(await project()).toEqual(before);
  });
});
