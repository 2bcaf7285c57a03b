import { createCalendar, planScheduleInput, schedule, STANDARD_CALENDAR, toEpochMinutes, type PlanView, type ScheduleInput, type ScheduleResult } from '@gantry/engine';
import type { PlanDocument } from './plan-document.js';

/**
 * A document in the API's shape, refs as ids. Its tasks have no dates of their own: those
 * it keeps stand for them, so a manually scheduled task stays there.
 */
function documentPlan(document: PlanDocument): PlanView {
  return {
    project: { startDate: document.startDate, deadline: document.deadline, scheduleFrom: document.scheduleFrom, calendarId: document.calendarRef },
    calendars: document.calendars.map(({ ref, baseRef, ...calendar }) => ({ ...calendar, id: ref, baseCalendarId: baseRef })),
    tasks: document.tasks.map((task) => ({
      ...task,
      id: task.ref,
      key: null,
      sortKey: null,
      parentId: task.parentRef,
      calendarId: task.calendarRef,
      startAt: task.manualStartAt,
      finishAt: task.manualFinishAt,
      durationEstimated: task.durationEstimated ?? false,
      actualDurationMin: null,
      remainingDurationMin: null,
    })),
    dependencies: document.dependencies.map((d, index) => ({ id: String(index), predecessorId: d.predecessorRef, successorId: d.successorRef, type: d.type, lagMin: d.lagMin })),
    assignments: document.assignments.map((a) => ({ taskId: a.taskRef, resourceId: a.resourceRef, unitsPct: a.unitsPct })),
  };
}

/** The engine's input for a document as it stands: what a project made from it would be scheduled from. */
export function documentScheduleInput(document: PlanDocument): ScheduleInput {
  return planScheduleInput(documentPlan(document));
}

/** The schedule of a document, computed by the engine alone (nothing stored). */
export function scheduleDocument(document: PlanDocument): ScheduleResult {
  return schedule(documentScheduleInput(document));
}

/**
 * Working days from a document's start to its finish in its project calendar (8-hour
 * days, as durations count them): how long a project made from it runs.
 */
export function documentDurationDays(document: PlanDocument): number {
  const { projectStartAt, projectFinishAt } = scheduleDocument(document);
  if (projectStartAt === null || projectFinishAt === null) return 0;
  const input = documentScheduleInput(document);
  const projectCalendar = input.calendars?.find((c) => c.id === document.calendarRef) ?? STANDARD_CALENDAR;
  const calendar = createCalendar(projectCalendar, input.calendars ?? []);
  const minutes = calendar.workBetween(toEpochMinutes(projectStartAt)!, toEpochMinutes(projectFinishAt)!);
  return Math.round(minutes / 480);
}
