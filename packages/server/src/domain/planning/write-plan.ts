import type { Assignment, Conflict, WriteResult } from '@gantry/contract';
import { SCHEDULE_HORIZON, type ScheduleResult } from '@gantry/engine';
import type { AssignmentRow, ProjectRow, Queries, TaskRow } from '../../store/store.js';
import { yieldIfBusy } from '../../time-slice.js';
import { nowIso, type Actor, type DomainContext } from '../context.js';
import { AppError, invalid } from '../errors.js';
import { appendEvents, type DomainEvent } from '../outbox.js';
import { lockProject, requireProject } from '../permissions.js';
import { readVersion } from '../projects/read-cache.js';
import { movedByItsEdit, PlanEditor, type AppliedChanges, type PlanChanges } from './apply-changes.js';
import { captureBaseline } from './baselines.js';
import { loadPlan, planSpan, recalculate, rowChanged, type Plan } from './plan.js';
import { presentDependency, presentPlanTask, presentProject, presentTask, type AssigneeView } from './presenters.js';
import { scheduleEvents } from './schedule-events.js';

export type PlanWriteResult = WriteResult & { plan: Plan };

/** Who is assigned to a task in this plan (or in `assignments`), by name: the `assignees` of the task read shape. */
export function assigneeViews(plan: Plan, taskId: string, assignments: readonly AssignmentRow[] = plan.assignments.get(taskId) ?? []): AssigneeView[] {
  return assignments
    .map((a) => {
      const resource = plan.resources.get(a.resource_id);
      return { resourceId: a.resource_id, userId: resource?.user_id ?? null, name: resource?.name ?? '', unitsPct: a.units_pct };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.resourceId.localeCompare(b.resourceId));
}

/** Whether two lists of a task's assignment rows assign the same resources with the same units, in any order. */
function sameAssignments(a: readonly AssignmentRow[], b: readonly AssignmentRow[]): boolean {
  const units = new Map(a.map((row) => [row.resource_id, row.units_pct]));
  return a.length === b.length && b.every((row) => units.get(row.resource_id) === row.units_pct);
}

/**
 * The WriteResult's `reassignedTaskIds` — the tasks left in the plan whose assignments
 * differ from the committed ones, by task number — and `assignments`, theirs as they now
 * are, in the order of the tasks' `assignees`.
 */
function reassignments(plan: Plan, applied: AppliedChanges): Pick<WriteResult, 'assignments' | 'reassignedTaskIds'> {
  const tasks = [...applied.reassignedTaskIds]
    .map((id) => plan.tasks.get(id))
    .filter((row): row is Readonly<TaskRow> => row !== undefined && !sameAssignments(plan.assignments.original(row.id) ?? [], plan.assignments.get(row.id) ?? []))
    .sort((a, b) => a.number - b.number);
  return {
    assignments: tasks.flatMap((row): Assignment[] =>
      assigneeViews(plan, row.id).map(({ resourceId, unitsPct }) => ({ taskId: row.id, resourceId, unitsPct })),
    ),
    reassignedTaskIds: tasks.map((row) => row.id),
  };
}

/** The years the engine computes exactly, as a person reads them (its end is exclusive). */
const horizonYears = `${SCHEDULE_HORIZON.start.slice(0, 4)}-${Number(SCHEDULE_HORIZON.end.slice(0, 4)) - 1}`;

/** Whether every computed date lies strictly inside the span the engine computes exactly (at its edges, dates are clamped). */
function withinHorizon(result: ScheduleResult): boolean {
  const { start, end } = SCHEDULE_HORIZON;
  return (result.projectStartAt === null || result.projectStartAt > start) && (result.projectFinishAt === null || result.projectFinishAt < end);
}

function datesMoved(before: TaskRow | undefined, after: TaskRow): boolean {
  return before !== undefined && (before.start_at !== after.start_at || before.finish_at !== after.finish_at);
}

/**
 * The events of one plan write, in the order things happened. A write that moves every
 * task of a big plan has an event (with the whole task) per task: the loop turns between
 * slices of them, as building 10,000 payloads takes a good part of a second.
 */
async function planEvents(ctx: DomainContext, plan: Plan, applied: AppliedChanges, saved: TaskRow[]): Promise<DomainEvent[]> {
  const { project } = plan;
  const base = { workspaceId: project.workspace_id, projectId: project.id };
  const task = (row: Readonly<TaskRow>, assignments?: readonly AssignmentRow[]) => presentTask(row, project.key, assigneeViews(plan, row.id, assignments), ctx.baseUrl);
  const events: DomainEvent[] = [];
  const add = async (event: DomainEvent) => {
    events.push(event);
    await yieldIfBusy();
  };
  for (const id of applied.createdTaskIds) {
    await add({ ...base, type: 'task.created', data: { task: task(plan.tasks.get(id) as TaskRow) } });
  }
  for (const [id, changes] of applied.editedTasks) {
    await add({ ...base, type: 'task.updated', data: { task: task(plan.tasks.get(id) as TaskRow), changes } });
  }
  for (const row of saved) {
    const before = plan.tasks.original(row.id);
    if ((!before || before.progress_pct < 100) && row.progress_pct >= 100) await add({ ...base, type: 'task.completed', data: { task: task(row) } });
  }
  for (const row of saved) {
    const before = plan.tasks.original(row.id);
    if (!before || !datesMoved(before, row)) continue;
    await add({
      ...base,
      type: 'task.dates_changed',
      data: {
        task: task(row),
        cause: movedByItsEdit(applied, row.id) ? 'edit' : 'reschedule',
        previous: { startAt: before.start_at, finishAt: before.finish_at },
      },
    });
  }
  for (const id of applied.writtenDependencyIds) {
    const dependency = plan.dependencies.get(id);
    if (dependency) await add({ ...base, type: 'dependency.created', data: { dependency: presentDependency(dependency) } });
  }
  for (const dependency of applied.deletedDependencies) {
    await add({ ...base, type: 'dependency.deleted', data: { dependency: presentDependency(dependency) } });
  }
  for (const { row, assignments } of applied.deletedTasks) {
    await add({ ...base, type: 'task.deleted', data: { task: task(row, assignments) } });
  }
  return events;
}

async function persist(tx: Queries, plan: Plan, applied: AppliedChanges, saved: TaskRow[]): Promise<void> {
  await tx.tasks.upsertMany(saved);
  for (const taskId of applied.reassignedTaskIds) await tx.people.replaceAssignments(taskId, plan.assignments.get(taskId) ?? []);
  await tx.tasks.deleteDependencies(applied.deletedDependencies.map((d) => d.id));
  const newDependencies = applied.writtenDependencyIds.filter((id) => !plan.dependencies.original(id));
  await tx.tasks.insertDependencies(newDependencies.map((id) => plan.dependencies.get(id)).filter((d) => d !== undefined));
  for (const id of applied.writtenDependencyIds) {
    const dependency = plan.dependencies.get(id);
    if (dependency && plan.dependencies.original(id)) {
      await tx.tasks.updateDependency(id, { type: dependency.type, lag_min: dependency.lag_min, updated_at: dependency.updated_at });
    }
  }
  await tx.tasks.deleteTasks(applied.deletedTasks.map(({ row }) => row.id));
}

/** Whether the write starts progress: progress a document records (a copy, a restore) was not made now. */
function isStartingProgress(plan: Plan, editor: PlanEditor): boolean {
  return [...plan.tasks.touched()].some((row) => {
    if (editor.hasRecordedProgress(row.id)) return false;
    const before = plan.tasks.original(row.id);
    return (row.progress_pct > 0 || row.actual_start_at !== null) && (!before || (before.progress_pct === 0 && before.actual_start_at === null));
  });
}

/**
 * The task rows to save: new ones, and the committed ones whose stored values changed, with
 * `updated_at` moved (every stored change sets it); in task-number order, as they are announced.
 */
export function changedTaskRows(plan: Plan, now: string): TaskRow[] {
  // Only rows the write copied can differ from the committed ones.
  const saved = [...plan.tasks.touched()]
    .filter((row) => {
      const before = plan.tasks.original(row.id);
      return !before || rowChanged(before, row);
    })
    .sort((a, b) => a.number - b.number);
  for (const row of saved) if (plan.tasks.original(row.id)) row.updated_at = now;
  return saved;
}

/**
 * The one write path of a plan, inside the caller's transaction with the project locked:
 * apply and check every change (one 400 listing all problems, nothing saved), refuse
 * cycles (409), recalculate, save only rows whose stored values changed, append the
 * events, and answer what moved. `project` is the project row as it will be saved (a
 * project edit passes its new start date or direction). The caller puts `result.plan` in
 * the plan cache once the transaction has committed.
 */
export async function writePlanInTransaction(
  ctx: DomainContext,
  tx: Queries,
  actor: Actor,
  project: ProjectRow,
  changes: PlanChanges,
  prepare?: (tx: Queries, plan: Plan) => Promise<void>,
): Promise<PlanWriteResult> {
  const started = performance.now();
  const now = nowIso(ctx);
  const projectId = project.id;
  const plan = ctx.planCache?.get(project) ?? (await loadPlan(tx, project));
  await prepare?.(tx, plan);
  // A big write gives the event loop a turn between its steps (the recalculation is one),
  // and its statements do on SQLite (store/dialects/sqlite.ts): no other request waits
  // for all of it at once. Small writes rarely reach a turn.
  await yieldIfBusy();

  const clientIds = changes.createTasks.map((item) => item.id).filter((id): id is string => id !== undefined && !plan.tasks.has(id));
  const editor = new PlanEditor(plan, now, new Set(await tx.tasks.existingIds(clientIds)));
  editor.apply(changes);
  if (editor.problems.length > 0) throw invalid(editor.problems);
  await yieldIfBusy();

  const recalculationStarted = performance.now();
  let result: ScheduleResult = recalculate(plan, { full: changes.fullReschedule });
  if (editor.hasPendingProgress && result.cycles.length === 0) {
    // New tasks sent with progress start where they were just scheduled.
    editor.applyPendingProgress();
    if (editor.problems.length > 0) throw invalid(editor.problems);
    const first = result.stats.recomputedCount;
    result = recalculate(plan);
    result = { ...result, stats: { ...result.stats, recomputedCount: Math.max(first, result.stats.recomputedCount) } };
  }
  ctx.observeRecalculation?.((performance.now() - recalculationStarted) / 1000);
  editor.recordRollups();
  if (!withinHorizon(result)) {
    throw invalid([{ path: 'body', message: `the schedule would leave the years ${horizonYears}, where dates are computed exactly; shorten durations, lags or constraint dates` }]);
  }
  if (result.cycles.length > 0) {
    throw new AppError('dependency_cycle', `the dependencies would close ${result.cycles.length === 1 ? 'a cycle' : 'cycles'}: ${result.cycles.map((c) => c.path).join('; ')}`, {
      cycles: result.cycles,
    });
  }

  await yieldIfBusy();

  const saved = changedTaskRows(plan, now);

  const events: DomainEvent[] = [];
  if (isStartingProgress(plan, editor) && (await tx.baselines.list(projectId)).length === 0) {
    const baseline = await captureBaseline(tx, plan.project, [...plan.tasks.originals()], { name: null, capturedBy: actor.userId, now });
    events.push({ workspaceId: project.workspace_id, projectId, type: 'baseline.saved', data: { baseline, automatic: true } });
  }
  await persist(tx, plan, editor.applied, saved);
  await yieldIfBusy();
  events.push(...(await planEvents(ctx, plan, editor.applied, saved)));
  await yieldIfBusy();

  const { startAt: projectStartAt, finishAt: projectFinishAt } = planSpan(plan, result);
  // Read before `plan.project` (the same row as `project`) becomes the row as written.
  const finish = { from: project.task_count > 0 ? project.finish_at : null, to: plan.tasks.size > 0 ? projectFinishAt : null };
  // The key locks with the first task: a change of the project's own fields.
  const locksKey = project.key_locked === 0 && plan.tasks.size > 0;
  // `plan.project` becomes the row as committed, so the caches remembered after the commit
  // are keyed by the version the store holds (plan version and `updated_at`).
  const written = {
    plan_version: project.plan_version + 1,
    next_task_number: plan.project.next_task_number,
    task_count: plan.tasks.size,
    finish_at: projectFinishAt,
    ...(locksKey ? { key_locked: 1 as const, updated_at: now } : {}),
  };
  Object.assign(plan.project, written);
  await tx.projects.update(projectId, written);
  if (locksKey) {
    events.push({
      workspaceId: project.workspace_id,
      projectId,
      type: 'project.updated',
      data: { project: presentProject(plan.project), changes: { keyLocked: { from: false, to: true } }, reason: 'edit' },
    });
  }
  if (!changes.createsProject) events.push(...(await scheduleEvents(tx, plan, editor.applied, saved, finish)));
  await appendEvents(tx, actor, now, events);
  await yieldIfBusy();

  const created = new Set(editor.applied.createdTaskIds);
  const savedIds = new Set(saved.map((row) => row.id));
  const reported = [...plan.tasks.touched()].filter((row) => created.has(row.id) || editor.applied.editedTasks.has(row.id) || savedIds.has(row.id));
  const conflicts: Conflict[] = result.conflicts.map((conflict) => ({ ...conflict, dependencyId: conflict.dependencyId ?? null }));
  return {
    plan,
    tasks: reported.sort((a, b) => a.number - b.number).map((row) => presentPlanTask(row, project.key)),
    deletedTaskIds: editor.applied.deletedTasks.map(({ row }) => row.id),
    dependencies: editor.applied.writtenDependencyIds.map((id) => plan.dependencies.get(id)).filter((d) => d !== undefined).map(presentDependency),
    deletedDependencyIds: editor.applied.deletedDependencies.map((d) => d.id),
    ...reassignments(plan, editor.applied),
    conflicts,
    projectStartAt,
    projectFinishAt,
    stats: {
      taskCount: plan.tasks.size,
      recomputedCount: result.stats.recomputedCount,
      savedCount: saved.length,
      durationMs: Math.round(performance.now() - started),
    },
  };
}

/**
 * Once a plan write has committed: the next write starts from it (plan cache), and the
 * first full read of the version it left presents its rows instead of reading them back.
 */
export function rememberCommittedPlan(ctx: DomainContext, plan: Plan): void {
  ctx.planCache?.put(plan, plan.project.plan_version);
  ctx.readCache?.set(plan.project.id, readVersion(plan.project), { tasks: [...plan.tasks.values()], dependencies: [...plan.dependencies.values()] });
}

/** An empty change: recalculate only (a project edit that moves the schedule). */
export const recalculateOnly: PlanChanges = { createTasks: [], updateTasks: [], createDependencies: [], deleteDependencyIds: [], fullReschedule: true };

/**
 * Every task, dependency and assignment change — from a single PATCH to a 1,000-item
 * change set — goes through here: one transaction with the project locked, then
 * `writePlanInTransaction`.
 */
export async function writePlan(
  ctx: DomainContext,
  actor: Actor,
  projectId: string,
  changes: PlanChanges,
  prepare?: (tx: Queries, plan: Plan) => Promise<void>,
): Promise<PlanWriteResult> {
  await requireProject(ctx, actor, projectId, 'editor');
  const written = await ctx.store.transaction(async (tx) => {
    const project = await lockProject(tx, projectId);
    return writePlanInTransaction(ctx, tx, actor, project, changes, prepare);
  });
  ctx.store.afterCommit(() => rememberCommittedPlan(ctx, written.plan));
  return written;
}
