import { randomUUID } from 'node:crypto';
import type { Conflict, EventData, FullProject, Project, ProjectCreate, ProjectListItem, ProjectPatch } from '@gantry/contract';
import type { z } from 'zod';
import type { ProjectRow, Queries, TaskRow } from '../../store/store.js';
import { presentBaseline } from '../planning/baselines.js';
import { createProjectCalendars, presentCalendar, standardCalendarDocument } from '../planning/calendar-rows.js';
import { presentDependency, presentPlanTask, presentProject } from '../planning/presenters.js';
import { firstWorkingMinute } from '../planning/plan.js';
import { DERIVED_VALUES_VERSION } from '../planning/derived-values.js';
import { recalculateOnly, rememberCommittedPlan, writePlanInTransaction } from '../planning/write-plan.js';
import { nowIso, type Actor, type DomainContext } from '../context.js';
import { conflict, forbidden, invalid, notFound } from '../errors.js';
import { appendEvents } from '../outbox.js';
import { effectiveProjectRole, lockProject, requireProject } from '../permissions.js';
import type { DocumentCalendar } from '../exchange/plan-document.js';
import { deriveProjectKey, firstFreeKey } from './project-key.js';
import { readVersion, type CommittedRows } from './read-cache.js';
import { presentResource } from '../planning/resources.js';
import { mapSliced } from '../../time-slice.js';

/** Projects the actor can see, oldest first; archived ones only when asked for. */
export async function listProjects(ctx: DomainContext, actor: Actor, options: { includeArchived: boolean }): Promise<ProjectListItem[]> {
  const rows = await ctx.store.q.projects.listVisible(actor.userId, { workspaceId: actor.workspaceId, includeArchived: options.includeArchived });
  return rows.flatMap(({ workspace_name, workspace_role, direct_role, ...row }) => {
    const role = effectiveProjectRole(workspace_role, direct_role);
    if (!role) return [];
    return [{ ...presentProject(row), workspaceName: workspace_name, role, taskCount: row.task_count, finishAt: row.finish_at }];
  });
}

/** Parents before their subtasks, siblings by sort key: the order of the Gantt chart. */
export function outlineOrder(rows: readonly TaskRow[]): TaskRow[] {
  const children = new Map<string | null, TaskRow[]>();
  for (const row of rows) {
    const siblings = children.get(row.parent_id);
    if (siblings) siblings.push(row);
    else children.set(row.parent_id, [row]);
  }
  const ordered: TaskRow[] = [];
  const visit = (parentId: string | null) => {
    const siblings = children.get(parentId);
    if (!siblings) return;
    siblings.sort((a, b) => (a.sort_key < b.sort_key ? -1 : a.sort_key > b.sort_key ? 1 : a.number - b.number));
    for (const row of siblings) {
      ordered.push(row);
      visit(row.id);
    }
  };
  visit(null);
  return ordered;
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The UTF-8 JSON of committed task and link rows, made once per row: a committed row never
 * changes (it is frozen, and shared by every version of the plan until a write replaces
 * it), so the full read after a small write serialises only the rows that write replaced.
 * `variant` names what else the JSON depends on (a task's key holds the project key).
 */
const committedJson = new WeakMap<object, { variant: string; json: Buffer }>();

function jsonOf<Row extends object>(row: Row, variant: string, present: (row: Row) => unknown): Buffer {
  const known = committedJson.get(row);
  if (known?.variant === variant) return known.json;
  const json = Buffer.from(JSON.stringify(present(row)));
  if (Object.isFrozen(row)) committedJson.set(row, { variant, json });
  return json;
}

/** `[a,b,…]` from the JSON of each item. */
function jsonArray(items: readonly Buffer[]): Buffer[] {
  const parts: Buffer[] = [openBracket];
  for (let k = 0; k < items.length; k++) {
    if (k > 0) parts.push(comma);
    parts.push(items[k]!);
  }
  parts.push(closeBracket);
  return parts;
}
const [openBracket, comma, closeBracket] = ['[', ',', ']'].map((text) => Buffer.from(text)) as [Buffer, Buffer, Buffer];

/** The full project as stored now, serialised; `committed`: its tasks and links, already known. */
async function fullProjectJson(ctx: DomainContext, project: ProjectRow, committed: CommittedRows | undefined): Promise<Buffer> {
  const { id: projectId, key: projectKey } = project;
  // One snapshot: a write committing meanwhile cannot give links to tasks the list lacks.
  const [tasks, dependencies, resources, assignments, baselines, baselineTasks, calendars] = await ctx.store.snapshot((q) =>
    Promise.all([
      committed?.tasks ?? q.tasks.listForProject(projectId),
      committed?.dependencies ?? q.tasks.listDependencies(projectId),
      q.people.listResources(projectId),
      q.people.listAssignments(projectId),
      q.baselines.list(projectId),
      q.baselines.listTasksOfProject(projectId),
      q.calendars.listForProject(projectId),
    ]),
  );
  // One pass over every baseline's task values (a baseline holds one per task), not one per baseline.
  const tasksOfBaseline = new Map<string, FullProject['baselines'][number]['tasks']>();
  for (const t of baselineTasks) {
    const value = { taskId: t.task_id, startAt: t.start_at, finishAt: t.finish_at, durationMin: t.duration_min, workMin: t.work_min, costFixed: t.cost_fixed };
    const values = tasksOfBaseline.get(t.baseline_id);
    if (values) values.push(value);
    else tasksOfBaseline.set(t.baseline_id, [value]);
  }
  // Serialised as JSON.stringify would serialise the FullProject object, field by field in its order.
  const rest: Omit<FullProject, 'project' | 'tasks' | 'dependencies'> = {
    resources: resources.map(presentResource),
    assignments: assignments.map((a) => ({ taskId: a.task_id, resourceId: a.resource_id, unitsPct: a.units_pct })),
    baselines: baselines.map((b) => ({ ...presentBaseline(b), tasks: tasksOfBaseline.get(b.id) ?? [] })),
    calendars: calendars.map(presentCalendar),
  };
  // Serialising 10,000 rows takes tens of milliseconds: the loop turns between slices.
  const taskJson = await mapSliced(outlineOrder(tasks), (row) => jsonOf(row, projectKey, (task) => presentPlanTask(task, projectKey)));
  // Timestamps and ids are ASCII: code-unit order is their order, without the cost of a collator.
  const linkOrder = [...dependencies].sort((a, b) => byCodeUnits(a.created_at, b.created_at) || byCodeUnits(a.id, b.id));
  const dependencyJson = await mapSliced(linkOrder, (row) => jsonOf(row, '', presentDependency));
  return Buffer.concat([
    Buffer.from(`{"project":${JSON.stringify(presentProject(project))},"tasks":`),
    ...jsonArray(taskJson),
    Buffer.from(',"dependencies":'),
    ...jsonArray(dependencyJson),
    Buffer.from(`,${JSON.stringify(rest).slice(1)}`),
  ]);
}

/**
 * The whole plan in one read (project, tasks, dependencies, resources, assignments, calendars,
 * baselines), serialised as UTF-8 JSON. Cached per project version — the plan version and
 * the project's `updated_at`, both on the row read for the permission check — so
 * reading a large plan costs no serialisation until it changes, and reading it right
 * after a write of this process reads no task back.
 */
export async function getFullProjectJson(ctx: DomainContext, actor: Actor, projectId: string): Promise<Buffer> {
  const { project } = await requireProject(ctx, actor, projectId, 'viewer');
  // The version is read before the plan: a write landing in between makes the entry stale, never wrong.
  const version = readVersion(project);
  const cached = ctx.readCache?.get(project.id, version);
  if (Buffer.isBuffer(cached)) return cached;
  const json = await fullProjectJson(ctx, project, cached);
  ctx.readCache?.set(project.id, version, json);
  return json;
}

function today(ctx: DomainContext): string {
  return nowIso(ctx).slice(0, 10);
}

/** The workspace a new project goes to: the one asked for, else the key's, else the personal one. */
async function targetWorkspace(tx: Queries, actor: Actor, requested: string | undefined): Promise<string> {
  const workspaceId = requested ?? actor.workspaceId ?? (await tx.workspaces.findPersonal(actor.userId))?.id;
  if (!workspaceId || !(await tx.workspaces.findMembership(workspaceId, actor.userId))) throw notFound('workspace');
  if (actor.workspaceId !== null && workspaceId !== actor.workspaceId) {
    throw forbidden('workspace_restricted', 'this API key is restricted to another workspace');
  }
  return workspaceId;
}

/** The fields of a new project, as `ProjectCreate` gives them. */
export type NewProject = z.output<typeof ProjectCreate>;

/**
 * Inserts a new project inside the caller's transaction: the workspace (the one asked for,
 * else the key's, else the personal one), the key (given and free, or derived from the
 * name), the creator as a direct owner, and `project.created` with how it was made.
 * `keyLocked`: the project is made with tasks, whose keys hold the project key. Answers the
 * row and the id of each calendar by its ref.
 */
export async function insertProject(
  ctx: DomainContext,
  tx: Queries,
  actor: Actor,
  input: NewProject,
  options: {
    source: ProjectSource;
    keyLocked: boolean;
    /** The project's calendars and which of them is its own (default: `input.timeZone`'s Standard calendar, if any). */
    calendars?: { documents: readonly DocumentCalendar[]; projectRef: string | null };
  },
): Promise<{ project: ProjectRow; calendarIds: ReadonlyMap<string, string> }> {
  const scheduleFrom = input.scheduleFrom ?? 'forward';
  if (scheduleFrom === 'backward' && !input.deadline) {
    throw invalid([{ path: 'deadline', message: 'is required when scheduleFrom is backward (the schedule is anchored at it)' }]);
  }
  const now = nowIso(ctx);
  const workspaceId = await targetWorkspace(tx, actor, input.workspaceId);
  await tx.workspaces.lockForWrite(workspaceId);
  let key = input.key;
  if (key) {
    if (await tx.projects.keyExists(workspaceId, key)) {
      throw conflict(`project key ${key} is already used in this workspace`, [{ path: 'key', message: 'already used in this workspace' }]);
    }
  } else {
    const base = deriveProjectKey(input.name);
    const free = firstFreeKey(base, new Set(await tx.projects.keysStartingWith(workspaceId, base.slice(0, 1))));
    if (!free) throw conflict(`every key made from ${base} is used in this workspace: choose a key`, [{ path: 'key', message: `every key made from ${base} is used: send one` }]);
    key = free;
  }
  const startDate = input.startDate ?? today(ctx);
  const created: ProjectRow = {
    id: randomUUID(),
    workspace_id: workspaceId,
    key,
    key_locked: options.keyLocked ? 1 : 0,
    name: input.name,
    description: input.description ?? null,
    start_date: startDate,
    calendar_id: null,
    currency: input.currency ?? 'USD',
    schedule_from: scheduleFrom,
    deadline: input.deadline ?? null,
    color: input.color ?? null,
    settings: '{}',
    archived_at: null,
    created_by: actor.userId,
    created_at: now,
    updated_at: now,
    finish_at: firstWorkingMinute(startDate, [], null),
    task_count: 0,
    next_task_number: 1,
    plan_version: 0,
    // What this version derives: a new plan has nothing an older version computed.
    derived_values_version: DERIVED_VALUES_VERSION,
    deleted_at: null,
    deleted_by: null,
  };
  await tx.projects.insert(created);
  // Calendars are rows of the project: made once it exists, before it is announced with its calendar.
  const calendars = options.calendars ?? (input.timeZone ? { documents: [standardCalendarDocument(input.timeZone)], projectRef: 'standard' } : null);
  const calendarIds = calendars ? await createProjectCalendars(tx, created.id, calendars.documents, now) : new Map<string, string>();
  if (calendars?.projectRef) {
    created.calendar_id = calendarIds.get(calendars.projectRef) ?? null;
    created.finish_at = firstWorkingMinute(startDate, await tx.calendars.listForProject(created.id), created.calendar_id);
    await tx.projects.update(created.id, { calendar_id: created.calendar_id, finish_at: created.finish_at });
  }
  await tx.projects.putMember({ project_id: created.id, user_id: actor.userId, role: 'owner', created_at: now });
  await appendEvents(tx, actor, now, [
    { type: 'project.created', workspaceId, projectId: created.id, data: { project: presentProject(created), source: options.source } },
  ]);
  return { project: created, calendarIds };
}

/** Creates a blank project; the creator becomes a direct owner. Emits `project.created`. */
export async function createProject(ctx: DomainContext, actor: Actor, input: NewProject): Promise<Project> {
  const { project: row } = await ctx.store.transaction((tx) => insertProject(ctx, tx, actor, input, { source: 'blank', keyLocked: false }));
  return presentProject(row);
}

/** How a project was made, as `project.created` says. */
export type ProjectSource = EventData<'project.created'>['source'];

const patchableColumns = {
  name: 'name',
  key: 'key',
  description: 'description',
  startDate: 'start_date',
  deadline: 'deadline',
  currency: 'currency',
  scheduleFrom: 'schedule_from',
  color: 'color',
  calendarId: 'calendar_id',
} as const satisfies Partial<Record<keyof Project, keyof ProjectRow>>;

/** The fields of the project's read shape that differ between two versions of its row, `{field: {from, to}}`: `project.updated`'s `changes`. */
export function projectChanges(current: ProjectRow, next: ProjectRow): Record<string, { from: unknown; to: unknown }> {
  const before = presentProject(current);
  const after = presentProject(next);
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of Object.keys(after) as (keyof Project)[]) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) changes[field] = { from: before[field], to: after[field] };
  }
  return changes;
}

/** Changes that move the schedule: the anchor dates, the direction and the calendar. */
function needsReschedule(changed: Set<string>, scheduleFrom: 'forward' | 'backward'): boolean {
  return changed.has('startDate') || changed.has('scheduleFrom') || changed.has('calendarId') || (scheduleFrom === 'backward' && changed.has('deadline'));
}

/**
 * Updates project fields (editors and owners; archiving and restoring need the owner).
 * Only fields sent change; emits `project.updated` with `{field: {from, to}}` when
 * something did.
 */
export async function updateProject(
  ctx: DomainContext,
  actor: Actor,
  projectId: string,
  patch: z.output<typeof ProjectPatch>,
): Promise<{ project: Project; conflicts: Conflict[]; rescheduled: boolean }> {
  await requireProject(ctx, actor, projectId, patch.archived === undefined ? 'editor' : 'owner');
  const now = nowIso(ctx);
  const updated = await ctx.store.transaction(async (tx) => {
    const current = await lockProject(tx, projectId);
    const next: ProjectRow = { ...current };
    for (const [field, column] of Object.entries(patchableColumns)) {
      const value = patch[field as keyof typeof patchableColumns];
      if (value !== undefined) (next as Record<string, unknown>)[column] = value;
    }
    if (patch.archived !== undefined && patch.archived !== (current.archived_at !== null)) {
      next.archived_at = patch.archived ? now : null;
    }

    const changes = projectChanges(current, next);
    if (Object.keys(changes).length === 0) return { project: presentProject(current), conflicts: [], rescheduled: false, plan: null };

    if (next.schedule_from === 'backward' && !next.deadline) {
      throw invalid([{ path: 'deadline', message: 'is required while scheduleFrom is backward (the schedule is anchored at it)' }]);
    }
    if (changes.key) {
      if (current.key_locked === 1) throw conflict('the project key is locked: task keys already use it', [{ path: 'key', message: 'locked' }]);
      await tx.workspaces.lockForWrite(current.workspace_id);
      if (await tx.projects.keyExists(current.workspace_id, next.key)) {
        throw conflict(`project key ${next.key} is already used in this workspace`, [{ path: 'key', message: 'already used in this workspace' }]);
      }
    }
    const calendars = await tx.calendars.listForProject(projectId);
    if (changes.calendarId && next.calendar_id !== null && !calendars.some((calendar) => calendar.id === next.calendar_id)) {
      throw invalid([{ path: 'calendarId', message: 'no such calendar in this project' }]);
    }
    const rescheduled = needsReschedule(new Set(Object.keys(changes)), next.schedule_from);
    if (rescheduled && next.task_count === 0) next.finish_at = firstWorkingMinute(next.start_date, calendars, next.calendar_id);
    next.updated_at = now;
    await tx.projects.update(projectId, next);
    const project = presentProject(next);
    await appendEvents(tx, actor, now, [
      { type: 'project.updated', workspaceId: next.workspace_id, projectId, data: { project, changes, reason: 'edit' } },
    ]);
    if (!rescheduled || next.task_count === 0) return { project, conflicts: [], rescheduled, plan: null };
    // The anchor or the direction moved: every task is recalculated in this same transaction.
    const written = await writePlanInTransaction(ctx, tx, actor, next, recalculateOnly);
    return { project, conflicts: written.conflicts, rescheduled, plan: written.plan };
  });
  const { plan } = updated;
  if (plan) {
    ctx.store.afterCommit(() => rememberCommittedPlan(ctx, plan));
  }
  return { project: updated.project, conflicts: updated.conflicts, rescheduled: updated.rescheduled };
}

/**
 * Deletes a project (owners, in the web app only: the operation takes a session; `confirm`
 * must be the project key). The row is marked deleted, so the store reads it no more and
 * its key is free again; `project.deleted` carries the project as it was
 * (docs/adr/0008-deletion.md).
 */
export async function deleteProject(ctx: DomainContext, actor: Actor, projectId: string, confirm: string): Promise<{ deleted: true; projectId: string }> {
  await requireProject(ctx, actor, projectId, 'owner');
  const now = nowIso(ctx);
  await ctx.store.transaction(async (tx) => {
    const current = await lockProject(tx, projectId);
    // Compared under the lock: the key of a project without tasks may still change.
    if (confirm !== current.key) throw invalid([{ path: 'confirm', message: `must be the key of the project, ${current.key}, to confirm its deletion` }]);
    await tx.projects.markDeleted(projectId, now, actor.userId);
    await appendEvents(tx, actor, now, [{ type: 'project.deleted', workspaceId: current.workspace_id, projectId, data: { project: presentProject(current) } }]);
  });
  return { deleted: true, projectId };
}
