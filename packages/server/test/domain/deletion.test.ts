import { randomUUID } from 'node:crypto';
import type { EventEnvelope, Task, WriteResult } from '@gantry/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { authenticateApiKey, createApiKey } from '../../src/domain/api-keys.js';
import type { Actor, DomainContext } from '../../src/domain/context.js';
import type { AppError } from '../../src/domain/errors.js';
import { presentEvent } from '../../src/domain/events.js';
import { addProjectMember } from '../../src/domain/members.js';
import { VersionedMemo } from '../../src/domain/memo.js';
import { perform, RawJson, type Operation, type RawInput } from '../../src/domain/operation.js';
import { operations } from '../../src/domain/operations.js';
import { PlanCache } from '../../src/domain/planning/plan-cache.js';
import { ReadCache } from '../../src/domain/projects/read-cache.js';
import { createUser } from '../../src/domain/users.js';
import { openStore } from '../../src/store/open-store.js';
import { eventProblems } from '../support/event-check.js';
import { sessionActor, throughApp } from '../support/session-actor.js';
import { createTestStoreEnv, type TestStoreEnv } from '../support/test-store.js';

// docs/api.md › Deleting projects and tasks: only a person signed in in the web app deletes,
// with the key as confirmation, through the one write path; keys and apps never do. The
// person acts here through `perform` with a session credential (over HTTP: api/person-routes.test.ts).
describe('deleting tasks and projects', () => {
  let storeEnv: TestStoreEnv;
  let ctx: DomainContext & { planCache: PlanCache; readCache: ReadCache };
  let owner: Actor;
  let editor: Actor;
  let viewer: Actor;
  let ownerKey: Actor;

  beforeAll(async () => {
    storeEnv = await createTestStoreEnv();
    const { store } = await openStore(loadConfig({ ...storeEnv.env, LOG_LEVEL: 'silent' }));
    ctx = { store, clock: systemClock, baseUrl: 'http://localhost:3000', planCache: new PlanCache(), readCache: new ReadCache(), memo: new VersionedMemo() };
    for (const email of ['owner@example.com', 'editor@example.com', 'viewer@example.com']) await createUser(ctx, { email, name: email.split('@')[0] });
    owner = await sessionActor(ctx, 'owner@example.com');
    editor = await sessionActor(ctx, 'editor@example.com');
    viewer = await sessionActor(ctx, 'viewer@example.com');
    ownerKey = (await authenticateApiKey(ctx, (await createApiKey(ctx, { email: 'owner@example.com', scope: 'write' })).key)) as Actor;
  });
  afterAll(async () => {
    await ctx.store.close();
    await storeEnv.drop();
  });

  const run = async <T = Record<string, unknown>>(actor: Actor, operation: Operation, input: RawInput, on: DomainContext = ctx): Promise<T> => {
    const { body } = await perform(on, actor, operation, input);
    return (body instanceof RawJson ? JSON.parse(body.bytes.toString('utf8')) : body) as T;
  };
  const refusal = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected a refusal'), (error: unknown) => error as AppError);
  const events = async (projectId: string) => (await ctx.store.q.events.listForProject(projectId)).map(presentEvent);
  function expectValid(envelopes: EventEnvelope[]): void {
    for (const envelope of envelopes) expect(eventProblems(envelope), envelope.type).toEqual([]);
  }

  /** A project of the owner with the editor and viewer as members. */
  async function newProject(key: string): Promise<string> {
    const { project } = await run<{ project: { id: string } }>(owner, operations.createProject, { body: { name: `Project ${key}`, key, startDate: '2026-03-02' } });
    await addProjectMember(ctx, { projectId: project.id, email: 'editor@example.com', role: 'editor' });
    await addProjectMember(ctx, { projectId: project.id, email: 'viewer@example.com', role: 'viewer' });
    return project.id;
  }
  const task = async (projectId: string, taskId: string) => (await run<{ task: Task }>(owner, operations.getTask, { params: { projectId, taskId } })).task;

  describe('a task', () => {
    let projectId: string;
    // Phase (DEL-1) holds A and B; A → B → C; D alone; Solo (a summary) holds S1.
    const [phase, a, b, c, d, solo, s1] = Array.from({ length: 7 }, (): string => randomUUID()) as [string, string, string, string, string, string, string];
    let links: Record<string, string>;

    beforeAll(async () => {
      projectId = await newProject('DEL');
      const created = await run<WriteResult>(owner, operations.createTasks, {
        params: { projectId },
        body: {
          createTasks: [
            { id: phase, name: 'Phase', type: 'summary' },
            { id: a, name: 'A', parentId: phase, durationMin: 480 },
            { id: b, name: 'B', parentId: phase, durationMin: 480 },
            { id: c, name: 'C', durationMin: 480 },
            { id: d, name: 'D', durationMin: 480 },
            { id: solo, name: 'Solo', type: 'summary' },
            { id: s1, name: 'S1', parentId: solo, durationMin: 960 },
          ],
          createDependencies: [
            { predecessorId: a, successorId: b },
            { predecessorId: b, successorId: c },
          ],
        },
      });
      links = Object.fromEntries(created.dependencies.map((link) => [`${link.predecessorId === a ? 'A' : 'B'}`, link.id]));
      await run(owner, operations.putAssignees, { params: { projectId, taskId: a }, body: { userIds: [owner.userId] } });
      await run(owner, operations.createComment, { params: { projectId, taskId: a }, body: { body: 'Remember the spec' } });
      expect((await task(projectId, c)).startAt).toBe('2026-03-04T08:00:00.000Z');
    });

    it('is never deleted with an API key or by an OAuth app, even with the confirmation: 403 destructive, nothing changes', async () => {
      const before = (await events(projectId)).length;
      for (const actor of [ownerKey, throughApp(owner)]) {
        const refused = await refusal(run(actor, operations.deleteTask, { params: { projectId, taskId: phase }, query: { confirm: 'DEL-1' } }));
        expect(refused).toMatchObject({ code: 'forbidden', details: { reason: 'destructive' } });
      }
      // The change-set path too, for the person as for anyone.
      const viaSet = await refusal(run(owner, operations.createTasks, { params: { projectId }, body: { deleteTaskIds: [a] } }));
      expect(viaSet).toMatchObject({ code: 'forbidden', details: { reason: 'destructive' } });
      expect((await events(projectId)).length).toBe(before);
      expect((await task(projectId, a)).name).toBe('A');
    });

    it('needs the editor role, and the task key, exactly, as confirmation (400 on confirm otherwise)', async () => {
      const before = (await events(projectId)).length;
      expect(await refusal(run(viewer, operations.deleteTask, { params: { projectId, taskId: d }, query: { confirm: 'DEL-5' } }))).toMatchObject({
        code: 'forbidden',
        details: { reason: 'insufficient_role' },
      });
      for (const query of [{}, { confirm: '' }, { confirm: 'DEL-4' }, { confirm: 'del-5' }, { confirm: 'DEL-5 ' }]) {
        const refused = await refusal(run(editor, operations.deleteTask, { params: { projectId, taskId: d }, query }));
        expect(refused.code, JSON.stringify(query)).toBe('invalid_request');
        expect((refused.details?.fields as { path: string }[]).map((field) => field.path)).toEqual(['confirm']);
      }
      expect(await refusal(run(editor, operations.deleteTask, { params: { projectId, taskId: randomUUID() }, query: { confirm: 'DEL-5' } }))).toMatchObject({ code: 'not_found' });
      expect((await events(projectId)).length).toBe(before);
    });

    it('deletes the task, its subtasks and every dependency touching them; successors move; one event per change', async () => {
      const asTheyWere = await Promise.all([phase, a, b].map((id) => task(projectId, id)));
      expect(asTheyWere[1]?.assignees.map((x) => x.userId)).toEqual([owner.userId]);
      const seen = (await events(projectId)).length;

      const result = await run<WriteResult>(editor, operations.deleteTask, { params: { projectId, taskId: phase }, query: { confirm: 'DEL-1' } });
      expect(result.deletedTaskIds).toEqual([phase, a, b]);
      expect([...result.deletedDependencyIds].sort()).toEqual([links.A, links.B].sort());
      // C no longer waits for B: it moves to the project start.
      expect(result.tasks.find((t) => t.id === c)).toMatchObject({ startAt: '2026-03-02T08:00:00.000Z' });
      expect(result.stats.taskCount).toBe(4);

      const emitted = (await events(projectId)).slice(seen);
      expectValid(emitted);
      expect(emitted.every((event) => event.actor.id === editor.userId && event.actor.client === null)).toBe(true);
      expect(emitted.filter((e) => e.type === 'task.deleted').map((e) => e.data.task)).toEqual(asTheyWere);
      expect(emitted.filter((e) => e.type === 'dependency.deleted').map((e) => e.data.dependency.id).sort()).toEqual([links.A, links.B].sort());
      const moved = emitted.filter((e) => e.type === 'task.dates_changed');
      expect(moved.map((e) => [e.data.task.id, e.data.cause, e.data.previous.startAt])).toEqual([[c, 'reschedule', '2026-03-04T08:00:00.000Z']]);

      for (const id of [phase, a, b]) expect(await refusal(task(projectId, id))).toMatchObject({ code: 'not_found' });
      const { dependencies } = await run<{ dependencies: unknown[] }>(owner, operations.listDependencies, { params: { projectId } });
      expect(dependencies).toEqual([]);
      expect(await ctx.store.q.people.listAssignmentsOfTasks([a])).toEqual([]);
      expect(await ctx.store.q.people.listComments(a)).toEqual([]);
      expect((await ctx.store.q.projects.findById(projectId))?.task_count).toBe(4);
    });

    it('leaves a summary without subtasks a summary, spanning what it spanned', async () => {
      const before = await task(projectId, solo);
      const result = await run<WriteResult>(owner, operations.deleteTask, { params: { projectId, taskId: s1 }, query: { confirm: 'DEL-7' } });
      expect(result.deletedTaskIds).toEqual([s1]);
      expect(await task(projectId, solo)).toMatchObject({ type: 'summary', startAt: before.startAt, finishAt: before.finishAt, durationMin: 960 });
    });

    it('leaves the plan and read caches as a process without them would see the plan, also for the next write', async () => {
      const uncached: DomainContext = { store: ctx.store, clock: ctx.clock, baseUrl: ctx.baseUrl };
      const full = (on: DomainContext) => run(owner, operations.getProject, { params: { projectId } }, on);
      expect(await full(ctx)).toEqual(await full(uncached));
      // The next write starts from the cached plan: the deleted tasks must not come back.
      const e = randomUUID();
      await run(owner, operations.createTasks, { params: { projectId }, body: { createTasks: [{ id: e, name: 'E', durationMin: 480 }], createDependencies: [{ predecessorId: d, successorId: e }] } });
      const after = await full(ctx);
      expect(after).toEqual(await full(uncached));
      expect((after as { tasks: { id: string }[] }).tasks.map((t) => t.id).sort()).toEqual([c, d, solo, e].sort());
    });
  });

  describe('a project', () => {
    it('is deleted by its owner only, in the web app only, with its key as confirmation; then it is gone everywhere', async () => {
      const projectId = await newProject('GONE');
      const taskId = randomUUID();
      await run(owner, operations.createTasks, { params: { projectId }, body: { createTasks: [{ id: taskId, name: 'Only' }] } });
      const { project: asItWas } = await run<{ project: Record<string, unknown> }>(owner, operations.getProject, { params: { projectId } });
      const seen = (await events(projectId)).length;

      for (const actor of [ownerKey, throughApp(owner)]) {
        expect(await refusal(run(actor, operations.deleteProject, { params: { projectId }, query: { confirm: 'GONE' } }))).toMatchObject({ details: { reason: 'destructive' } });
      }
      expect(await refusal(run(editor, operations.deleteProject, { params: { projectId }, query: { confirm: 'GONE' } }))).toMatchObject({ details: { reason: 'insufficient_role' } });
      for (const query of [{}, { confirm: 'gone' }, { confirm: 'DEL' }]) {
        const refused = await refusal(run(owner, operations.deleteProject, { params: { projectId }, query }));
        expect((refused.details?.fields as { path: string }[]).map((field) => field.path)).toEqual(['confirm']);
      }
      expect((await events(projectId)).length).toBe(seen);

      expect(await run(owner, operations.deleteProject, { params: { projectId }, query: { confirm: 'GONE' } })).toEqual({ deleted: true, projectId });
      const emitted = (await events(projectId)).slice(seen);
      expectValid(emitted);
      expect(emitted.map((e) => [e.type, e.actor.id])).toEqual([['project.deleted', owner.userId]]);
      expect(emitted[0]?.data).toEqual({ project: asItWas });

      for (const actor of [owner, ownerKey, editor]) {
        const { projects } = await run<{ projects: { id: string }[] }>(actor, operations.listProjects, { query: { archived: '1' } });
        expect(projects.map((p) => p.id)).not.toContain(projectId);
      }
      const reads: [Operation, RawInput][] = [
        [operations.getProject, { params: { projectId } }],
        [operations.listTasks, { params: { projectId } }],
        [operations.getTask, { params: { projectId, taskId } }],
        [operations.listDependencies, { params: { projectId } }],
        [operations.listProjectMembers, { params: { projectId } }],
        [operations.listBaselines, { params: { projectId } }],
        [operations.createTasks, { params: { projectId }, body: { name: 'Late' } }],
        [operations.updateProject, { params: { projectId }, body: { name: 'Back?' } }],
        [operations.createInvite, { params: { projectId }, body: { role: 'viewer' } }],
        [operations.deleteProject, { params: { projectId }, query: { confirm: 'GONE' } }],
      ];
      for (const [operation, input] of reads) expect(await refusal(run(owner, operation, input)), operation.def.operationId).toMatchObject({ code: 'not_found' });
      expect((await events(projectId)).length).toBe(seen + 1);

      // Its key is free again in the workspace.
      const again = await run<{ project: { key: string } }>(owner, operations.createProject, { body: { name: 'Gone again', key: 'GONE' } });
      expect(again.project.key).toBe('GONE');
    });
  });
});
