import { createCalendar, Scheduler, STANDARD_CALENDAR, toEpochMinutes, toIsoString, type ScheduleChanges, type ScheduleInput, type ScheduleResult, type TaskInput } from '@gantry/engine';
import type { AssignmentRow, DependencyRow, ProjectRow, Queries, ResourceRow, TaskRow } from '../../store/store.js';

/**
 * A project's whole plan, loaded for one write: rows as stored (`original`) and the
 * working copies the write changes (`tasks`, `dependencies`, `assignments`).
 */
export interface Plan {
  project: ProjectRow;
  original: ReadonlyMap<string, TaskRow>;
  tasks: Map<string, TaskRow>;
  originalDependencies: ReadonlyMap<string, DependencyRow>;
  dependencies: Map<string, DependencyRow>;
  resources: Map<string, ResourceRow>;
  /** By task id. */
  assignments: Map<string, AssignmentRow[]>;
  /**
   * The engine's state for this plan as committed, when the plan came from the cache:
   * the next recalculation can then be incremental.
   */
  scheduler?: Scheduler;
}

export async function loadPlan(tx: Queries, project: ProjectRow): Promise<Plan> {
  const [taskRows, dependencyRows, resourceRows, assignmentRows] = await Promise.all([
    tx.tasks.listForProject(project.id),
    tx.tasks.listDependencies(project.id),
    tx.people.listResources(project.id),
    tx.people.listAssignments(project.id),
  ]);
  const assignments = new Map<string, AssignmentRow[]>();
  for (const row of assignmentRows) assignments.set(row.task_id, [...(assignments.get(row.task_id) ?? []), row]);
  return {
    project,
    original: new Map(taskRows.map((row) => [row.id, row])),
    tasks: new Map(taskRows.map((row) => [row.id, { ...row }])),
    originalDependencies: new Map(dependencyRows.map((row) => [row.id, row])),
    dependencies: new Map(dependencyRows.map((row) => [row.id, { ...row }])),
    resources: new Map(resourceRows.map((row) => [row.id, row])),
    assignments,
  };
}

/** Midnight UTC of a date: the engine moves it to the first working minute. */
export function dayStart(date: string): string {
  return `${date}T00:00:00.000Z`;
}

const projectCalendar = createCalendar(STANDARD_CALENDAR);

/** The first working minute on or after a date (project calendar): where a project without tasks starts and ends. */
export function firstWorkingMinute(date: string): string {
  return toIsoString(projectCalendar.nextWorkStart(toEpochMinutes(dayStart(date))!));
}

export function engineTask(row: TaskRow, projectKey: string, assignments: readonly AssignmentRow[] | undefined): TaskInput {
  return {
    id: row.id,
    key: `${projectKey}-${row.number}`,
    name: row.name,
    parentId: row.parent_id,
    sortKey: row.sort_key,
    type: row.type,
    durationMin: row.duration_min,
    workMin: row.work_min,
    progressPct: row.progress_pct,
    constraintKind: row.constraint_kind as TaskInput['constraintKind'],
    constraintDate: row.constraint_date,
    deadline: row.deadline,
    calendarId: row.calendar_id,
    manuallyScheduled: row.manually_scheduled === 1,
    manualStartAt: row.manual_start_at,
    manualFinishAt: row.manual_finish_at,
    levelingDelayMin: row.leveling_delay_min,
    taskType: row.task_type,
    effortDriven: row.effort_driven === 1,
    actualStartAt: row.actual_start_at,
    actualFinishAt: row.actual_finish_at,
    actualDurationMin: row.actual_duration_min,
    remainingDurationMin: row.remaining_duration_min,
    durationOptimisticMin: row.duration_optimistic_min,
    durationPessimisticMin: row.duration_pessimistic_min,
    assignments: assignments?.map((a) => ({ resourceId: a.resource_id, unitsPct: a.units_pct })) ?? [],
  };
}

export function engineInput(plan: Plan): ScheduleInput {
  const { project } = plan;
  return {
    project: {
      startAt: dayStart(project.start_date),
      scheduleFrom: project.schedule_from,
      deadline: project.deadline ? dayStart(project.deadline) : null,
      calendarId: project.calendar_id,
    },
    tasks: [...plan.tasks.values()].map((row) => engineTask(row, project.key, plan.assignments.get(row.id))),
    dependencies: [...plan.dependencies.values()].map((row) => ({
      id: row.id,
      predecessorId: row.predecessor_id,
      successorId: row.successor_id,
      type: row.type,
      lagMin: row.lag_min,
    })),
  };
}

/** The computed columns of a task row: what a recalculation may change. */
export const computedColumns = [
  'start_at',
  'finish_at',
  'early_start_at',
  'early_finish_at',
  'late_start_at',
  'late_finish_at',
  'total_float_min',
  'free_float_min',
  'is_critical',
] as const satisfies readonly (keyof TaskRow)[];

/**
 * Runs the engine over the plan and writes the computed values into its working rows.
 * With the committed engine state and the list of what changed, only the affected part is
 * recomputed (the engine falls back to a full run for changes of the network's shape);
 * otherwise everything is. Either way the result is the same.
 */
export function recalculate(plan: Plan, changes?: ScheduleChanges): ScheduleResult {
  const input = engineInput(plan);
  let result: ScheduleResult;
  if (plan.scheduler && changes) {
    result = plan.scheduler.update(input, changes);
  } else {
    plan.scheduler = new Scheduler(input);
    result = plan.scheduler.current;
  }
  for (const computed of result.tasks) {
    const row = plan.tasks.get(computed.id);
    if (!row) continue;
    row.start_at = computed.startAt;
    row.finish_at = computed.finishAt;
    row.early_start_at = computed.earlyStartAt;
    row.early_finish_at = computed.earlyFinishAt;
    row.late_start_at = computed.lateStartAt;
    row.late_finish_at = computed.lateFinishAt;
    row.total_float_min = computed.totalFloatMin;
    row.free_float_min = computed.freeFloatMin;
    row.is_critical = computed.isCritical ? 1 : 0;
    if (computed.isSummary) {
      row.duration_min = computed.durationMin;
      row.progress_pct = computed.progressPct;
    }
  }
  return result;
}

/** Columns of `after` that differ from `before`. */
export function changedColumns(before: TaskRow, after: TaskRow): (keyof TaskRow)[] {
  return (Object.keys(after) as (keyof TaskRow)[]).filter((column) => before[column] !== after[column]);
}
