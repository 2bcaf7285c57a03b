import { randomUUID } from 'node:crypto';
import { AssignmentUnitsPct, DateOnly, DateTimeInput, MaxUnitsPct, ProjectCreate, TaskCreate, textRuleProblem, type Conflict, type FieldProblem, type Project } from '@gantry/contract';
import { generateNKeysBetween } from 'fractional-indexing';
import type { z } from 'zod';
import type { BaselineRow, CalendarRow, ProjectRow, Queries, TaskRow } from '../../store/store.js';
import type { DocumentCalendar, DocumentInterval, DocumentTask, PlanDocument } from '../exchange/plan-document.js';
import { presentCalendar, standardCalendarDocument } from '../planning/calendar-rows.js';
import type { PlanChanges, RecordedTaskValues } from '../planning/apply-changes.js';
import { MAIN_BASELINE_NAME } from '../planning/baselines.js';
import type { Plan } from '../planning/plan.js';
import { presentProject } from '../planning/presenters.js';
import { newResourceRow } from '../planning/resources.js';
import { rememberCommittedPlan, writePlanInTransaction } from '../planning/write-plan.js';
import { yieldIfBusy } from '../../time-slice.js';
import { nowIso, type Actor, type DomainContext } from '../context.js';
import { invalid } from '../errors.js';
import { effectiveProjectRole } from '../permissions.js';
import { formatPath } from '../validation.js';
import { displayName } from '../users.js';
import { insertProject, outlineOrder, type NewProject, type ProjectSource } from './projects.js';

/**
 * The stored plan as a plan document, read with `q` (a transaction's, to read it as a
 * write sees it; a snapshot's, to read it whole): refs are the row ids, tasks in outline order, dependencies in the
 * order they were made, the project's calendars.
 */
export async function documentOfProject(q: Queries, project: ProjectRow): Promise<PlanDocument> {
  return (await documentAndTasksOfProject(q, project)).document;
}

/** `documentOfProject`, and the task rows it was made of (their computed dates, which an export writes). */
export async function documentAndTasksOfProject(q: Queries, project: ProjectRow): Promise<{ document: PlanDocument; tasks: TaskRow[] }> {
  const [tasks, dependencies, resources, assignments, baselines, baselineTasks, calendars] = await Promise.all([
    q.tasks.listForProject(project.id),
    q.tasks.listDependencies(project.id),
    q.people.listResources(project.id),
    q.people.listAssignments(project.id),
    q.baselines.list(project.id),
    q.baselines.listTasksOfProject(project.id),
    q.calendars.listForProject(project.id),
  ]);
  const tasksOfBaseline = new Map<string, PlanDocument['baselines'][number]['tasks']>(baselines.map((b) => [b.id, []]));
  const taskIds = new Set(tasks.map((task) => task.id));
  for (const t of baselineTasks) {
    // A baseline keeps the values of tasks deleted since; the document holds only the plan's tasks.
    if (!taskIds.has(t.task_id)) continue;
    tasksOfBaseline.get(t.baseline_id)?.push({ taskRef: t.task_id, startAt: t.start_at, finishAt: t.finish_at, durationMin: t.duration_min, workMin: t.work_min, costFixed: t.cost_fixed });
  }
  const document: PlanDocument = {
    name: project.name,
    description: project.description,
    startDate: project.start_date,
    scheduleFrom: project.schedule_from,
    deadline: project.deadline,
    currency: project.currency,
    calendarRef: project.calendar_id,
    calendars: calendars.map(documentCalendarOf),
    resources: resources.map((r) => ({ ref: r.id, name: r.name, userId: r.user_id, maxUnitsPct: r.max_units_pct })),
    tasks: outlineOrder(tasks).map(documentTaskOf),
    dependencies: [...dependencies]
      .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1))
      .map((d) => ({ predecessorRef: d.predecessor_id, successorRef: d.successor_id, type: d.type, lagMin: d.lag_min })),
    assignments: assignments.map((a) => ({ taskRef: a.task_id, resourceRef: a.resource_id, unitsPct: a.units_pct })),
    // The main baseline is the one without a name (as `POST …/baseline` without one saves it).
    baselines: baselines.map((b) => ({ name: b.is_main === 1 ? null : b.name, slot: b.slot, tasks: tasksOfBaseline.get(b.id) ?? [] })),
  };
  return { document, tasks };
}

function documentCalendarOf(row: CalendarRow): DocumentCalendar {
  const { id, name, timeZone, weekly, exceptions, baseCalendarId } = presentCalendar(row);
  // Stored intervals were checked to be pairs when written; the contract types them as arrays (for MCP clients' validators).
  const pairs = (intervals: readonly string[][]) => intervals as DocumentInterval[];
  return {
    ref: id,
    name,
    timeZone,
    weekly: weekly.map((day) => (day === null ? null : pairs(day))),
    exceptions: exceptions.map((e) => ({ name: e.name ?? null, from: e.from, to: e.to, intervals: pairs(e.intervals) })),
    baseRef: baseCalendarId,
  };
}

function documentTaskOf(row: TaskRow): DocumentTask {
  return {
    ref: row.id,
    parentRef: row.parent_id,
    name: row.name,
    type: row.type,
    durationMin: row.duration_min,
    workMin: row.work_min,
    progressPct: row.progress_pct,
    constraintKind: row.constraint_kind as DocumentTask['constraintKind'],
    constraintDate: row.constraint_date,
    deadline: row.deadline,
    calendarRef: row.calendar_id,
    costFixed: row.cost_fixed,
    notes: row.notes,
    color: row.color,
    wbs: row.wbs,
    externalId: row.external_id,
    manuallyScheduled: row.manually_scheduled === 1,
    manualStartAt: row.manually_scheduled === 1 ? row.manual_start_at : null,
    manualFinishAt: row.manually_scheduled === 1 ? row.manual_finish_at : null,
    levelingDelayMin: row.leveling_delay_min,
    taskType: row.task_type,
    effortDriven: row.effort_driven === 1,
    durationEstimated: row.duration_estimated === 1,
    durationOptimisticMin: row.duration_optimistic_min,
    durationPessimisticMin: row.duration_pessimistic_min,
    actualStartAt: row.actual_start_at,
    actualFinishAt: row.actual_finish_at,
  };
}

const dayMs = 86_400_000;

function shiftInstant(instant: string | null, days: number): string | null {
  return instant === null ? null : new Date(Date.parse(instant) + days * dayMs).toISOString();
}

/** Whole days from one date to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / dayMs);
}

/**
 * The document with every date and instant moved by whole days: the plan, its pinned dates,
 * progress and baselines move together (a pinned date landing off working time is moved by
 * the scheduler, as any constraint date is).
 */
export function shiftedDocument(document: PlanDocument, days: number): PlanDocument {
  if (days === 0) return document;
  const shiftDate = (date: string) => (shiftInstant(`${date}T00:00:00.000Z`, days) as string).slice(0, 10);
  return {
    ...document,
    startDate: shiftDate(document.startDate),
    deadline: document.deadline === null ? null : shiftDate(document.deadline),
    tasks: document.tasks.map((task) => ({
      ...task,
      constraintDate: shiftInstant(task.constraintDate, days),
      deadline: shiftInstant(task.deadline, days),
      manualStartAt: shiftInstant(task.manualStartAt, days),
      manualFinishAt: shiftInstant(task.manualFinishAt, days),
      actualStartAt: shiftInstant(task.actualStartAt, days),
      actualFinishAt: shiftInstant(task.actualFinishAt, days),
    })),
    baselines: document.baselines.map((baseline) => ({
      ...baseline,
      tasks: baseline.tasks.map((t) => ({ ...t, startAt: shiftInstant(t.startAt, days), finishAt: shiftInstant(t.finishAt, days) })),
    })),
  };
}

/** Problems of a zod parse, each at `prefix` + the issue's path. */
function schemaProblems(result: z.ZodSafeParseResult<unknown>, prefix: string): FieldProblem[] {
  return result.success ? [] : result.error.issues.map((issue) => ({ path: [prefix, ...issue.path.map(String)].filter(Boolean).join('.'), message: issue.message }));
}

/**
 * Each text of the document against the text rule the JSON API keeps, at its path: what
 * made the document (a file, a template, a saved version) must not store what no request may.
 */
function textProblems(value: unknown, path: (string | number)[], problems: FieldProblem[]): void {
  if (typeof value === 'string') {
    const broken = textRuleProblem(value);
    if (broken !== null) problems.push({ path: formatPath(path, 'document'), message: broken });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      path.push(Array.isArray(value) ? Number(key) : key);
      textProblems(item, path, problems);
      path.pop();
    }
  }
}

/** The fields of a document task a public task create or edit sets (the rest are recorded values). */
export function publicTaskFields(task: DocumentTask) {
  return {
    name: task.name,
    type: task.type,
    constraintKind: task.constraintKind,
    constraintDate: task.constraintDate,
    deadline: task.deadline,
    costFixed: task.costFixed,
    notes: task.notes,
    color: task.color,
    wbs: task.wbs,
    externalId: task.externalId,
    manuallyScheduled: task.manuallyScheduled,
    levelingDelayMin: task.levelingDelayMin,
    taskType: task.taskType,
    effortDriven: task.effortDriven,
    durationEstimated: task.durationEstimated,
    durationOptimisticMin: task.durationOptimisticMin,
    durationPessimisticMin: task.durationPessimisticMin,
  };
}

/**
 * What is wrong with a document, each problem at its path in the document
 * (`tasks[3].durationMin`): its rows checked with the contract's own schemas, its refs
 * resolved. The plan write then checks what takes the whole plan (cycles, summaries).
 * Checking a 10,000-task document takes about 0.3 s: it gives the event loop a turn as it goes.
 */
export async function documentProblems(document: PlanDocument): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  textProblems(document, [], problems);
  const calendarRefs = new Set(document.calendars.map((calendar) => calendar.ref));
  if (document.calendarRef !== null && !calendarRefs.has(document.calendarRef)) problems.push({ path: 'calendarRef', message: 'no such calendar in the document' });
  const refs = new Map<string, number>();
  for (const [index, task] of document.tasks.entries()) {
    await yieldIfBusy();
    const path = `tasks[${index}]`;
    if (refs.has(task.ref)) problems.push({ path: `${path}.ref`, message: 'is used by another task of the document' });
    if (task.parentRef !== null && !refs.has(task.parentRef)) problems.push({ path: `${path}.parentRef`, message: 'must name a task that comes earlier in the document' });
    refs.set(task.ref, index);
    if (task.calendarRef !== null && !calendarRefs.has(task.calendarRef)) problems.push({ path: `${path}.calendarRef`, message: 'no such calendar in the document' });
    const { progressPct, actualStartAt, actualFinishAt, durationMin } = task;
    problems.push(...schemaProblems(TaskCreate.safeParse({ ...publicTaskFields(task), durationMin, workMin: task.workMin ?? 0, progressPct, actualStartAt, actualFinishAt }), path));
    for (const name of ['manualStartAt', 'manualFinishAt'] as const) problems.push(...schemaProblems(DateTimeInput.nullable().safeParse(task[name]), `${path}.${name}`));
  }
  const resourceRefs = new Set<string>();
  document.resources.forEach((resource, index) => {
    if (resourceRefs.has(resource.ref)) problems.push({ path: `resources[${index}].ref`, message: 'is used by another resource of the document' });
    resourceRefs.add(resource.ref);
    problems.push(...schemaProblems(TaskCreate.shape.name.safeParse(resource.name), `resources[${index}].name`));
    problems.push(...schemaProblems(MaxUnitsPct.optional().safeParse(resource.maxUnitsPct), `resources[${index}].maxUnitsPct`));
  });
  document.dependencies.forEach((link, index) => {
    for (const name of ['predecessorRef', 'successorRef'] as const) {
      if (!refs.has(link[name])) problems.push({ path: `dependencies[${index}].${name}`, message: 'no such task in the document' });
    }
  });
  document.assignments.forEach((assignment, index) => {
    if (!refs.has(assignment.taskRef)) problems.push({ path: `assignments[${index}].taskRef`, message: 'no such task in the document' });
    if (!resourceRefs.has(assignment.resourceRef)) problems.push({ path: `assignments[${index}].resourceRef`, message: 'no such resource in the document' });
    problems.push(...schemaProblems(AssignmentUnitsPct.safeParse(assignment.unitsPct), `assignments[${index}].unitsPct`));
  });
  document.baselines.forEach((baseline, index) => {
    baseline.tasks.forEach((t, k) => {
      if (!refs.has(t.taskRef)) problems.push({ path: `baselines[${index}].tasks[${k}].taskRef`, message: 'no such task in the document' });
    });
  });
  return problems;
}

/** The project fields of a document (and of the options that override them), checked as `POST /api/projects` checks them. */
function newProjectOf(document: PlanDocument, options: DocumentOptions): NewProject {
  const parsed = ProjectCreate.safeParse({
    name: options.name ?? document.name,
    workspaceId: options.workspaceId,
    key: options.key,
    description: document.description,
    startDate: document.startDate,
    deadline: document.deadline,
    currency: document.currency,
    scheduleFrom: document.scheduleFrom,
  });
  if (!parsed.success) throw invalid(schemaProblems(parsed, ''));
  return parsed.data;
}

/**
 * The resource of the new or restored plan for each resource of the document, by ref: a
 * resource of the plan with that ref as id is kept; a person with access to the project
 * gets the project resource that stands for them (made on first use); anyone else — no
 * account, or no access — becomes a resource without an account, with the same name.
 * New resources are inserted and put in the plan.
 */
export async function resourcesForDocument(tx: Queries, plan: Plan, document: PlanDocument, now: string): Promise<Map<string, string>> {
  const { project } = plan;
  const people = new Map(
    (await tx.projects.listPeople(project.id, project.workspace_id))
      .filter((person) => effectiveProjectRole(person.workspace_role, person.direct_role) !== null)
      .map((person) => [person.id, person]),
  );
  const byUser = new Map([...plan.resources.values()].filter((r) => r.user_id !== null).map((r) => [r.user_id as string, r.id]));
  const ids = new Map<string, string>();
  for (const resource of document.resources) {
    const kept = plan.resources.get(resource.ref);
    if (kept) {
      ids.set(resource.ref, kept.id);
      continue;
    }
    const person = resource.userId === null ? undefined : people.get(resource.userId);
    const existing = person && byUser.get(person.id);
    if (existing) {
      ids.set(resource.ref, existing);
      continue;
    }
    const row = newResourceRow(project.id, { userId: person?.id ?? null, name: person ? displayName(person) : resource.name, maxUnitsPct: resource.maxUnitsPct }, now);
    await tx.people.insertResource(row);
    plan.resources.set(row.id, row);
    if (person) byUser.set(person.id, row.id);
    ids.set(resource.ref, row.id);
  }
  return ids;
}

/** Sort keys for the tasks of a document, by ref: each parent's subtasks in document order. */
function sortKeysOf(document: PlanDocument): Map<string, string> {
  const siblings = new Map<string | null, string[]>();
  for (const task of document.tasks) {
    const refs = siblings.get(task.parentRef);
    if (refs) refs.push(task.ref);
    else siblings.set(task.parentRef, [task.ref]);
  }
  const keys = new Map<string, string>();
  for (const refs of siblings.values()) {
    const generated = generateNKeysBetween(null, null, refs.length);
    refs.forEach((ref, index) => keys.set(ref, generated[index]!));
  }
  return keys;
}

/**
 * What the write records of each document task beyond its public fields (place, duration
 * and work, manual dates, progress, assignments), by task id. `taskId` and `resourceIds`
 * map the document's refs to the plan's ids.
 */
export function recordedValuesOf(document: PlanDocument, taskId: (ref: string) => string, resourceIds: ReadonlyMap<string, string>): Map<string, RecordedTaskValues> {
  const sortKeys = sortKeysOf(document);
  const assignments = new Map<string, RecordedTaskValues['assignments']>();
  for (const a of document.assignments) {
    const resourceId = resourceIds.get(a.resourceRef) as string;
    const ofTask = assignments.get(a.taskRef) ?? [];
    // One resource stands for a person: two document resources of the same person are one assignment.
    if (!ofTask.some((existing) => existing.resourceId === resourceId)) ofTask.push({ resourceId, unitsPct: a.unitsPct });
    assignments.set(a.taskRef, ofTask);
  }
  return new Map(
    document.tasks.map((task) => [
      taskId(task.ref),
      {
        parentId: task.parentRef === null ? null : taskId(task.parentRef),
        sortKey: sortKeys.get(task.ref) as string,
        durationMin: task.type === 'milestone' ? 0 : task.durationMin,
        workMin: task.workMin ?? 0,
        manualStartAt: task.manuallyScheduled ? task.manualStartAt : null,
        manualFinishAt: task.manuallyScheduled ? task.manualFinishAt : null,
        progressPct: task.progressPct,
        actualStartAt: task.actualStartAt === null ? null : new Date(task.actualStartAt).toISOString(),
        actualFinishAt: task.actualFinishAt === null ? null : new Date(task.actualFinishAt).toISOString(),
        assignments: assignments.get(task.ref) ?? [],
      },
    ]),
  );
}

/** A document's dependencies as change-set creates, located in the document. */
export function documentLinks(document: PlanDocument, taskId: (ref: string) => string): PlanChanges['createDependencies'] {
  return document.dependencies.map((link, index) => ({
    predecessorId: taskId(link.predecessorRef),
    successorId: taskId(link.successorRef),
    type: link.type,
    lagMin: link.lagMin,
    path: `dependencies[${index}]`,
  }));
}

/** A document task as a change-set create with its id and its calendar's, located in the document. */
export function documentTaskCreate(task: DocumentTask, id: string, calendarId: string | null, index: number): PlanChanges['createTasks'][number] {
  return { ...publicTaskFields(task), id, calendarId, durationMin: task.type === 'milestone' ? 0 : task.durationMin, workMin: task.workMin ?? 0, path: `tasks[${index}]` };
}

export interface DocumentOptions {
  source: Exclude<ProjectSource, 'blank'>;
  workspaceId?: string;
  name?: string;
  key?: string;
  /** Another start than the document's moves the whole plan by as many days. */
  startDate?: string;
  /** IANA zone of the project calendar's working times (the document's own calendar, or a Standard one). */
  timeZone?: string;
}

/** The document's calendars with the project calendar's working times in `timeZone`: a Standard one when it has none. */
function calendarsIn(document: PlanDocument, timeZone: string | undefined): { documents: DocumentCalendar[]; projectRef: string | null } {
  if (timeZone === undefined) return { documents: document.calendars, projectRef: document.calendarRef };
  if (document.calendarRef === null) {
    const standard = standardCalendarDocument(timeZone);
    // A ref of its own, even in a document whose calendars are named by other schemes.
    const ref = document.calendars.some((calendar) => calendar.ref === standard.ref) ? randomUUID() : standard.ref;
    return { documents: [...document.calendars, { ...standard, ref }], projectRef: ref };
  }
  return { documents: document.calendars.map((calendar) => (calendar.ref === document.calendarRef ? { ...calendar, timeZone } : calendar)), projectRef: document.calendarRef };
}

export interface ProjectFromDocument {
  project: Project;
  taskCount: number;
  conflicts: Conflict[];
  /** How long the plan write took, in milliseconds. */
  durationMs: number;
}

/**
 * Makes a new project from a plan document in one transaction: the project (as
 * `POST /api/projects` makes one, `project.created` with `data.source`), then its tasks,
 * dependencies and assignments through the one write path (checked, scheduled,
 * `task.created` and `dependency.created`), then its baselines. Any problem is one 400
 * whose `details.fields` point into the document, and nothing is created. No change-set
 * limit applies: a document holds the whole plan.
 */
export async function createProjectFromDocument(ctx: DomainContext, actor: Actor, source: PlanDocument, options: DocumentOptions): Promise<ProjectFromDocument> {
  const startDate = options.startDate === undefined ? undefined : DateOnly.parse(options.startDate);
  const document = startDate === undefined ? source : shiftedDocument(source, daysBetween(source.startDate, startDate));
  const input = newProjectOf(document, options);
  const problems = await documentProblems(document);
  if (problems.length > 0) throw invalid(problems);

  const now = nowIso(ctx);
  const taskIds = new Map(document.tasks.map((task) => [task.ref, randomUUID()]));
  const taskId = (ref: string) => taskIds.get(ref) as string;
  const written = await ctx.store.transaction(async (tx) => {
    const { project, calendarIds } = await insertProject(ctx, tx, actor, input, {
      source: options.source,
      keyLocked: document.tasks.length > 0,
      calendars: calendarsIn(document, options.timeZone),
    });
    const calendarId = (ref: string | null) => (ref === null ? null : (calendarIds.get(ref) ?? null));
    const changes: PlanChanges = {
      createTasks: document.tasks.map((task, index) => documentTaskCreate(task, taskId(task.ref), calendarId(task.calendarRef), index)),
      updateTasks: [],
      createDependencies: documentLinks(document, taskId),
      deleteDependencyIds: [],
      createsProject: true,
      fullReschedule: true,
    };
    // The resources are made once the plan is loaded: the recorded assignments name them.
    const result = await writePlanInTransaction(ctx, tx, actor, project, changes, async (_tx, plan) => {
      changes.recordedValues = recordedValuesOf(document, taskId, await resourcesForDocument(tx, plan, document, now));
    });
    await insertBaselines(tx, project, document, taskId, actor, now);
    return { project: result.plan.project, result };
  });
  ctx.store.afterCommit(() => rememberCommittedPlan(ctx, written.result.plan));
  return { project: presentProject(written.project), taskCount: written.result.stats.taskCount, conflicts: written.result.conflicts, durationMs: written.result.stats.durationMs };
}

/** The document's baselines, for the tasks of the new plan; the first without a name is the main one. */
async function insertBaselines(tx: Queries, project: ProjectRow, document: PlanDocument, taskId: (ref: string) => string, actor: Actor, now: string): Promise<void> {
  let hasMain = false;
  for (const baseline of document.baselines) {
    const isMain: boolean = baseline.name === null && !hasMain;
    hasMain ||= isMain;
    const row: BaselineRow = {
      id: randomUUID(),
      project_id: project.id,
      name: baseline.name ?? (baseline.slot ? `${MAIN_BASELINE_NAME} ${baseline.slot}` : MAIN_BASELINE_NAME),
      slot: baseline.slot,
      is_main: isMain ? 1 : 0,
      captured_at: now,
      captured_by: actor.userId,
      task_count: baseline.tasks.length,
    };
    await tx.baselines.put(
      row,
      baseline.tasks.map((t) => ({ baseline_id: row.id, task_id: taskId(t.taskRef), start_at: t.startAt, finish_at: t.finishAt, duration_min: t.durationMin, work_min: t.workMin, cost_fixed: t.costFixed })),
    );
  }
}
