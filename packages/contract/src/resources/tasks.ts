import { z } from 'zod';
import { DateTime, Uuid } from '../common.js';

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
export const TaskType = z.enum(['fixed_units', 'fixed_duration', 'fixed_work', 'fixed_duration_and_units']);

export const Assignee = z.object({
  resourceId: Uuid,
  userId: Uuid.nullable().describe('Null for resources without an account.'),
  name: z.string(),
  unitsPct: z.number().int(),
});

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
