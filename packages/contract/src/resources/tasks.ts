import { z } from 'zod';
import { DateTime, DateTimeInput, fieldChanges, QueryInteger, Uuid } from '../common.js';
import { limits } from '../limits.js';

export const TaskKind = z.enum(['summary', 'task', 'milestone']);
export const ConstraintKind = z.enum([
  'asap',
  'alap',
  'start_no_earlier_than',
  'start_no_later_than',
  'finish_no_earlier_than',
  'finish_no_later_than',
  'must_start_on',
  'must_finish_on',
]);
export type ConstraintKind = z.infer<typeof ConstraintKind>;
export const TaskType = z.enum(['fixed_units', 'fixed_duration', 'fixed_work', 'fixed_duration_and_units']);
export type TaskType = z.infer<typeof TaskType>;

export const Assignee = z.object({
  resourceId: Uuid,
  userId: Uuid.nullable().describe('Null for resources without an account.'),
  name: z.string(),
  unitsPct: z.number().int(),
});

/** Who is assigned to which task, with how many units: a row of the full project's `assignments` and of a WriteResult's. */
export const Assignment = z.object({
  taskId: Uuid,
  resourceId: Uuid,
  unitsPct: z.number().int().describe('Percent of one full-time person the resource works on the task (100 = full time).'),
});
export type Assignment = z.infer<typeof Assignment>;

/**
 * Units of an assignment a client sets: a whole percent from 0 (assigned, but adding no
 * work, as Microsoft Project files may record) to the largest Max. Units of a resource.
 */
export const AssignmentUnitsPct = z.number().int().min(0).max(limits.resourceMaxUnitsPct);

/** Fields every task shape shares: the stored task without `sortKey`. */
const taskFields = {
  id: Uuid,
  number: z.number().int().describe('Sequential in the project, never reused.'),
  key: z.string().describe('`<projectKey>-<number>`'),
  parentId: Uuid.nullable().describe('Parent summary task; null = top level.'),
  name: z.string(),
  type: TaskKind,
  durationMin: z.number().int().min(0).describe('Working minutes.'),
  workMin: z.number().int(),
  progressPct: z.number().describe('100 means completed.'),
  constraintKind: ConstraintKind,
  constraintDate: DateTime.nullable(),
  deadline: DateTime.nullable(),
  calendarId: Uuid.nullable(),
  costFixed: z.number(),
  notes: z.string().nullable(),
  color: z.string().nullable(),
  wbs: z.string().nullable(),
  externalId: z.string().nullable().describe("Caller's own id; exact-match searchable."),
  startAt: DateTime.nullable().describe('Computed start.'),
  finishAt: DateTime.nullable().describe('Computed finish.'),
  isCritical: z.boolean(),
  totalFloatMin: z.number().int().nullable().describe('Total float in working minutes.'),
  earlyStartAt: DateTime.nullable(),
  lateFinishAt: DateTime.nullable(),
  actualStartAt: DateTime.nullable(),
  actualFinishAt: DateTime.nullable(),
  actualDurationMin: z.number().int().nullable(),
  remainingDurationMin: z.number().int().nullable(),
  manuallyScheduled: z.boolean(),
  levelingDelayMin: z.number().int(),
  taskType: TaskType,
  effortDriven: z.boolean(),
  durationEstimated: z.boolean().describe("The duration is an estimate (Microsoft Project's `1 day?`)."),
  durationOptimisticMin: z.number().int().nullable(),
  durationPessimisticMin: z.number().int().nullable(),
};

/** A task as task reads and webhook payloads carry it. */
export const Task = z.object({
  ...taskFields,
  projectId: Uuid,
  completed: z.boolean().describe('True when progressPct = 100.'),
  assignees: z.array(Assignee),
  url: z.url().describe('Page of the task in the web app.'),
});
export type Task = z.infer<typeof Task>;

/** A task inside write results and the full-project read. */
export const PlanTask = z.object({
  ...taskFields,
  sortKey: z.string().describe('Ordering among siblings.'),
});
export type PlanTask = z.infer<typeof PlanTask>;

export const Dependency = z.object({
  id: Uuid,
  predecessorId: Uuid,
  successorId: Uuid,
  type: z.enum(['FS', 'SS', 'FF', 'SF']),
  lagMin: z.number().int().describe('Working minutes; negative = lead.'),
});
export type Dependency = z.infer<typeof Dependency>;

export const Conflict = z
  .object({
    kind: z
      .string()
      .describe('`constraint_vs_link`, `deadline_missed`, `manual_vs_link` or `before_project_start`; further kinds may be added.'),
    taskId: Uuid,
    dependencyId: Uuid.nullable().optional(),
    message: z.string(),
  })
  .catchall(z.unknown())
  .describe('A scheduling conflict the engine found and kept (it never blocks the write).');
export type Conflict = z.infer<typeof Conflict>;

const nullableText = (max: number) => z.string().max(max).nullable();
/** Up to 10 million working minutes (about 80 years of 8-hour days). */
const minutes = z.number().int().min(0).max(10_000_000);

/** Fields computed by the scheduler: sending them is a 400 that points to constraints. */
const computedFieldMessage =
  'is computed by the scheduling engine and cannot be set; pin a task with constraintKind and constraintDate (e.g. must_start_on) instead';
const computed = z
  .unknown()
  .refine((value) => value === undefined, { message: computedFieldMessage })
  .optional()
  .describe('Computed; not settable (400).');
const computedFields = {
  startAt: computed,
  finishAt: computed,
  earlyStartAt: computed,
  lateFinishAt: computed,
  totalFloatMin: computed,
  isCritical: computed,
};

/** Fields a client may set on create and on PATCH (all optional there). */
const editableFields = {
  name: z.string().trim().min(1).max(limits.nameMaxLength),
  type: TaskKind.describe('A task with subtasks is a `summary`; a summary without subtasks (a phase created before them) is scheduled on its own `durationMin`. `milestone` has zero duration.'),
  durationMin: minutes.describe('Working minutes.'),
  workMin: minutes,
  progressPct: z.number().min(0).max(100).describe('100 completes the task.'),
  constraintKind: ConstraintKind,
  constraintDate: DateTimeInput.nullable().describe('Required by every constraint kind except asap and alap.'),
  deadline: DateTimeInput.nullable(),
  calendarId: Uuid.nullable(),
  costFixed: z.number().min(0),
  notes: nullableText(limits.descriptionMaxLength),
  color: nullableText(32),
  wbs: nullableText(100),
  externalId: nullableText(200).describe("Caller's own id; exact-match searchable."),
  manuallyScheduled: z.boolean().describe('Additive: keeps the task at its current dates.'),
  levelingDelayMin: minutes.describe('Additive: working minutes applied after links and constraints.'),
  taskType: TaskType.describe('Additive.'),
  effortDriven: z.boolean().describe('Additive.'),
  durationEstimated: z
    .boolean()
    .describe("Additive: the duration is an estimate (Microsoft Project's `1 day?`). A manually scheduled task with one and no links is never critical. A new durationMin without it clears it."),
  durationOptimisticMin: minutes.nullable().describe('Additive: PERT optimistic duration.'),
  durationPessimisticMin: minutes.nullable().describe('Additive: PERT pessimistic duration.'),
  actualStartAt: DateTimeInput.nullable().describe('Additive: progress.'),
  actualFinishAt: DateTimeInput.nullable().describe('Additive: progress; completes the task.'),
};

const placementFields = {
  parentId: Uuid.nullable().describe('Parent summary task; null = top level.'),
  afterTaskId: Uuid.nullable().describe('Insert after this sibling.'),
  beforeTaskId: Uuid.nullable().describe('Insert before this sibling (with afterTaskId: the sibling right after it).'),
};

export const TaskCreate = z.object({
  id: Uuid.optional().describe(
    'Only in change sets: a client-chosen id for the new task, so other items of the same change set can refer to it (parentId, afterTaskId, beforeTaskId, dependencies, updateTasks).',
  ),
  ...editableFields,
  ...placementFields,
  parentId: placementFields.parentId.optional(),
  afterTaskId: placementFields.afterTaskId.optional(),
  beforeTaskId: placementFields.beforeTaskId.optional(),
  assignments: z
    .array(
      z.object({
        resourceId: Uuid.describe("A resource of the project (`GET …/resources`): a member's or one without an account."),
        unitsPct: AssignmentUnitsPct.default(100).describe('Whole percent, 0-100,000 (100 = full time).'),
      }),
    )
    .max(limits.assignmentsPerTaskMax)
    .optional()
    .describe(
      "Only in change sets: the new task's assignments, stored as given, with the task's durationMin and workMin as given (no effort-driven recalculation, as when a task is pasted or restored). Each resource at most once.",
    ),
  ...computedFields,
}).partial({ type: true, durationMin: true, workMin: true, progressPct: true, constraintKind: true, constraintDate: true, deadline: true, calendarId: true, costFixed: true, notes: true, color: true, wbs: true, externalId: true, manuallyScheduled: true, levelingDelayMin: true, taskType: true, effortDriven: true, durationEstimated: true, durationOptimisticMin: true, durationPessimisticMin: true, actualStartAt: true, actualFinishAt: true });
export type TaskCreate = z.output<typeof TaskCreate>;

export const Placement = z.object(placementFields).partial();

export const TaskPatch = z.object({
  ...editableFields,
  placement: Placement.optional().describe('Move the task: new parent and/or position among siblings.'),
  ...computedFields,
}).partial();
export type TaskPatch = z.output<typeof TaskPatch>;

/** The read-shape fields whose change `task.updated` reports: every field a client edits, plus what moves and progress change. */
const reportedFields = {
  ...(Object.fromEntries(Object.keys(editableFields).map((name) => [name, true])) as { [Field in keyof typeof editableFields]: true }),
  parentId: true,
  actualDurationMin: true,
  remainingDurationMin: true,
} as const;

/**
 * The `changes` of `task.updated`: only the fields that changed, each `{from, to}`. Also
 * what a summary rolls up from its subtasks, and `type` when a task becomes or stops being
 * a summary. `sortKey` is not a field of this task shape, so a reorder alone reports nothing.
 */
export const TaskChanges = fieldChanges({
  ...Task.pick(reportedFields).shape,
  assignees: z.array(Uuid).describe('Resource ids of the assignees, sorted (the Task carries their names).'),
});
export type TaskChanges = z.infer<typeof TaskChanges>;

export const DependencyCreate = z.object({
  predecessorId: Uuid,
  successorId: Uuid,
  type: z.enum(['FS', 'SS', 'FF', 'SF']).default('FS'),
  lagMin: z.number().int().min(-10_000_000).max(10_000_000).default(0).describe('Working minutes; negative = lead.'),
});
export type DependencyCreate = z.output<typeof DependencyCreate>;

export const DependencyList = z.object({ dependencies: z.array(DependencyCreate).min(1).max(limits.changesPerChangeSet) });
export const DependencyWrite = z.union([DependencyCreate, DependencyList]);

/** Whether a `POST …/dependencies` body is the `{dependencies: [...]}` form. */
export function isDependencyList(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'dependencies' in body;
}

export const TaskUpdateItem = TaskPatch.extend({ id: Uuid });

export const ChangeSet = z
  .object({
    createTasks: z.array(TaskCreate).default([]),
    updateTasks: z.array(TaskUpdateItem).default([]).describe('Each item: the task id, then the PATCH fields (with `placement`).'),
    createDependencies: z.array(DependencyCreate).default([]),
    deleteDependencyIds: z.array(Uuid).default([]),
    deleteTaskIds: z
      .array(z.unknown())
      .optional()
      .describe('Refused: tasks are deleted only in the web app, so a change set naming any task here is 403 `forbidden` with `details.reason` `destructive`.'),
    fullReschedule: z.boolean().default(false).describe('Recompute every task, not only what the changes affect.'),
  })
  .superRefine((set, ctx) => {
    const count = set.createTasks.length + set.updateTasks.length + set.createDependencies.length + set.deleteDependencyIds.length;
    if (count > limits.changesPerChangeSet) {
      ctx.addIssue({ code: 'custom', path: [], message: `at most ${limits.changesPerChangeSet} changes per change set (got ${count})` });
    }
  });
export type ChangeSet = z.output<typeof ChangeSet>;

/** The keys that make a `POST …/tasks` body a change set rather than one TaskCreate. */
export const changeSetKeys = ['createTasks', 'updateTasks', 'createDependencies', 'deleteDependencyIds', 'deleteTaskIds', 'fullReschedule'] as const;

/** Whether a `POST …/tasks` body is a change set (it has any change-set key). */
export function isChangeSet(body: unknown): boolean {
  return typeof body === 'object' && body !== null && changeSetKeys.some((key) => key in body);
}

export const WriteResult = z.object({
  tasks: z.array(PlanTask).describe('Created/updated tasks plus every task the recalculation moved.'),
  deletedTaskIds: z.array(z.string()),
  dependencies: z.array(Dependency),
  deletedDependencyIds: z.array(z.string()),
  assignments: z
    .array(Assignment)
    .describe(
      'Additive: every assignment, after the write, of the tasks in `reassignedTaskIds` (by task number, then resource name). A client holding the plan replaces the assignments of those tasks with these.',
    ),
  reassignedTaskIds: z
    .array(Uuid)
    .describe(
      'Additive: the tasks whose assignments (who, or their units) the write changed, by task number, including those left with none. Deleted tasks are not listed: their assignments went with them (`deletedTaskIds`).',
    ),
  conflicts: z.array(Conflict),
  projectStartAt: DateTime,
  projectFinishAt: DateTime,
  stats: z.object({
    taskCount: z.number().int(),
    recomputedCount: z.number().int().describe('Tasks the scheduling engine recalculated.'),
    savedCount: z.number().int().describe('Tasks whose stored values changed.'),
    durationMs: z.number().int(),
  }),
});
export type WriteResult = z.infer<typeof WriteResult>;

export const TaskListQuery = z.object({
  limit: QueryInteger(1, limits.taskPageSizeMax, limits.taskPageSizeDefault),
  cursor: z.string().max(200).optional().describe('The `nextCursor` of the previous page.'),
  sort: z.enum(['number', '-number', '-updatedAt']).default('number').describe('`-updatedAt` returns the first page only.'),
  externalId: z.string().max(200).optional().describe('Exact match.'),
  q: z.string().max(200).optional().describe('Name contains, case-insensitive for all of Unicode (NFKC-normalised, fully case-folded: `ß` matches `SS`).'),
  updatedSince: DateTimeInput.optional(),
  completed: z.enum(['true', 'false']).optional(),
});

export const TaskList = z.object({ tasks: z.array(Task), nextCursor: z.string().nullable() });
export const TaskResponse = z.object({ task: Task });
export const DependencyListResponse = z.object({ dependencies: z.array(Dependency) });

export const Comment = z.object({
  id: Uuid,
  taskId: Uuid,
  userId: Uuid,
  authorName: z.string(),
  authorAvatarUrl: z.string().nullable(),
  body: z.string(),
  mentions: z.array(z.string()),
  createdAt: DateTime,
  editedAt: DateTime.nullable(),
});
export type Comment = z.infer<typeof Comment>;
export const CommentCreate = z.object({
  body: z.string().trim().min(1).max(limits.descriptionMaxLength).describe('Plain text.'),
  mentions: z.array(Uuid).max(50).default([]).describe('User ids to notify by e-mail; each must be a project member.'),
});
export const CommentResponse = z.object({ comment: Comment });
export const CommentList = z.object({ comments: z.array(Comment) });

export const AssigneesPut = z.object({
  userIds: z.array(Uuid).max(100).describe('Project members; an empty list removes every member assigned.'),
  resourceIds: z.array(Uuid).max(100).optional().describe('Replaces the assigned resources without an account (from imports); omitted = unchanged.'),
});
export const AssigneesResult = WriteResult.extend({
  task: Task.describe('The task with its new assignees.'),
});

export const Baseline = z.object({
  id: Uuid,
  name: z.string(),
  index: z.number().int().nullable().describe('Numbered baseline slot 1-10; null for the main baseline and for named ones.'),
  capturedAt: DateTime,
  capturedBy: Uuid.nullable(),
  taskCount: z.number().int(),
});
export type Baseline = z.infer<typeof Baseline>;
export const BaselineCreate = z.object({
  name: z.string().trim().min(1).max(limits.nameMaxLength).optional().describe('Omitted: the main baseline, overwritten each time.'),
});
export const BaselineResponse = z.object({ baseline: Baseline });
export const BaselineList = z.object({ baselines: z.array(Baseline) });
