import { createCalendar, schedule, STANDARD_CALENDAR, TimeZone, toEpochMinutes, type CalendarInput, type ScheduleInput, type ScheduleResult } from '@gantry/engine';
import { dayStart } from '../planning/plan.js';
import type { DocumentCalendar, PlanDocument } from './plan-document.js';

function calendarInput(calendar: DocumentCalendar): CalendarInput {
  return {
    id: calendar.ref,
    name: calendar.name,
    timeZone: calendar.timeZone,
    weekly: calendar.weekly,
    exceptions: calendar.exceptions.map(({ from, to, intervals }) => ({ from, to, intervals })),
    baseCalendarId: calendar.baseRef,
  };
}

/** The engine's input for a document as it stands, refs as ids: what a project made from it would be scheduled from. */
export function documentScheduleInput(document: PlanDocument): ScheduleInput {
  // Node 20 has no Map.groupBy.
  const assignments = new Map<string, PlanDocument['assignments']>();
  for (const a of document.assignments) assignments.set(a.taskRef, [...(assignments.get(a.taskRef) ?? []), a]);
  const zone = TimeZone.named(document.calendars.find((c) => c.ref === document.calendarRef)?.timeZone ?? 'UTC');
  return {
    project: {
      startAt: dayStart(document.startDate, zone),
      scheduleFrom: document.scheduleFrom,
      deadline: document.deadline ? dayStart(document.deadline, zone) : null,
      calendarId: document.calendarRef,
    },
    calendars: document.calendars.map(calendarInput),
    tasks: document.tasks.map((task) => ({
      ...task,
      id: task.ref,
      parentId: task.parentRef,
      calendarId: task.calendarRef,
      assignments: (assignments.get(task.ref) ?? []).map((a) => ({ resourceId: a.resourceRef, unitsPct: a.unitsPct })),
    })),
    dependencies: document.dependencies.map((d, index) => ({ id: String(index), predecessorId: d.predecessorRef, successorId: d.successorRef, type: d.type, lagMin: d.lagMin })),
  };
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
