/**
 * Plain, JSON-serialisable input and output shapes of the engine. Field names mirror the
 * REST API's Task and Dependency (docs/api.md, the OpenAPI document) so the server maps
 * rows 1:1.
 * All durations, lags and floats are integer **working minutes**, except those of an
 * elapsed duration or lag (`durationElapsed`, `lagElapsed`), which are clock minutes; all
 * instants are ISO-8601 strings (output: `Date.prototype.toISOString()` form, UTC).
 */

/** A working interval of one day, wall-clock `["HH:MM", "HH:MM"]`, end exclusive; `"24:00"` allowed. */
export type WorkInterval = readonly [string, string];

/** A calendar exception covering the local dates `from`..`to` (inclusive). */
export interface CalendarExceptionInput {
  from: string;
  to: string;
  /** `[]` = non-working; otherwise the working intervals of each of those days. */
  intervals: readonly WorkInterval[];
}

export interface CalendarInput {
  id: string;
  name?: string;
  /** IANA zone; default `'UTC'` (or the base calendar's zone). */
  timeZone?: string | null;
  /**
   * 7 entries, Sunday..Saturday. An entry of `null` inherits that weekday from the base
   * calendar (or the Standard week when there is no base).
   */
  weekly?: readonly (readonly WorkInterval[] | null)[] | null;
  exceptions?: readonly CalendarExceptionInput[] | null;
  baseCalendarId?: string | null;
}

export type ConstraintKind =
  | 'asap'
  | 'alap'
  | 'start_no_earlier_than'
  | 'start_no_later_than'
  | 'finish_no_earlier_than'
  | 'finish_no_later_than'
  | 'must_start_on'
  | 'must_finish_on';

export type TaskType = 'fixed_units' | 'fixed_duration' | 'fixed_work' | 'fixed_duration_and_units';
export type DependencyType = 'FS' | 'SS' | 'FF' | 'SF';

export interface AssignmentInput {
  resourceId: string;
  /** 100 = one full-time resource. */
  unitsPct: number;
}

export interface ProjectInput {
  /** Project start (forward scheduling). ISO instant. */
  startAt: string;
  scheduleFrom?: 'forward' | 'backward';
  /** Anchor for backward scheduling (the end of that working day is used). */
  finishAt?: string | null;
  /** Alias of `finishAt` for backward scheduling (docs/scheduling.md, decision 8). */
  deadline?: string | null;
  /** Project calendar; default: the built-in Standard calendar. */
  calendarId?: string | null;
}

export interface TaskInput {
  id: string;
  /** Human key (e.g. `WEB-3`), used in cycle paths when present. */
  key?: string | null;
  name?: string | null;
  parentId?: string | null;
  /** Ordering among siblings; only used for output stability, never for dates. */
  sortKey?: string | null;
  /** `summary` is implied when another task names this one as parent. */
  type?: 'summary' | 'task' | 'milestone';
  durationMin?: number | null;
  /**
   * The duration is elapsed time (Microsoft Project's `ed`, `eh`, …): it runs on the clock,
   * 24 hours a day and 7 days a week, on the wall clock of the task calendar's zone, and
   * `durationMin` (with the actual, remaining, PERT and leveling-delay minutes and the
   * task's floats) counts clock minutes. Ignored on summaries.
   */
  durationElapsed?: boolean | null;
  workMin?: number | null;
  progressPct?: number | null;
  constraintKind?: ConstraintKind | null;
  constraintDate?: string | null;
  deadline?: string | null;
  calendarId?: string | null;
  manuallyScheduled?: boolean | null;
  manualStartAt?: string | null;
  manualFinishAt?: string | null;
  /** The duration is an estimate (Microsoft Project's "1 day?"): a manual task with one and no links is never critical. */
  durationEstimated?: boolean | null;
  levelingDelayMin?: number | null;
  taskType?: TaskType | null;
  effortDriven?: boolean | null;
  actualStartAt?: string | null;
  actualFinishAt?: string | null;
  actualDurationMin?: number | null;
  remainingDurationMin?: number | null;
  durationOptimisticMin?: number | null;
  durationPessimisticMin?: number | null;
  assignments?: readonly AssignmentInput[] | null;
}

export interface DependencyInput {
  id: string;
  predecessorId: string;
  successorId: string;
  type?: DependencyType | null;
  /** Working minutes in the successor's calendar; negative = lead. */
  lagMin?: number | null;
  /** The lag is elapsed time: `lagMin` counts clock minutes on the wall clock of the successor calendar's zone. */
  lagElapsed?: boolean | null;
}

export interface ScheduleInput {
  project: ProjectInput;
  calendars?: readonly CalendarInput[] | null;
  tasks: readonly TaskInput[];
  dependencies?: readonly DependencyInput[] | null;
}

/** Computed values of one task. */
export interface TaskResult {
  id: string;
  startAt: string;
  finishAt: string;
  earlyStartAt: string;
  earlyFinishAt: string;
  lateStartAt: string;
  lateFinishAt: string;
  totalFloatMin: number;
  freeFloatMin: number;
  isCritical: boolean;
  /** Duration used for the dates (summaries: rolled up working time start→finish). */
  durationMin: number;
  isSummary: boolean;
  isMilestone: boolean;
  /** PERT expected duration when both optimistic and pessimistic values are given. */
  pertDurationMin: number | null;
  /** Summaries: Σ actual ÷ Σ duration of their leaves; leaves: their own value. */
  progressPct: number;
  /** Summaries: the earliest actual start of their leaves (null when none started); leaves: their own. */
  actualStartAt: string | null;
  /** Summaries: the latest actual finish of their leaves once all are complete, else null; leaves: their own. */
  actualFinishAt: string | null;
}

export type ConflictKind = 'constraint_vs_link' | 'deadline_missed' | 'manual_vs_link' | 'before_project_start';

export interface Conflict {
  kind: ConflictKind;
  taskId: string;
  dependencyId?: string;
  message: string;
  /** The date the links (or project start) require, when relevant. */
  requiredStartAt?: string;
  /** The task's scheduled start/finish. */
  startAt?: string;
  finishAt?: string;
  /** The deadline or constraint date involved. */
  deadline?: string;
  constraintDate?: string;
}

export interface CycleReport {
  /** e.g. `"WEB-3 → WEB-7 → WEB-3"` (task `key`, else name, else id). */
  path: string;
  taskIds: string[];
  taskNames: string[];
}

export interface ScheduleStats {
  taskCount: number;
  /** Tasks whose values the engine recalculated in this run. */
  recomputedCount: number;
}

export interface ScheduleResult {
  /** One entry per input task, sorted by `id`. */
  tasks: TaskResult[];
  conflicts: Conflict[];
  cycles: CycleReport[];
  projectStartAt: string | null;
  projectFinishAt: string | null;
  stats: ScheduleStats;
  /**
   * Ids (sorted) of tasks whose computed values differ from the previous result given to
   * the run (all tasks when there was none).
   */
  changedTaskIds: string[];
}

/** What `levelResources` levels, and how. */
export interface LevelingOptions {
  /** The resources to level (ids as the assignments name them); every assigned resource when omitted. */
  resourceIds?: readonly string[] | null;
  /** Each resource's capacity in percent (100 = one full-time resource): 100 for a resource not listed. */
  capacityPct?: Readonly<Record<string, number>> | null;
  /**
   * Task ids in the order that decides between tasks of the same early start and total
   * float (a plan's task numbers, as Microsoft Project's ID); tasks not listed come after
   * them, in id order.
   */
  tieOrder?: readonly string[] | null;
}

/** A task whose leveling delay leveling changes, in working minutes of the task's calendar (clock minutes for an elapsed duration). */
export interface LevelingDelayChange {
  taskId: string;
  fromMin: number;
  toMin: number;
}

/**
 * Why a resource stays over its capacity after leveling: a task needs more of it by itself
 * (`demand_exceeds_capacity`, e.g. 200 % of a 100 % resource), tasks leveling may not move
 * overlap (`fixed_tasks`: manually scheduled, started, with a date constraint or as late
 * as possible), or the rounds of leveling and scheduling ran out (`not_converged`).
 */
export type OverallocationReason = 'demand_exceeds_capacity' | 'fixed_tasks' | 'not_converged';

/** A span during which a resource is assigned beyond its capacity. */
export interface Overallocation {
  resourceId: string;
  startAt: string;
  finishAt: string;
  /** The most units assigned at once in the span, in percent. */
  peakUnitsPct: number;
  capacityPct: number;
  /** The tasks assigned to the resource during the span, sorted. */
  taskIds: string[];
  reason: OverallocationReason;
}

export interface LevelingResult {
  /** The tasks whose leveling delay changes, sorted by task id. */
  delays: LevelingDelayChange[];
  /** What leveling could not resolve, by resource id and then start. */
  overallocations: Overallocation[];
  /** The plan scheduled with the new delays. */
  schedule: ScheduleResult;
  /** Rounds of leveling and rescheduling until the delays were stable. */
  rounds: number;
}
