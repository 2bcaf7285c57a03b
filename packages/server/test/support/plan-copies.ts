import { expect } from 'vitest';
import { expectStatus, uuid, type PlanningClient, type PlanTask } from './planning.js';

/**
 * A plan with every kind of row a copy or a restore must carry: a summary with subtasks, a
 * milestone, links of the four types with lags and leads, a constraint, a manually
 * scheduled task, progress, an assignment to the owner and a baseline.
 */
export async function richPlan(client: PlanningClient, options: { key: string; ownerId: string }) {
  const project = await client.createProject({ name: `Rich ${options.key}`, key: options.key, startDate: '2026-03-02' });
  const [phase, design, build, review, pinned, manual, launch] = [uuid(), uuid(), uuid(), uuid(), uuid(), uuid(), uuid()];
  const created = await client.changeSet(project.id, {
    createTasks: [
      { id: phase, name: 'Phase', type: 'summary' },
      { id: design, name: 'Design', parentId: phase, durationMin: 960, notes: 'Sketch first', color: '#336699', wbs: '1.1', externalId: 'EXT-1' },
      { id: build, name: 'Build', parentId: phase, durationMin: 1440, taskType: 'fixed_duration', costFixed: 250 },
      { id: review, name: 'Review', durationMin: 480, deadline: '2026-03-20T17:00:00.000Z' },
      { id: pinned, name: 'Pinned', durationMin: 480, constraintKind: 'start_no_earlier_than', constraintDate: '2026-03-16T08:00:00.000Z' },
      { id: manual, name: 'Manual', durationMin: 960, manuallyScheduled: true },
      { id: launch, name: 'Launch', type: 'milestone' },
    ],
    createDependencies: [
      { predecessorId: design, successorId: build, type: 'FS', lagMin: 120 },
      { predecessorId: design, successorId: review, type: 'SS', lagMin: 480 },
      { predecessorId: build, successorId: pinned, type: 'FF', lagMin: -240 },
      { predecessorId: review, successorId: launch, type: 'SF', lagMin: 0 },
      { predecessorId: phase, successorId: launch, type: 'FS', lagMin: 0 },
    ],
  });
  expectStatus(created, 200);
  expectStatus(await client.putAssignees(project.id, build, { userIds: [options.ownerId] }), 200);
  expectStatus(await client.saveBaseline(project.id), 201);
  expectStatus(await client.patchTask(project.id, design, { progressPct: 50 }), 200);
  return { project, ids: { phase, design, build, review, pinned, manual, launch } };
}

/** The full project's plan without what legitimately differs between copies: ids, keys, numbers, timestamps; parents and links by task name. */
export function comparablePlan(full: { tasks: PlanTask[]; dependencies: { predecessorId: string; successorId: string; type: string; lagMin: number }[]; assignments?: { taskId: string; unitsPct: number }[] }) {
  const names = new Map(full.tasks.map((task) => [task.id, task.name]));
  return {
    tasks: full.tasks.map(({ id: _id, key: _key, number: _number, parentId, ...task }) => ({ ...task, parent: parentId === null ? null : names.get(parentId) })),
    dependencies: full.dependencies
      .map((link) => ({ from: names.get(link.predecessorId), to: names.get(link.successorId), type: link.type, lagMin: link.lagMin }))
      .sort((a, b) => `${a.from}${a.to}`.localeCompare(`${b.from}${b.to}`)),
    assignments: (full.assignments ?? []).map((a) => ({ task: names.get(a.taskId), unitsPct: a.unitsPct })).sort((a, b) => String(a.task).localeCompare(String(b.task))),
  };
}

export function expectSamePlan(actual: Parameters<typeof comparablePlan>[0], expected: Parameters<typeof comparablePlan>[0]): void {
  expect(comparablePlan(actual)).toEqual(comparablePlan(expected));
}
