import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type * as nodeCrypto from 'node:crypto';
import type { ScheduleResult } from '@gantry/engine';
import type { ProjectRow, ResourceRow } from '../../store/store.js';
import { PlanEditor, reportedFields, type PlanChanges } from './apply-changes.js';
import { PlanCache } from './plan-cache.js';
import { PlanRows } from './plan-rows.js';
import { recalculate, type Plan } from './plan.js';

// Dependency ids come from randomUUID: a counter makes a reported seed replay the same plans.
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof nodeCrypto>();
  let next = 0;
  return { ...crypto, randomUUID: () => `dddddddd-0000-4000-8000-${String((next += 1)).padStart(12, '0')}` };
});

// INCREMENTAL_PROP_RUNS raises the number of runs; INCREMENTAL_PROP_SEED replays a reported seed.
const SEED = process.env.INCREMENTAL_PROP_SEED ? { seed: Number(process.env.INCREMENTAL_PROP_SEED) } : {};
const RUNS = { numRuns: Number(process.env.INCREMENTAL_PROP_RUNS ?? 120), ...SEED };

type Fields = Record<string, unknown>;

const instant = fc.integer({ min: 0, max: 30 * 24 * 4 }).map((q) => new Date(Date.UTC(2026, 1, 26) + q * 15 * 60_000).toISOString());
const duration = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 40 }).map((k) => k * 60), fc.integer({ min: 1, max: 3000 }));
const datedKinds = ['start_no_earlier_than', 'start_no_later_than', 'finish_no_earlier_than', 'finish_no_later_than', 'must_start_on', 'must_finish_on'] as const;
// ALAP tasks make every run of the plan a full one: they come rarely, so most runs are incremental.
const constraint = fc.oneof(
  { weight: 4, arbitrary: fc.record({ constraintKind: fc.constant('asap') }) },
  { weight: 1, arbitrary: fc.record({ constraintKind: fc.constant('alap') }) },
  { weight: 6, arbitrary: fc.record({ constraintKind: fc.constantFrom(...datedKinds), constraintDate: instant }) },
);
/** Valid values of every field a client edits (what the API's schemas let through). */
const editable = {
  name: fc.constantFrom('Design', 'Build', 'Test'),
  type: fc.constantFrom('task', 'milestone', 'summary'),
  durationMin: duration,
  workMin: fc.integer({ min: 0, max: 4800 }),
  progressPct: fc.constantFrom(0, 30, 62.5, 100),
  deadline: fc.option(instant),
  notes: fc.option(fc.constantFrom('x', 'y')),
  manuallyScheduled: fc.boolean(),
  levelingDelayMin: fc.constantFrom(0, 60, 480),
  taskType: fc.constantFrom('fixed_units', 'fixed_duration', 'fixed_work', 'fixed_duration_and_units'),
  effortDriven: fc.boolean(),
  durationOptimisticMin: fc.option(duration),
  durationPessimisticMin: fc.option(duration),
  actualStartAt: fc.option(instant),
  actualFinishAt: fc.option(instant),
};
/** A few fields at a time, mostly consistent (a milestone without a duration, an actual finish after the start): refusals end the engine state, so they stay rare. */
const someFields: fc.Arbitrary<Fields> = fc
  .uniqueArray(fc.constantFrom(...(Object.keys(editable) as (keyof typeof editable)[])), { maxLength: 3 })
  .chain((names) => fc.tuple(fc.record(Object.fromEntries(names.map((name) => [name, editable[name]])) as Record<string, fc.Arbitrary<unknown>>), fc.option(constraint, { freq: 4 })))
  .map(([fields, kind]) => {
    const out: Fields = { ...fields, ...kind };
    if (out.type === 'milestone') delete out.durationMin;
    const { actualStartAt: start, actualFinishAt: finish } = out;
    if (typeof start === 'string' && typeof finish === 'string' && finish < start) [out.actualStartAt, out.actualFinishAt] = [finish, start];
    return out;
  });

/** A task of the current plan, by position (modulo the task count). */
const taskRef = fc.nat();
/** A parent for a new task: one in four goes under another task. */
const parentRef = fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: taskRef });
const placement = fc.oneof(
  fc.record({ parentId: fc.option(taskRef) }),
  fc.record({ afterTaskId: taskRef }),
  fc.record({ beforeTaskId: taskRef }),
);
const link = fc.record({ a: taskRef, b: taskRef, type: fc.constantFrom('FS', 'FS', 'SS', 'FF', 'SF'), lagMin: fc.oneof(fc.constant(0), fc.integer({ min: -1500, max: 1500 })) });

/** One item of a write; a write combines a few (a change set) or holds one (PATCH, POST …/dependencies, PUT …/assignees). */
type Item =
  | { kind: 'create'; fields: Fields; parent: number | null }
  | { kind: 'edit'; task: number; fields: Fields }
  | { kind: 'same'; task: number; field: string }
  | { kind: 'move'; task: number; placement: Record<string, number | null> }
  | { kind: 'link'; a: number; b: number; type: 'FS' | 'SS' | 'FF' | 'SF'; lagMin: number }
  | { kind: 'relink'; index: number; type?: 'FS' | 'SS' | 'FF' | 'SF'; lagMin?: number }
  | { kind: 'unlink'; index: number }
  | { kind: 'assign'; task: number; resources: number[] }
  | { kind: 'delete'; task: number }
  | { kind: 'project'; startDate: string; backward: boolean }
  | { kind: 'full' };

const sameFields = reportedFields.map(([name]) => name).filter((name) => name in editable || name === 'constraintKind');
const item: fc.Arbitrary<Item> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('create' as const), fields: someFields, parent: parentRef }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('edit' as const), task: taskRef, fields: someFields }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('same' as const), task: taskRef, field: fc.constantFrom(...sameFields) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('move' as const), task: taskRef, placement }) },
  { weight: 4, arbitrary: link.map((l) => ({ kind: 'link' as const, ...l })) },
  // A link written again between the same tasks: a new type or lag, or the same ones (no-op).
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('relink' as const), index: fc.nat(), type: link.map((l) => l.type), lagMin: link.map((l) => l.lagMin) }, { requiredKeys: ['kind', 'index'] }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('unlink' as const), index: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('assign' as const), task: taskRef, resources: fc.uniqueArray(fc.nat(2), { maxLength: 3 }) }) },
  // A task deleted with its subtasks and links (the web app's deletion).
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), task: taskRef }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('project' as const), startDate: fc.constantFrom('2026-03-02', '2026-02-28', '2026-03-05'), backward: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'full' as const }) },
);
const write = fc.array(item, { minLength: 1, maxLength: 3 });
/** A first change set creating the plan (parents among earlier tasks), then its links, then edits. */
const scenario = fc.record({
  tasks: fc.array(fc.record({ fields: someFields, parent: parentRef }), { minLength: 1, maxLength: 14 }),
  links: fc.array(fc.array(link, { minLength: 1, maxLength: 3 }), { maxLength: 5 }),
  writes: fc.array(write, { minLength: 1, maxLength: 8 }),
});

const resources: ResourceRow[] = [0, 1, 2].map((k) => ({ id: `rrrrrrrr-0000-4000-8000-00000000000${k}`, project_id: 'p', user_id: null, name: `R${k}`, max_units_pct: 100, created_at: '2026-01-01T00:00:00.000Z' }));

/** What the server keeps between writes (the plan cache, the project row), and counters for ids and times. */
interface Session {
  cache: PlanCache;
  project: ProjectRow;
  writes: number;
  tasksCreated: number;
}

function emptySession(): Session {
  const project: ProjectRow = {
    id: 'p',
    workspace_id: 'w',
    key: 'PRJ',
    key_locked: 0,
    name: 'Property',
    description: null,
    start_date: '2026-03-02',
    calendar_id: null,
    currency: 'EUR',
    schedule_from: 'forward',
    deadline: null,
    color: null,
    settings: '{}',
    archived_at: null,
    created_by: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    finish_at: '2026-03-02T08:00:00.000Z',
    task_count: 0,
    next_task_number: 1,
    plan_version: 0,
    derived_values_version: 1,
    deleted_at: null,
    deleted_by: null,
  };
  const cache = new PlanCache();
  cache.put({ project, tasks: new PlanRows(), dependencies: new PlanRows(), resources: PlanRows.loaded(resources), assignments: new PlanRows(), calendars: [] }, 0);
  return { cache, project, writes: 0, tasksCreated: 0 };
}

/** Client-chosen task ids, not in creation order (as random UUIDs are not). */
function taskId(k: number): string {
  return `${(Math.imul(k + 1, 2654435761) >>> 0).toString(16).padStart(8, '0')}-0000-4000-8000-${String(k).padStart(12, '0')}`;
}

/** The API value of a task's field, for an edit that sends it unchanged. */
function currentValue(plan: Plan, id: string, field: string): Fields {
  const row = plan.tasks.get(id);
  const column = reportedFields.find(([name]) => name === field)?.[1];
  if (!row || !column) return {};
  const value = row[column];
  if (field === 'constraintKind') return { constraintKind: value, constraintDate: row.constraint_date };
  return { [field]: column === 'manually_scheduled' || column === 'effort_driven' ? value === 1 : value };
}

/** The change set of one write, its task references resolved against the plan as loaded. */
function changeSet(session: Session, plan: Plan, items: Item[]): PlanChanges {
  const ids = [...plan.tasks.values()].map((row) => row.id);
  const pick = (k: number) => ids[k % ids.length];
  const changes: PlanChanges = { createTasks: [], updateTasks: [], createDependencies: [], deleteDependencyIds: [], fullReschedule: false };
  for (const [index, entry] of items.entries()) {
    const path = `items[${index}]`;
    if (entry.kind === 'create') {
      const id = taskId((session.tasksCreated += 1));
      changes.createTasks.push({ name: 'New', ...entry.fields, id, parentId: entry.parent === null ? null : (pick(entry.parent) ?? null), path });
      ids.push(id);
    } else if (ids.length === 0) {
      continue;
    } else if (entry.kind === 'edit') {
      changes.updateTasks.push({ ...entry.fields, id: pick(entry.task)!, path });
    } else if (entry.kind === 'same') {
      const id = pick(entry.task)!;
      changes.updateTasks.push({ ...currentValue(plan, id, entry.field), id, path });
    } else if (entry.kind === 'move') {
      const id = pick(entry.task)!;
      // Mostly relative to another task: placing a task relative to itself is refused.
      const other = (ref: number) => (pick(ref) === id ? pick(ref + 1) : pick(ref));
      const resolved = Object.fromEntries(Object.entries(entry.placement).map(([name, ref]) => [name, ref === null ? null : other(ref)]));
      changes.updateTasks.push({ id, placement: resolved, path });
    } else if (entry.kind === 'link') {
      const predecessorId = pick(entry.a)!;
      const successorId = pick(entry.b) === predecessorId ? pick(entry.b + 1)! : pick(entry.b)!;
      changes.createDependencies.push({ predecessorId, successorId, type: entry.type, lagMin: entry.lagMin, path });
    } else if (entry.kind === 'relink') {
      const dependencies = [...plan.dependencies.values()];
      const existing = dependencies[entry.index % dependencies.length];
      if (existing) {
        const { predecessor_id: predecessorId, successor_id: successorId } = existing;
        changes.createDependencies.push({ predecessorId, successorId, type: entry.type ?? existing.type, lagMin: entry.lagMin ?? existing.lag_min, path });
      }
    } else if (entry.kind === 'unlink') {
      const dependencies = [...plan.dependencies.values()].map((row) => row.id);
      if (dependencies.length > 0) changes.deleteDependencyIds.push({ id: dependencies[entry.index % dependencies.length]!, path });
    } else if (entry.kind === 'assign') {
      changes.assignees = { taskId: pick(entry.task)!, memberResourceIds: [], resourceIds: entry.resources.map((k) => resources[k]!.id), path: '' };
    } else if (entry.kind === 'delete') {
      const id = pick(entry.task)!;
      (changes.deleteTaskIds ??= []).push({ id, path });
      // Deletions apply first: the write's other items pick among the tasks left.
      const gone = new Set([id]);
      for (let grew = true; grew; ) {
        grew = false;
        for (const row of plan.tasks.values()) if (row.parent_id !== null && gone.has(row.parent_id) && !gone.has(row.id)) grew = gone.add(row.id) !== undefined;
      }
      ids.splice(0, ids.length, ...ids.filter((taskId) => !gone.has(taskId)));
    } else if (entry.kind === 'full') {
      changes.fullReschedule = true;
    }
  }
  return changes;
}

/** The same plan without the engine's state: what a full recalculation from scratch starts from. */
function withoutScheduler(plan: Plan): Plan {
  return {
    ...plan,
    // A recalculation writes only task rows (through copies): links and assignments are read.
    tasks: new PlanRows(new Map([...plan.tasks.values()].map((row) => [row.id, { ...row }]))),
    scheduler: undefined,
  };
}

/** Recalculates the plan as the write path does, checking it against a full recalculation of the same rows. */
function checkedRecalculate(plan: Plan, recalculation: (plan: Plan) => ScheduleResult, context: () => string): ScheduleResult {
  const reference = withoutScheduler(plan);
  const expected = recalculate(reference);
  const actual = recalculation(plan);
  const outcome = (result: ScheduleResult) => ({
    tasks: result.tasks,
    conflicts: result.conflicts,
    cycles: result.cycles,
    projectStartAt: result.projectStartAt,
    projectFinishAt: result.projectFinishAt,
  });
  expect(outcome(actual), context()).toEqual(outcome(expected));
  expect([...plan.tasks.values()], context()).toEqual([...reference.tasks.values()]);
  return actual;
}

/**
 * One write as `writePlanInTransaction` makes it: apply, recalculate, progress of new
 * tasks, commit; the result, or undefined when the write is refused (nothing committed).
 */
function runWrite(session: Session, items: Item[], log: string[]): ScheduleResult | undefined {
  const edit = items.find((entry) => entry.kind === 'project');
  const project: ProjectRow = edit?.kind === 'project'
    ? { ...session.project, start_date: edit.startDate, schedule_from: edit.backward ? 'backward' : 'forward', deadline: edit.backward ? '2026-04-10' : null }
    : { ...session.project };
  const plan = session.cache.get(project);
  if (!plan) throw new Error('the plan cache lost the committed plan');
  const changes = changeSet(session, plan, items);
  session.writes += 1;
  const editor = new PlanEditor(plan, new Date(Date.UTC(2026, 0, 1) + session.writes * 1000).toISOString(), new Set());
  editor.apply(changes);
  log.push(`write ${session.writes}: ${JSON.stringify(changes)}`);
  const context = () => log.join('\n');
  if (editor.problems.length > 0) return void log.push(`  refused: ${JSON.stringify(editor.problems)}`);
  let result = checkedRecalculate(plan, (p) => recalculate(p, { full: changes.fullReschedule }), context);
  if (editor.hasPendingProgress && result.cycles.length === 0) {
    editor.applyPendingProgress();
    if (editor.problems.length > 0) return void log.push(`  refused: ${JSON.stringify(editor.problems)}`);
    result = checkedRecalculate(plan, (p) => recalculate(p), context);
  }
  if (result.cycles.length > 0) return void log.push('  refused: cycle');
  // The editor settles only the types its edits can affect: every task with subtasks must still be a summary.
  const parents = new Set([...plan.tasks.values()].map((task) => task.parent_id));
  for (const task of plan.tasks.values()) if (parents.has(task.id)) expect(task.type, context()).toBe('summary');
  project.plan_version += 1;
  session.cache.put(plan, project.plan_version);
  session.project = project;
  return result;
}

describe('property: incremental recalculation in the write path', () => {
  test.prop([scenario], RUNS)('after every write, the incremental result equals a full recalculation of the same rows', ({ tasks, links, writes }) => {
    const session = emptySession();
    const log: string[] = [];
    runWrite(session, tasks.map(({ fields, parent }) => ({ kind: 'create', fields, parent })), log);
    for (const items of links) runWrite(session, items.map((l) => ({ kind: 'link', ...l })), log);
    for (const items of writes) runWrite(session, items, log);
  });
});

describe('incremental recalculation in the write path', () => {
  it('a summary whose own task type is fixed work keeps its rolled-up duration when people are assigned to it', () => {
    const session = emptySession();
    const log: string[] = [];
    runWrite(session, [{ kind: 'create', fields: { taskType: 'fixed_work', workMin: 1 }, parent: null }, { kind: 'create', fields: {}, parent: 0 }], log);
    runWrite(session, [{ kind: 'assign', task: 0, resources: [0] }], log);
    runWrite(session, [{ kind: 'relink', index: 0 }], log);
  });

  it('recomputes only what a write affects', () => {
    const session = emptySession();
    const log: string[] = [];
    runWrite(session, Array.from({ length: 12 }, () => ({ kind: 'create', fields: {}, parent: null })), log);
    runWrite(session, Array.from({ length: 10 }, (_, k) => ({ kind: 'link', a: k, b: k + 1, type: 'FS', lagMin: 0 })), log);
    // The twelfth task is not linked: a new duration moves it alone.
    const result = runWrite(session, [{ kind: 'edit', task: 11, fields: { durationMin: 960 } }], log);
    expect(result?.stats).toEqual({ taskCount: 12, recomputedCount: 1 });
  });

  // Counterexamples of the property test when the changes were taken from what the edits
  // reported: a summary's rollup, written back into its row, was never reported.
  it("a summary's rollup written back by one write is an input of the next", () => {
    const session = emptySession();
    const log: string[] = [];
    const phase = { kind: 'create' as const, fields: { constraintKind: 'start_no_earlier_than', constraintDate: '2026-03-06T17:00:00.000Z' }, parent: null };
    runWrite(session, [phase, { kind: 'create', fields: {}, parent: null }], log);
    // A milestone under the phase rolls its duration up to 0, which makes the phase a point
    // (its Friday 17:00 constraint is no longer moved to Monday 08:00) from the next write on.
    runWrite(session, [{ kind: 'create', fields: { durationMin: 0 }, parent: 0 }], log);
    const result = runWrite(session, [{ kind: 'edit', task: 1, fields: { name: 'Unrelated' } }], log);
    expect(result?.projectFinishAt).toBe('2026-03-06T17:00:00.000Z');
  });

  it("the second recalculation of a write (progress of new tasks) sees the summaries the first rolled up", () => {
    const session = emptySession();
    const log: string[] = [];
    runWrite(session, [{ kind: 'create', fields: { durationOptimisticMin: 60, durationPessimisticMin: 0 }, parent: null }], log);
    // The subtask's progress waits for a first recalculation, which rolls the summary's duration up.
    const result = runWrite(session, [{ kind: 'create', fields: { durationMin: 60, actualStartAt: null }, parent: 0 }], log);
    expect(result?.tasks.find((t) => t.isSummary)?.pertDurationMin).toBe(50);
  });
});
