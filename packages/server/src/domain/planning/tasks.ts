import type { ChangeSet, Dependency, DependencyCreate, Task, TaskCreate, TaskPatch } from '@gantry/contract';
import type { TaskPageOptions, TaskRow } from '../../store/store.js';
import type { Actor, DomainContext } from '../context.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { destructiveRefused, invalid, notFound } from '../errors.js';
import { requireProject } from '../permissions.js';
import type { PlanChanges } from './apply-changes.js';
import { presentDependency, presentTask, taskKey, type AssigneeView } from './presenters.js';
import { writePlan, type PlanWriteResult } from './write-plan.js';

const noChanges: PlanChanges = { createTasks: [], updateTasks: [], createDependencies: [], deleteDependencyIds: [], fullReschedule: false };

const located = <T extends object>(items: T[], name: string) => items.map((item, index) => ({ ...item, path: `${name}[${index}]` }));

/** `POST …/tasks` with a TaskCreate body. */
export function createTask(ctx: DomainContext, actor: Actor, projectId: string, input: TaskCreate): Promise<PlanWriteResult> {
  const problems = [
    ...(input.id !== undefined ? [{ path: 'id', message: 'only tasks created in a change set choose their id' }] : []),
    ...(input.assignments !== undefined ? [{ path: 'assignments', message: 'only tasks created in a change set are given assignments; use PUT …/tasks/{taskId}/assignees' }] : []),
  ];
  if (problems.length > 0) throw invalid(problems);
  return writePlan(ctx, actor, projectId, { ...noChanges, createTasks: [{ ...input, path: '' }] });
}

/** `POST …/tasks` with a change set: one transaction, one recalculation. */
export async function applyChangeSet(ctx: DomainContext, actor: Actor, projectId: string, set: ChangeSet): Promise<PlanWriteResult> {
  if (set.deleteTaskIds && set.deleteTaskIds.length > 0) {
    // Access first, as for every write: only then is the deletion itself refused.
    await requireProject(ctx, actor, projectId, 'editor');
    throw destructiveRefused();
  }
  return writePlan(ctx, actor, projectId, {
    createTasks: located(set.createTasks, 'createTasks'),
    updateTasks: located(set.updateTasks, 'updateTasks'),
    createDependencies: located(set.createDependencies, 'createDependencies'),
    deleteDependencyIds: set.deleteDependencyIds.map((id, index) => ({ id, path: `deleteDependencyIds[${index}]` })),
    fullReschedule: set.fullReschedule,
  });
}

export async function updateTask(ctx: DomainContext, actor: Actor, projectId: string, taskId: string, patch: TaskPatch): Promise<PlanWriteResult> {
  // The task is looked up in the plan the write loads (under its lock), not read first on its own.
  return writePlan(ctx, actor, projectId, { ...noChanges, updateTasks: [{ ...patch, id: taskId, path: '' }] }, async (_tx, plan) => {
    if (!plan.tasks.has(taskId)) throw notFound('task');
  });
}

/** One DependencyCreate or `{dependencies: [...]}`: creates links, or updates type/lag of existing ones. */
export function writeDependencies(ctx: DomainContext, actor: Actor, projectId: string, input: DependencyCreate | { dependencies: DependencyCreate[] }): Promise<PlanWriteResult> {
  const items = 'dependencies' in input ? located(input.dependencies, 'dependencies') : [{ ...input, path: '' }];
  return writePlan(ctx, actor, projectId, { ...noChanges, createDependencies: items });
}

export async function listDependencies(ctx: DomainContext, actor: Actor, projectId: string): Promise<Dependency[]> {
  await requireProject(ctx, actor, projectId, 'viewer');
  const rows = await ctx.store.q.tasks.listDependencies(projectId);
  return rows.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id)).map(presentDependency);
}

export async function deleteDependency(ctx: DomainContext, actor: Actor, projectId: string, dependencyId: string): Promise<PlanWriteResult> {
  await requireProject(ctx, actor, projectId, 'editor');
  const exists = (await ctx.store.q.tasks.listDependencies(projectId)).some((d) => d.id === dependencyId);
  if (!exists) throw notFound('dependency');
  return writePlan(ctx, actor, projectId, { ...noChanges, deleteDependencyIds: [{ id: dependencyId, path: 'dependencyId' }] });
}

/**
 * Deletes a task with its subtasks and every dependency touching them, through the one
 * write path (the rest is recalculated). Editors and owners, in the web app only (the
 * operation takes a session); `confirm` must be the task's key.
 */
export async function deleteTask(ctx: DomainContext, actor: Actor, projectId: string, taskId: string, confirm: string): Promise<PlanWriteResult> {
  const { project, row } = await requireTask(ctx, actor, projectId, taskId, 'editor');
  const key = taskKey(project.key, row);
  if (confirm !== key) throw invalid([{ path: 'confirm', message: `must be the key of the task, ${key}, to confirm its deletion` }]);
  return writePlan(ctx, actor, projectId, { ...noChanges, deleteTaskIds: [{ id: taskId, path: 'taskId' }] });
}

async function requireTask(ctx: DomainContext, actor: Actor, projectId: string, taskId: string, needed: 'viewer' | 'editor' = 'viewer') {
  const access = await requireProject(ctx, actor, projectId, needed);
  const row = await ctx.store.q.tasks.findById(projectId, taskId);
  if (!row) throw notFound('task');
  return { ...access, row };
}

async function presentTasks(ctx: DomainContext, projectKey: string, rows: TaskRow[]): Promise<Task[]> {
  const assignees = new Map<string, AssigneeView[]>();
  for (const a of await ctx.store.q.people.listAssignmentsOfTasks(rows.map((row) => row.id))) {
    assignees.set(a.task_id, [...(assignees.get(a.task_id) ?? []), { resourceId: a.resource_id, userId: a.user_id, name: a.name, unitsPct: a.units_pct }]);
  }
  return rows.map((row) => presentTask(row, projectKey, assignees.get(row.id) ?? [], ctx.baseUrl));
}

export async function getTask(ctx: DomainContext, actor: Actor, projectId: string, taskId: string): Promise<Task> {
  const { project, row } = await requireTask(ctx, actor, projectId, taskId);
  const [task] = await presentTasks(ctx, project.key, [row]);
  return task as Task;
}

export interface TaskListInput {
  limit: number;
  cursor?: string;
  sort: 'number' | '-number' | '-updatedAt';
  externalId?: string;
  q?: string;
  updatedSince?: string;
  completed?: 'true' | 'false';
}

/**
 * One page of tasks. Paging walks task numbers, which only grow, so tasks created while
 * a client pages appear at the end (sort=number) and nothing is skipped or repeated.
 */
export async function listTasks(ctx: DomainContext, actor: Actor, projectId: string, input: TaskListInput): Promise<{ tasks: Task[]; nextCursor: string | null }> {
  const { project } = await requireProject(ctx, actor, projectId, 'viewer');
  if (input.sort === '-updatedAt' && input.cursor) {
    throw invalid([{ path: 'cursor', message: 'sort=-updatedAt returns the first page only' }]);
  }
  const options: TaskPageOptions = {
    limit: input.limit,
    sort: input.sort,
    afterNumber: input.cursor
      ? decodeCursor(input.cursor, (p) => (p.s === input.sort && typeof p.n === 'number' && Number.isInteger(p.n) ? p.n : null))
      : undefined,
    externalId: input.externalId,
    nameContains: input.q,
    updatedSince: input.updatedSince ? new Date(input.updatedSince).toISOString() : undefined,
    completed: input.completed === undefined ? undefined : input.completed === 'true',
  };
  const rows = await ctx.store.q.tasks.page(projectId, options);
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > input.limit && last && input.sort !== '-updatedAt' ? encodeCursor({ s: input.sort, n: last.number }) : null;
  return { tasks: await presentTasks(ctx, project.key, page), nextCursor };
}
