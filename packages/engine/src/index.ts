/** @gantry/engine — pure CPM scheduling compatible with Microsoft Project. See README.md. */
export const ENGINE_VERSION = '0.1.0';

export { schedule, type ScheduleOptions } from './schedule.js';
export { Scheduler, type ScheduleChanges } from './scheduler.js';
export { findCycles } from './cycles.js';
export { WorkCalendar, STANDARD_CALENDAR, SCHEDULE_HORIZON, clockCalendar, compileCalendars, createCalendar } from './calendar.js';
export { toEpochMinutes, toIsoString, TimeZone } from './instant.js';
export { pertExpectedDuration } from './pert.js';
export { hasDurationRange, pertSample, seededRandom, simulateFinishes } from './forecast.js';
export { levelResources } from './leveling.js';
export { applyTaskEdit, type EffortState, type TaskEdit } from './task-type.js';
export { applyProgressEdit, type ProgressState, type ProgressEdit } from './progress.js';
export {
  calendarInput,
  dayStart,
  dependencyInput,
  planScheduleInput,
  projectInput,
  taskInput,
  type ManualDates,
  type PlanAssignmentView,
  type PlanCalendarView,
  type PlanDependencyView,
  type PlanProjectView,
  type PlanTaskView,
  type PlanView,
} from './plan-input.js';
export type * from './types.js';
