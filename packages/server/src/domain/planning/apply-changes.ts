import { randomUUID } from 'node:crypto';
import { ConstraintKind, type DependencyCreate, type FieldProblem, type TaskCreate, type TaskPatch } from '@gantry/contract';
import { applyProgressEdit, applyTaskEdit, type ProgressEdit, type TaskEdit } from '@gantry/engine';
import { generateKeyBetween } from 'fractional-indexing';
import type { AssignmentRow, DependencyRow, TaskRow } from '../../store/store.js';
import type { Plan } from './plan.js';

/** The progress fields of a task create or edit. */
interface ProgressFields {
  progressPct?: number;
  actualStartAt?: string | null;
  actualFinishAt?: string | null;
}

/** Each item carries the path of its place in the request, for `details.fields`. */
export type Located<T> = T & { path: string };

export interface AssigneeChange {
  taskId: string;
  /** Resource ids of the members to assign (already checked to be members). */
  memberResourceIds: string[];
  /** Account-less resources to assign; undefined keeps the current ones. */
  resourceIds?: string[];
  path: string;
}

export interface PlanChanges {
  createTasks: Located<TaskCreate>[];
  updateTasks: Located<TaskPatch & { id: string }>[];
  createDependencies: Located<DependencyCreate>[];
  deleteDependencyIds: Located<{ id: string }>[];
  /** Tasks deleted with their whole subtree and every dependency touching them (the web app only). */
  deleteTaskIds?: Located<{ id: string }>[];
  assignees?: AssigneeChange;
  /**
   * Internal, never from the public contract: whole-plan writes (a project made from a plan
   * document, a restore) put tasks as the document records them, by task id. Applied
   * after the item's public fields, whose rules these values bypass: they come from a plan
   * where those rules already held.
   */
  recordedValues?: ReadonlyMap<string, RecordedTaskValues>;
  /** Internal: the write makes a new project's plan, which `project.created` announces; it emits no opt-in schedule events. */
  createsProject?: boolean;
  fullReschedule: boolean;
}

/** What a plan document records of a task beyond the public create and edit fields. */
export interface RecordedTaskValues {
  /** The task's place: its parent (a task that exists, or is created earlier in the write) and its sort key among its siblings. */
  parentId: string | null;
  sortKey: string;
  durationMin: number;
  workMin: number;
  /** Where a manually scheduled task stays. */
  manualStartAt: string | null;
  manualFinishAt: string | null;
  /** Progress as recorded, not as an edit made now (which would take today's schedule as the actual start). */
  progressPct: number;
  actualStartAt: string | null;
  actualFinishAt: string | null;
  assignments: { resourceId: string; unitsPct: number }[];
}

/** What the changes did, for the write result and the events. */
export interface AppliedChanges {
  createdTaskIds: string[];
  /** Edited tasks → the API fields that changed, with their old and new values. */
  editedTasks: Map<string, Record<string, { from: unknown; to: unknown }>>;
  /** Created dependencies, and existing ones whose type or lag changed. */
  writtenDependencyIds: string[];
  deletedDependencies: DependencyRow[];
  /** Deleted tasks as they were, parents before their subtasks, with their assignments. */
  deletedTasks: { row: Readonly<TaskRow>; assignments: readonly AssignmentRow[] }[];
  /** Tasks whose assignment rows (who, or their units) changed. */
  reassignedTaskIds: Set<string>;
  /** The fields of `editedTasks` that summaries rolled up from their subtasks, not edited by the request. */
  rolledUpFields: Map<string, Set<string>>;
}

const field = (path: string, name: string) => (path ? `${path}.${name}` : name);

/** Field → column for the fields a client edits directly. */
const editableColumns = {
  name: 'name',
  durationMin: 'duration_min',
  workMin: 'work_min',
  progressPct: 'progress_pct',
  constraintKind: 'constraint_kind',
  constraintDate: 'constraint_date',
  deadline: 'deadline',
  calendarId: 'calendar_id',
  costFixed: 'cost_fixed',
  notes: 'notes',
  color: 'color',
  wbs: 'wbs',
  externalId: 'external_id',
  manuallyScheduled: 'manually_scheduled',
  levelingDelayMin: 'leveling_delay_min',
  taskType: 'task_type',
  effortDriven: 'effort_driven',
  durationEstimated: 'duration_estimated',
  durationOptimisticMin: 'duration_optimistic_min',
  durationPessimisticMin: 'duration_pessimistic_min',
  actualStartAt: 'actual_start_at',
  actualFinishAt: 'actual_finish_at',
  type: 'type',
} as const satisfies Record<string, keyof TaskRow>;

/** Fields whose change never moves the task itself: a move that comes with them is the recalculation's. */
const fieldsThatDoNotMove = new Set<keyof typeof editableColumns | 'assignees'>([
  'name',
  'notes',
  'color',
  'wbs',
  'externalId',
  'costFixed',
  'deadline',
  'workMin',
  'assignees',
  'taskType',
  'effortDriven',
  'durationEstimated',
  'durationOptimisticMin',
  'durationPessimisticMin',
]);

/**
 * Whether the request edited the task in a way that can move it (`task.dates_changed`
 * cause `edit`), not only moved it (`reschedule`): what a summary rolled up does not count.
 */
export function movedByItsEdit(applied: AppliedChanges, taskId: string): boolean {
  const changes = applied.editedTasks.get(taskId);
  const rolledUp = applied.rolledUpFields.get(taskId);
  return changes !== undefined && Object.keys(changes).some((name) => !fieldsThatDoNotMove.has(name as keyof typeof editableColumns) && !rolledUp?.has(name));
}

/** Columns whose change is reported in `task.updated` `data.changes`, by API name. */
export const reportedFields: [string, keyof TaskRow][] = [
  ...Object.entries(editableColumns),
  ['parentId', 'parent_id'],
  ['actualDurationMin', 'actual_duration_min'],
  ['remainingDurationMin', 'remaining_duration_min'],
];

/** Every constraint but `asap` and `alap` pins a date. */
const datedConstraints = new Set<string>(ConstraintKind.options.filter((kind) => kind !== 'asap' && kind !== 'alap'));

const flagColumns = new Set<keyof TaskRow>(['manually_scheduled', 'effort_driven', 'duration_estimated', 'is_critical']);

function apiValue(column: keyof TaskRow, value: unknown): unknown {
  return flagColumns.has(column) ? value === 1 : value;
}

function toIso(value: string | null | undefined): string | null {
  return value ? new Date(value).toISOString() : null;
}

/**
 * Applies a change set to the plan's working rows, checking every item; collects every
 * problem and throws none itself — the caller turns `problems` into one 400. Placement
 * uses fractional sort keys, so moving a task rewrites only that task.
 */
export class PlanEditor {
  readonly problems: FieldProblem[] = [];
  readonly applied: AppliedChanges = {
    createdTaskIds: [],
    editedTasks: new Map(),
    writtenDependencyIds: [],
    deletedDependencies: [],
    deletedTasks: [],
    reassignedTaskIds: new Set(),
    rolledUpFields: new Map(),
  };
  /** Edited tasks → fields a summary rolls up (refused in `settleTypes`, once the hierarchy is known). */
  private readonly rolledUpEdits = new Map<string, FieldProblem[]>();
  /** Progress sent for tasks created in this write: it needs their scheduled dates, so it waits for a first recalculation (in request order). */
  private readonly pendingProgress: { row: TaskRow; item: ProgressFields; path: string }[] = [];
  private readonly createdIds = new Set<string>();
  /** Moved tasks → the path of their placement, to name it when a move breaks a rule. */
  private readonly placementPaths = new Map<string, string>();
  /** Task ids by parent id, and link ids by "predecessor successor": built on first need, kept up to date by the edits. */
  private subtaskIndex?: Map<string | null, Set<string>>;
  private linkIndex?: Map<string, string>;
  private recordedValues?: ReadonlyMap<string, RecordedTaskValues>;

  constructor(
    private readonly plan: Plan,
    private readonly now: string,
    /** Ids used by tasks of other projects: a client-chosen id may not take them. */
    private readonly foreignIds: ReadonlySet<string>,
  ) {}

  apply(changes: PlanChanges): void {
    this.recordedValues = changes.recordedValues;
    for (const item of changes.createTasks) this.createTask(item);
    for (const item of changes.updateTasks) this.updateTask(item);
    if (changes.assignees) this.assign(changes.assignees);
    // After the moves: a task moved out of a deleted branch stays.
    for (const item of changes.deleteTaskIds ?? []) this.deleteTask(item);
    for (const item of changes.deleteDependencyIds) this.deleteDependency(item);
    for (const item of changes.createDependencies) this.writeDependency(item);
    this.checkLinksAcrossMoves();
    this.settleTypes();
  }

  /** A move must not put a task under a summary it is linked with (that link would be to its own subtask). */
  private checkLinksAcrossMoves(): void {
    if (this.placementPaths.size === 0) return;
    for (const link of this.plan.dependencies.values()) {
      if (!this.isDescendant(link.successor_id, link.predecessor_id) && !this.isDescendant(link.predecessor_id, link.successor_id)) continue;
      const moved = this.placementPaths.get(link.successor_id) ?? this.placementPaths.get(link.predecessor_id);
      if (moved) this.problem(moved, 'the task is linked to the summary it would be moved under (a summary cannot be linked to its own subtasks); remove the dependency first');
    }
  }

  private problem(path: string, message: string): void {
    this.problems.push({ path: path || 'body', message });
  }

  private subtaskIds(parentId: string | null): Set<string> {
    if (!this.subtaskIndex) {
      this.subtaskIndex = new Map();
      for (const task of this.plan.tasks.values()) this.subtaskIds(task.parent_id).add(task.id);
    }
    let ids = this.subtaskIndex.get(parentId);
    if (!ids) this.subtaskIndex.set(parentId, (ids = new Set()));
    return ids;
  }

  /** Placed subtasks of a parent (or top-level tasks), in outline order. */
  private children(parentId: string | null): Readonly<TaskRow>[] {
    return [...this.subtaskIds(parentId)]
      .map((id) => this.plan.tasks.get(id)!)
      .filter((task) => task.sort_key !== '')
      .sort((a, b) => (a.sort_key < b.sort_key ? -1 : a.sort_key > b.sort_key ? 1 : a.id < b.id ? -1 : 1));
  }

  private linkKey(predecessorId: string, successorId: string): string {
    return `${predecessorId} ${successorId}`;
  }

  /** The link from one task to another, if there is one. */
  private linkBetween(predecessorId: string, successorId: string): Readonly<DependencyRow> | undefined {
    if (!this.linkIndex) {
      this.linkIndex = new Map();
      for (const link of this.plan.dependencies.values()) this.linkIndex.set(this.linkKey(link.predecessor_id, link.successor_id), link.id);
    }
    const id = this.linkIndex.get(this.linkKey(predecessorId, successorId));
    return id === undefined ? undefined : this.plan.dependencies.get(id);
  }

  private isDescendant(taskId: string, ancestorId: string): boolean {
    let current = this.plan.tasks.get(taskId)?.parent_id ?? null;
    while (current) {
      if (current === ancestorId) return true;
      current = this.plan.tasks.get(current)?.parent_id ?? null;
    }
    return false;
  }

  /**
   * Puts `task` under a parent and between siblings. `placement` fields: undefined = not
   * given; `parentId: null` = top level.
   */
  private place(task: TaskRow, placement: { parentId?: string | null; afterTaskId?: string | null; beforeTaskId?: string | null }, path: string): void {
    const { afterTaskId, beforeTaskId } = placement;
    for (const [name, id] of [['parentId', placement.parentId], ['afterTaskId', afterTaskId], ['beforeTaskId', beforeTaskId]] as const) {
      if (id && !this.plan.tasks.has(id)) return this.problem(field(path, name), 'no such task in this project (tasks created in the same change set must come earlier)');
      if (id && id === task.id) return this.problem(field(path, name), 'a task cannot be placed relative to itself');
    }
    const anchor = afterTaskId ?? beforeTaskId;
    let parentId = placement.parentId !== undefined ? placement.parentId : anchor ? (this.plan.tasks.get(anchor)?.parent_id ?? null) : task.sort_key ? task.parent_id : null;
    if (placement.parentId === undefined && !anchor && task.sort_key) return; // nothing to move
    if (parentId && (parentId === task.id || this.isDescendant(parentId, task.id))) {
      // The field that put it there: the parent sent, or the sibling it was placed beside.
      const name = placement.parentId !== undefined ? 'parentId' : afterTaskId ? 'afterTaskId' : 'beforeTaskId';
      return this.problem(field(path, name), 'a task cannot be moved under itself or one of its own subtasks');
    }
    parentId ??= null;
    for (const [name, id] of [['afterTaskId', afterTaskId], ['beforeTaskId', beforeTaskId]] as const) {
      if (id && (this.plan.tasks.get(id)?.parent_id ?? null) !== parentId) {
        return this.problem(field(path, name), 'must be a sibling under the same parent');
      }
    }
    const siblings = this.children(parentId).filter((sibling) => sibling.id !== task.id);
    let lower: string | null = siblings.at(-1)?.sort_key ?? null;
    let upper: string | null = null;
    if (afterTaskId) {
      const index = siblings.findIndex((s) => s.id === afterTaskId);
      if (beforeTaskId && siblings[index + 1]?.id !== beforeTaskId) {
        return this.problem(field(path, 'beforeTaskId'), 'must be the sibling right after afterTaskId (or be left out)');
      }
      lower = siblings[index]?.sort_key ?? null;
      upper = siblings[index + 1]?.sort_key ?? null;
    } else if (beforeTaskId) {
      const index = siblings.findIndex((s) => s.id === beforeTaskId);
      upper = siblings[index]?.sort_key ?? null;
      lower = index > 0 ? (siblings[index - 1]?.sort_key ?? null) : null;
    }
    this.subtaskIds(task.parent_id).delete(task.id);
    this.subtaskIds(parentId).add(task.id);
    task.parent_id = parentId;
    task.sort_key = generateKeyBetween(lower, upper);
  }

  private createTask(item: Located<TaskCreate>): void {
    const id = item.id ?? randomUUID();
    if (this.plan.tasks.has(id) || this.foreignIds.has(id)) return this.problem(field(item.path, 'id'), 'already used by another task');
    const project = this.plan.project;
    const milestone = item.type === 'milestone' || (item.type === undefined && item.durationMin === 0);
    if (item.type === 'milestone' && item.durationMin !== undefined && item.durationMin > 0) {
      this.problem(field(item.path, 'durationMin'), 'a milestone has zero duration');
    }
    // An explicit summary is a phase created before its subtasks: it spans nothing until they arrive.
    const type = item.type === 'summary' ? 'summary' : milestone ? 'milestone' : 'task';
    const row: TaskRow = {
      id,
      project_id: project.id,
      number: project.next_task_number,
      parent_id: null,
      sort_key: '',
      name: item.name,
      type,
      duration_min: item.durationMin ?? (type === 'task' ? 480 : 0),
      work_min: item.workMin ?? 0,
      progress_pct: 0,
      constraint_kind: item.constraintKind ?? (project.schedule_from === 'backward' ? 'alap' : 'asap'),
      constraint_date: toIso(item.constraintDate),
      deadline: toIso(item.deadline),
      calendar_id: item.calendarId ?? null,
      cost_fixed: item.costFixed ?? 0,
      notes: item.notes ?? null,
      color: item.color ?? null,
      wbs: item.wbs ?? null,
      external_id: item.externalId ?? null,
      start_at: null,
      finish_at: null,
      is_critical: 0,
      total_float_min: null,
      free_float_min: null,
      early_start_at: null,
      early_finish_at: null,
      late_start_at: null,
      late_finish_at: null,
      actual_start_at: null,
      actual_finish_at: null,
      actual_duration_min: null,
      remaining_duration_min: null,
      manually_scheduled: 0,
      manual_start_at: null,
      manual_finish_at: null,
      leveling_delay_min: item.levelingDelayMin ?? 0,
      task_type: item.taskType ?? 'fixed_units',
      effort_driven: item.effortDriven ? 1 : 0,
      duration_estimated: item.durationEstimated ? 1 : 0,
      duration_optimistic_min: item.durationOptimisticMin ?? null,
      duration_pessimistic_min: item.durationPessimisticMin ?? null,
      created_at: this.now,
      updated_at: this.now,
    };
    project.next_task_number += 1;
    this.plan.tasks.set(id, row);
    this.applied.createdTaskIds.push(id);
    this.createdIds.add(id);
    if (!this.recordedValues?.has(id)) {
      this.place(row, { parentId: item.parentId, afterTaskId: item.afterTaskId, beforeTaskId: item.beforeTaskId }, item.path);
      if (!row.sort_key) this.place(row, { parentId: null }, item.path);
    }
    this.checkConstraint(row, item.path);
    this.editProgress(row, item, item.path);
    if (item.manuallyScheduled) row.manually_scheduled = 1;
    if (item.assignments) this.putGivenAssignments(row, item.assignments, field(item.path, 'assignments'));
    this.putRecordedValues(row, item.path);
  }

  /**
   * A new task's assignments as the change set gives them: stored as they are, beside the
   * duration and work given (no task-type rule applies, as for a pasted or restored task).
   * Each must be a resource of this project, once.
   */
  private putGivenAssignments(row: TaskRow, given: readonly { resourceId: string; unitsPct: number }[], path: string): void {
    const seen = new Set<string>();
    given.forEach(({ resourceId }, index) => {
      if (!this.plan.resources.has(resourceId)) this.problem(`${path}[${index}].resourceId`, 'no such resource in this project');
      else if (seen.has(resourceId)) this.problem(`${path}[${index}].resourceId`, 'is assigned earlier in the list: each resource once');
      seen.add(resourceId);
    });
    if (given.length === 0) return;
    this.plan.assignments.set(
      row.id,
      given.map((a) => ({ task_id: row.id, resource_id: a.resourceId, project_id: row.project_id, units_pct: a.unitsPct })),
    );
    this.applied.reassignedTaskIds.add(row.id);
  }

  /** A task's recorded values (`PlanChanges.recordedValues`), if the write has them. */
  private putRecordedValues(row: TaskRow, path: string): void {
    const recorded = this.recordedValues?.get(row.id);
    if (!recorded) return;
    if (recorded.parentId !== null && !this.plan.tasks.has(recorded.parentId)) return this.problem(field(path, 'parentId'), 'no such task in this plan');
    // Set, not placed among the siblings: the document gives every sibling its key, so writing it costs no search.
    this.subtaskIds(row.parent_id).delete(row.id);
    this.subtaskIds(recorded.parentId).add(row.id);
    row.parent_id = recorded.parentId;
    row.sort_key = recorded.sortKey;
    row.duration_min = recorded.durationMin;
    row.work_min = recorded.workMin;
    row.manual_start_at = recorded.manualStartAt;
    row.manual_finish_at = recorded.manualFinishAt;
    row.progress_pct = recorded.progressPct;
    row.actual_start_at = recorded.actualStartAt;
    row.actual_finish_at = recorded.actualFinishAt;
    // As a progress edit stores them (engine applyProgressEdit); null while the task has not
    // started, and on summaries, whose progress rolls up.
    const started = row.type !== 'summary' && (recorded.progressPct > 0 || recorded.actualStartAt !== null || recorded.actualFinishAt !== null);
    row.actual_duration_min = !started ? null : recorded.actualFinishAt !== null ? row.duration_min : Math.round((row.duration_min * recorded.progressPct) / 100);
    row.remaining_duration_min = started ? row.duration_min - (row.actual_duration_min ?? 0) : null;
    const current = new Map(this.assignmentsOf(row.id).map((a) => [a.resource_id, a.units_pct]));
    if (current.size === recorded.assignments.length && recorded.assignments.every((a) => current.get(a.resourceId) === a.unitsPct)) return;
    const beforeNames = this.assigneeNames(row.id);
    this.plan.assignments.set(
      row.id,
      recorded.assignments.map((a) => ({ task_id: row.id, resource_id: a.resourceId, project_id: row.project_id, units_pct: a.unitsPct })),
    );
    this.applied.reassignedTaskIds.add(row.id);
    if (!this.createdIds.has(row.id)) {
      const changes = this.applied.editedTasks.get(row.id) ?? {};
      changes.assignees = { from: beforeNames, to: this.assigneeNames(row.id) };
      this.applied.editedTasks.set(row.id, changes);
    }
  }

  /** Whether the task's progress is recorded by the write's document rather than made now. */
  hasRecordedProgress(taskId: string): boolean {
    return this.recordedValues?.has(taskId) ?? false;
  }

  /** Fields of an edit that a summary rolls up: refused if the task ends up with subtasks. */
  private rollsUp(taskId: string, problems: FieldProblem[]): void {
    if (problems.length > 0) this.rolledUpEdits.set(taskId, [...(this.rolledUpEdits.get(taskId) ?? []), ...problems]);
  }

  /** Progress sent for a task: applied now, or, for a task created in this write, once it is scheduled. */
  private editProgress(row: TaskRow, item: ProgressFields, path: string): void {
    const sent = (['progressPct', 'actualStartAt', 'actualFinishAt'] as const).filter((name) => item[name] !== undefined);
    if (sent.length === 0) return;
    this.rollsUp(row.id, sent.map((name) => ({ path: field(path, name), message: 'progress of a summary task rolls up from its subtasks' })));
    if (!this.createdIds.has(row.id)) return this.applyProgress(row, item, path);
    // Checked now, with every other problem; the rest of the check waits with the edit.
    const start = toIso(item.actualStartAt);
    const finish = toIso(item.actualFinishAt);
    if (start && finish && finish < start) this.problem(field(path, 'actualFinishAt'), 'must not be before actualStartAt');
    this.pendingProgress.push({ row, item, path });
  }

  /** True when new tasks carry progress that `applyPendingProgress` must apply once they are scheduled. */
  get hasPendingProgress(): boolean {
    return this.pendingProgress.length > 0;
  }

  /**
   * Applies the progress sent with new tasks, now that a recalculation has given them
   * their dates (so that, as for an edit, the actual start is the scheduled start).
   * Problems are collected like `apply`'s.
   */
  applyPendingProgress(): void {
    for (const { row, item, path } of this.pendingProgress) this.applyProgress(row, item, path);
  }

  private updateTask(item: Located<TaskPatch & { id: string }>): void {
    const row = this.plan.tasks.edit(item.id);
    if (!row) return this.problem(field(item.path, 'id'), 'no such task in this project');
    const before = { ...row };

    for (const [name, column] of Object.entries(editableColumns)) {
      const value = (item as Record<string, unknown>)[name];
      if (value === undefined || name === 'durationMin' || name === 'workMin' || name === 'type' || name === 'progressPct' || name === 'actualStartAt' || name === 'actualFinishAt') continue;
      const stored = typeof value === 'boolean' ? (value ? 1 : 0) : name === 'constraintDate' || name === 'deadline' ? toIso(value as string | null) : value;
      (row as Record<string, unknown>)[column] = stored;
    }
    if (item.constraintKind === 'asap' || item.constraintKind === 'alap') row.constraint_date = item.constraintDate === undefined ? null : row.constraint_date;

    if (item.manuallyScheduled !== undefined && before.manually_scheduled !== row.manually_scheduled) {
      // A task turned manual keeps the dates it has now (docs/scheduling.md, decision 5).
      row.manual_start_at = row.manually_scheduled ? before.start_at : null;
      row.manual_finish_at = row.manually_scheduled ? before.finish_at : null;
    }

    this.rollsUp(row.id, [
      ...(['durationMin', 'workMin'] as const)
        .filter((name) => item[name] !== undefined)
        .map((name) => ({ path: field(item.path, name), message: 'a summary task rolls this up from its subtasks' })),
      ...(item.type !== undefined && item.type !== 'summary' ? [{ path: field(item.path, 'type'), message: 'a task with subtasks is a summary; move its subtasks away first' }] : []),
    ]);
    if (item.type !== undefined) {
      row.type = item.type;
      if (item.type === 'milestone') {
        if (item.durationMin !== undefined && item.durationMin > 0) this.problem(field(item.path, 'durationMin'), 'a milestone has zero duration');
        row.duration_min = 0;
      }
    }
    if (item.durationMin !== undefined) {
      this.applyEffort(row, { kind: 'duration', durationMin: item.durationMin });
      if (item.type === undefined && row.type !== 'summary') row.type = item.durationMin === 0 ? 'milestone' : 'task';
      // A later duration edit of a manual task moves only its finish (decision 5).
      if (row.manually_scheduled) row.manual_finish_at = null;
      // A duration given is no longer an estimate, as in Microsoft Project, unless said so.
      if (item.durationEstimated === undefined) row.duration_estimated = 0;
    }
    if (item.workMin !== undefined) this.applyEffort(row, { kind: 'work', workMin: item.workMin });
    if (item.placement) {
      this.place(row, item.placement, field(item.path, 'placement'));
      this.placementPaths.set(row.id, field(field(item.path, 'placement'), 'parentId'));
    }
    this.checkConstraint(row, item.path);
    this.editProgress(row, item, item.path);
    this.putRecordedValues(row, item.path);
    this.recordEdit(before, row);
  }

  /**
   * After the recalculation: what summaries rolled up from their subtasks (duration,
   * progress; also a task that became or stopped being a summary) is reported as their edit.
   */
  recordRollups(): void {
    // A summary whose rollup changed was copied by the recalculation that changed it.
    for (const row of this.plan.tasks.touched()) {
      const before = this.plan.tasks.original(row.id);
      if (!before || (row.type !== 'summary' && before.type !== 'summary')) continue;
      this.recordRollup(before, row);
    }
  }

  /** Records what changed from `before` to `after` as the task's edit; returns the fields that changed. */
  private recordEdit(before: TaskRow, after: TaskRow): string[] {
    if (this.createdIds.has(after.id)) return [];
    const changes = this.applied.editedTasks.get(after.id) ?? {};
    const changed: string[] = [];
    for (const [name, column] of reportedFields) {
      if (before[column] !== after[column]) {
        changes[name] = { from: name in changes ? changes[name]?.from : apiValue(column, before[column]), to: apiValue(column, after[column]) };
        changed.push(name);
      }
    }
    if (Object.keys(changes).length > 0) this.applied.editedTasks.set(after.id, changes);
    return changed;
  }

  /** `recordEdit` for what the task rolled up (or became) because of its subtasks, beside what the request edited. */
  private recordRollup(before: TaskRow, after: TaskRow): void {
    const requested = new Set(Object.keys(this.applied.editedTasks.get(after.id) ?? {}));
    const changed = this.recordEdit(before, after).filter((name) => !requested.has(name));
    if (changed.length === 0) return;
    const fields = this.applied.rolledUpFields.get(after.id) ?? new Set();
    for (const name of changed) fields.add(name);
    this.applied.rolledUpFields.set(after.id, fields);
  }

  private checkConstraint(row: TaskRow, path: string): void {
    if (datedConstraints.has(row.constraint_kind) && !row.constraint_date) {
      this.problem(field(path, 'constraintDate'), `is required for constraintKind ${row.constraint_kind}`);
    }
    if (row.calendar_id && !this.plan.calendars.some((calendar) => calendar.id === row.calendar_id)) {
      this.problem(field(path, 'calendarId'), 'no such calendar in this project');
    }
  }

  private assignmentsOf(taskId: string): readonly AssignmentRow[] {
    return this.plan.assignments.get(taskId) ?? [];
  }

  /** Duration/work/units per the task type (Microsoft Project's Work = Duration × Units). */
  private applyEffort(row: TaskRow, edit: TaskEdit): void {
    const assignments = this.assignmentsOf(row.id);
    // A summary's duration and work roll up from its subtasks: people assigned to it change
    // neither, whatever its own task type says (else its stored duration would differ from
    // the rollup until the next full recalculation).
    const rolledUp = edit.kind === 'assignments' && row.type === 'summary' && this.subtaskIds(row.id).size > 0;
    const next = rolledUp
      ? { durationMin: row.duration_min, workMin: row.work_min, assignments: edit.assignments }
      : applyTaskEdit(
          {
            taskType: row.task_type,
            effortDriven: row.effort_driven === 1,
            durationMin: row.duration_min,
            workMin: row.work_min,
            assignments: assignments.map((a) => ({ resourceId: a.resource_id, unitsPct: a.units_pct })),
          },
          edit,
        );
    row.duration_min = next.durationMin;
    row.work_min = next.workMin;
    if (edit.kind === 'work' && assignments.length === 0) row.work_min = edit.workMin;
    const units = new Map(next.assignments.map((a) => [a.resourceId, a.unitsPct]));
    const before = JSON.stringify(assignments);
    this.plan.assignments.set(
      row.id,
      (edit.kind === 'assignments' ? next.assignments : assignments.map((a) => ({ resourceId: a.resource_id, unitsPct: a.units_pct }))).map((a) => ({
        task_id: row.id,
        resource_id: a.resourceId,
        project_id: row.project_id,
        units_pct: units.get(a.resourceId) ?? a.unitsPct,
      })),
    );
    if (JSON.stringify(this.plan.assignments.get(row.id)) !== before) this.applied.reassignedTaskIds.add(row.id);
  }

  /** % complete and actual dates, related as Microsoft Project relates them (docs/scheduling.md › Progress). */
  private applyProgress(row: TaskRow, item: ProgressFields, path: string): void {
    const edits: ProgressEdit[] = [];
    if (item.actualStartAt !== undefined) edits.push({ kind: 'actualStartAt', actualStartAt: toIso(item.actualStartAt) });
    if (item.progressPct !== undefined) {
      edits.push({ kind: 'progressPct', progressPct: item.progressPct, scheduledStartAt: row.start_at ?? row.early_start_at, scheduledFinishAt: row.finish_at });
    }
    if (item.actualFinishAt !== undefined) edits.push({ kind: 'actualFinishAt', actualFinishAt: toIso(item.actualFinishAt), scheduledStartAt: row.start_at });
    if (edits.length === 0) return;
    let state = {
      durationMin: row.duration_min,
      progressPct: row.progress_pct,
      actualDurationMin: row.actual_duration_min ?? 0,
      remainingDurationMin: row.remaining_duration_min ?? row.duration_min,
      actualStartAt: row.actual_start_at,
      actualFinishAt: row.actual_finish_at,
    };
    for (const edit of edits) state = applyProgressEdit(state, edit);
    if (state.actualStartAt && state.actualFinishAt && state.actualFinishAt < state.actualStartAt) {
      return this.problem(field(path, 'actualFinishAt'), 'must not be before actualStartAt');
    }
    row.duration_min = state.durationMin;
    row.progress_pct = state.progressPct;
    row.actual_duration_min = state.actualDurationMin;
    row.remaining_duration_min = state.remainingDurationMin;
    row.actual_start_at = state.actualStartAt;
    row.actual_finish_at = state.actualFinishAt;
  }

  private assign(change: AssigneeChange): void {
    const row = this.plan.tasks.edit(change.taskId);
    if (!row) return this.problem('taskId', 'no such task in this project');
    const current = this.assignmentsOf(row.id);
    const keptUnits = new Map(current.map((a) => [a.resource_id, a.units_pct]));
    const accountless = change.resourceIds ?? current.map((a) => a.resource_id).filter((id) => this.plan.resources.get(id)?.user_id === null);
    change.resourceIds?.forEach((id, index) => {
      const resource = this.plan.resources.get(id);
      if (!resource || resource.user_id !== null) this.problem(`${change.path}resourceIds[${index}]`, 'no such resource without an account in this project');
    });
    const next = [...new Set([...change.memberResourceIds, ...accountless])].map((resourceId) => ({ resourceId, unitsPct: keptUnits.get(resourceId) ?? 100 }));
    const before = { ...row };
    const beforeNames = this.assigneeNames(row.id);
    this.applyEffort(row, { kind: 'assignments', assignments: next });
    this.recordEdit(before, row);
    const afterNames = this.assigneeNames(row.id);
    if (JSON.stringify(beforeNames) !== JSON.stringify(afterNames)) {
      const changes = this.applied.editedTasks.get(row.id) ?? {};
      changes.assignees = { from: beforeNames, to: afterNames };
      this.applied.editedTasks.set(row.id, changes);
    }
  }

  private assigneeNames(taskId: string): string[] {
    return this.assignmentsOf(taskId)
      .map((a) => a.resource_id)
      .sort();
  }

  /**
   * Deletes a task, its subtasks at every depth, every dependency touching any of them and
   * their assignments. The parent keeps its type (a summary left without subtasks stays one).
   */
  private deleteTask(item: Located<{ id: string }>): void {
    const top = this.plan.tasks.get(item.id);
    if (!top) return this.problem(item.path, 'no such task in this project');
    const branch: Readonly<TaskRow>[] = [];
    const visit = (task: Readonly<TaskRow>) => {
      branch.push(task);
      for (const child of this.children(task.id)) visit(child);
    };
    visit(top);
    const ids = new Set(branch.map((task) => task.id));
    for (const link of [...this.plan.dependencies.values()]) {
      if (ids.has(link.predecessor_id) || ids.has(link.successor_id)) this.deleteDependency({ id: link.id, path: item.path });
    }
    for (const task of branch) {
      this.applied.deletedTasks.push({ row: task, assignments: this.assignmentsOf(task.id) });
      if (this.assignmentsOf(task.id).length > 0) this.applied.reassignedTaskIds.add(task.id);
      this.plan.assignments.delete(task.id);
      this.subtaskIds(task.parent_id).delete(task.id);
      this.subtaskIndex?.delete(task.id);
      this.plan.tasks.delete(task.id);
    }
  }

  private deleteDependency(item: Located<{ id: string }>): void {
    const row = this.plan.dependencies.get(item.id);
    if (!row) return this.problem(item.path, 'no such dependency in this project');
    this.plan.dependencies.delete(item.id);
    this.linkIndex?.delete(this.linkKey(row.predecessor_id, row.successor_id));
    if (this.plan.dependencies.original(item.id)) this.applied.deletedDependencies.push(row);
    this.applied.writtenDependencyIds = this.applied.writtenDependencyIds.filter((id) => id !== item.id);
  }

  private writeDependency(item: Located<DependencyCreate>): void {
    const predecessor = this.plan.tasks.get(item.predecessorId);
    const successor = this.plan.tasks.get(item.successorId);
    if (!predecessor || !successor) {
      if (!predecessor) this.problem(field(item.path, 'predecessorId'), 'no such task in this project');
      if (!successor) this.problem(field(item.path, 'successorId'), 'no such task in this project');
      return;
    }
    if (predecessor.id === successor.id) return this.problem(field(item.path, 'successorId'), 'a task cannot depend on itself');
    if (this.isDescendant(successor.id, predecessor.id) || this.isDescendant(predecessor.id, successor.id)) {
      return this.problem(field(item.path, 'successorId'), 'a summary task cannot be linked to one of its own subtasks');
    }
    const found = this.linkBetween(predecessor.id, successor.id);
    if (found) {
      if (found.type === item.type && found.lag_min === item.lagMin) return;
      const existing = this.plan.dependencies.edit(found.id) as DependencyRow;
      existing.type = item.type;
      existing.lag_min = item.lagMin;
      existing.updated_at = this.now;
      if (!this.applied.writtenDependencyIds.includes(existing.id)) this.applied.writtenDependencyIds.push(existing.id);
      return;
    }
    const id = randomUUID();
    this.linkIndex?.set(this.linkKey(predecessor.id, successor.id), id);
    this.plan.dependencies.set(id, {
      id,
      project_id: this.plan.project.id,
      predecessor_id: predecessor.id,
      successor_id: successor.id,
      type: item.type,
      lag_min: item.lagMin,
      created_at: this.now,
      updated_at: this.now,
    });
    this.applied.writtenDependencyIds.push(id);
  }

  /**
   * A task with subtasks is a summary. A summary keeps its type when it has none (created
   * as a phase before its subtasks, or emptied by a move): only the client changes it back.
   */
  private settleTypes(): void {
    // Committed parents are summaries already: only this write's creations, moves and type
    // edits can leave a task with subtasks that is not one.
    const parents = new Set<string>();
    for (const task of this.plan.tasks.touched()) {
      if (task.parent_id) parents.add(task.parent_id);
      if (task.type !== 'summary' && this.plan.tasks.original(task.id)?.type === 'summary' && this.subtaskIds(task.id).size > 0) parents.add(task.id);
    }
    for (const id of parents) {
      if (this.plan.tasks.get(id)?.type === 'summary') continue;
      const task = this.plan.tasks.edit(id) as TaskRow;
      const before = task.type;
      task.type = 'summary';
      this.recordRollup({ ...task, type: before }, task);
    }
    for (const [id, problems] of this.rolledUpEdits) {
      const hasSubtasks = this.plan.tasks.get(id)?.type === 'summary' && this.subtaskIds(id).size > 0;
      if (hasSubtasks) for (const { path, message } of problems) this.problem(path, message);
    }
  }
}
