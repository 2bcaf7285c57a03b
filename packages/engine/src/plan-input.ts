import { toEpochMinutes, toIsoString, TimeZone } from './instant.js';
import type { AssignmentInput, CalendarInput, ConstraintKind, DependencyInput, DependencyType, ProjectInput, ScheduleInput, TaskInput, TaskType, WorkInterval } from './types.js';

/**
 * A plan as Gantry's API reads it (`GET /api/projects/{id}`, FullProject), narrowed to what
 * the engine schedules from. The web app holds this shape; the server presents its rows
 * in it, so both give the engine the same input (`planScheduleInput`).
 */
export interface PlanView {
  project: PlanProjectView;
  calendars: readonly PlanCalendarView[];
  tasks: readonly PlanTaskView[];
  dependencies: readonly PlanDependencyView[];
  assignments: readonly PlanAssignmentView[];
}

export interface PlanProjectView {
  /** `YYYY-MM-DD`, in the project calendar's zone. */
  startDate: string;
  deadline: string | null;
  scheduleFrom: 'forward' | 'backward';
  /** The project calendar; null = the built-in Standard calendar in UTC. */
  calendarId: string | null;
}

export interface PlanCalendarView {
  id: string;
  name: string;
  timeZone: string;
  /** The API types a working interval as an array; it holds two times, `["HH:MM", "HH:MM"]`. */
  weekly: readonly (readonly (readonly string[])[] | null)[];
  exceptions: readonly { from: string; to: string; intervals: readonly (readonly string[])[] }[];
  baseCalendarId: string | null;
}

export interface PlanTaskView {
  id: string;
  key: string | null;
  name: string;
  parentId: string | null;
  sortKey: string | null;
  type: 'summary' | 'task' | 'milestone';
  durationMin: number;
  /** The duration is elapsed time (`TaskInput.durationElapsed`); absent = working time. */
  durationElapsed?: boolean;
  workMin: number | null;
  progressPct: number;
  constraintKind: ConstraintKind;
  constraintDate: string | null;
  deadline: string | null;
  calendarId: string | null;
  manuallyScheduled: boolean;
  /** The task's dates as last scheduled: where a manually scheduled task stays, unless `taskInput` is told otherwise. */
  startAt: string | null;
  finishAt: string | null;
  levelingDelayMin: number;
  taskType: TaskType;
  effortDriven: boolean;
  durationEstimated: boolean;
  actualStartAt: string | null;
  actualFinishAt: string | null;
  actualDurationMin: number | null;
  remainingDurationMin: number | null;
  durationOptimisticMin: number | null;
  durationPessimisticMin: number | null;
}

export interface PlanDependencyView {
  id: string;
  predecessorId: string;
  successorId: string;
  type: DependencyType;
  lagMin: number;
  /** The lag is elapsed time (`DependencyInput.lagElapsed`); absent = working time. */
  lagElapsed?: boolean;
}

export interface PlanAssignmentView {
  taskId: string;
  resourceId: string;
  unitsPct: number;
}

/** Where a manually scheduled task stays: a null finish follows its duration from the start. */
export interface ManualDates {
  startAt: string | null;
  finishAt: string | null;
}

/**
 * Midnight of a date where the plan works (`zone`, the project calendar's; UTC for the
 * Standard calendar), as an instant: the engine moves it to the first working minute.
 * A project in Tokyo starting on 2 March starts at 08:00 there, 23:00 UTC on 1 March.
 */
export function dayStart(date: string, zone: TimeZone = TimeZone.named('UTC')): string {
  return toIsoString(zone.toUtc(toEpochMinutes(`${date}T00:00:00.000Z`)!));
}

/** The project's engine input: its dates as instants in the zone of its calendar (`calendarId` among `calendars`). */
export function projectInput(project: PlanProjectView, calendars: readonly Pick<CalendarInput, 'id' | 'timeZone'>[]): ProjectInput {
  const zone = TimeZone.named(calendars.find((calendar) => calendar.id === project.calendarId)?.timeZone ?? 'UTC');
  return {
    startAt: dayStart(project.startDate, zone),
    scheduleFrom: project.scheduleFrom,
    deadline: project.deadline ? dayStart(project.deadline, zone) : null,
    calendarId: project.calendarId,
  };
}

const workInterval = (interval: readonly string[]): WorkInterval => [interval[0]!, interval[1]!];

export function calendarInput(calendar: PlanCalendarView): Required<CalendarInput> {
  return {
    id: calendar.id,
    name: calendar.name,
    timeZone: calendar.timeZone,
    weekly: calendar.weekly.map((day) => day?.map(workInterval) ?? null),
    exceptions: calendar.exceptions.map(({ from, to, intervals }) => ({ from, to, intervals: intervals.map(workInterval) })),
    baseCalendarId: calendar.baseCalendarId,
  };
}

/**
 * A task's engine input, every field the engine takes (a field it gains fails the
 * typecheck here until mapped). A manually scheduled task stays at `manual`: by default the dates
 * it has (all the API tells), while the server passes the dates it pinned, which a later
 * duration edit frees the finish of (docs/scheduling.md, decision 5).
 */
export function taskInput(task: PlanTaskView, assignments: readonly AssignmentInput[], manual: ManualDates = task): Required<TaskInput> {
  return {
    id: task.id,
    key: task.key,
    name: task.name,
    parentId: task.parentId,
    sortKey: task.sortKey,
    type: task.type,
    durationMin: task.durationMin,
    durationElapsed: task.durationElapsed ?? false,
    workMin: task.workMin,
    progressPct: task.progressPct,
    constraintKind: task.constraintKind,
    constraintDate: task.constraintDate,
    deadline: task.deadline,
    calendarId: task.calendarId,
    manuallyScheduled: task.manuallyScheduled,
    manualStartAt: task.manuallyScheduled ? manual.startAt : null,
    manualFinishAt: task.manuallyScheduled ? manual.finishAt : null,
    levelingDelayMin: task.levelingDelayMin,
    taskType: task.taskType,
    effortDriven: task.effortDriven,
    durationEstimated: task.durationEstimated,
    actualStartAt: task.actualStartAt,
    actualFinishAt: task.actualFinishAt,
    actualDurationMin: task.actualDurationMin,
    remainingDurationMin: task.remainingDurationMin,
    durationOptimisticMin: task.durationOptimisticMin,
    durationPessimisticMin: task.durationPessimisticMin,
    assignments,
  };
}

export function dependencyInput(dependency: PlanDependencyView): Required<DependencyInput> {
  return {
    id: dependency.id,
    predecessorId: dependency.predecessorId,
    successorId: dependency.successorId,
    type: dependency.type,
    lagMin: dependency.lagMin,
    lagElapsed: dependency.lagElapsed ?? false,
  };
}

/** Each task's assignments as the engine takes them, by task id. */
function assignmentsByTask(assignments: readonly PlanAssignmentView[]): Map<string, AssignmentInput[]> {
  const byTask = new Map<string, AssignmentInput[]>();
  for (const { taskId, resourceId, unitsPct } of assignments) {
    const ofTask = byTask.get(taskId);
    if (ofTask) ofTask.push({ resourceId, unitsPct });
    else byTask.set(taskId, [{ resourceId, unitsPct }]);
  }
  return byTask;
}

/** The engine's input for a plan as the API reads it: scheduled, it gives the dates the server stored. */
export function planScheduleInput(plan: PlanView): ScheduleInput {
  const assignments = assignmentsByTask(plan.assignments);
  return {
    project: projectInput(plan.project, plan.calendars),
    calendars: plan.calendars.map(calendarInput),
    tasks: plan.tasks.map((task) => taskInput(task, assignments.get(task.id) ?? [])),
    dependencies: plan.dependencies.map(dependencyInput),
  };
}
