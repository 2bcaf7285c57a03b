import { XMLBuilder } from 'fast-xml-parser';
import { outlineNumbers } from '../outline.js';
import type { DocumentCalendar, DocumentInterval, DocumentTask, PlanDocument } from '../plan-document.js';
import { CONSTRAINT_KINDS, DAYS_FORMAT, ESTIMATED_DAYS_FORMAT, LINK_TYPES, MSPDI_NAMESPACE, STANDARD_WEEK, TASK_TYPES } from './codes.js';

/** Where each task is, by task ref: the computed dates an export writes as `Start` and `Finish`. */
export type TaskSchedule = ReadonlyMap<string, { startAt: string; finishAt: string }>;

type Element = Record<string, unknown>;

/**
 * Writes a plan document as a Microsoft Project XML (MSPDI) file, elements in the order
 * of Microsoft's schema so that Microsoft Project and MPXJ-based tools read it. Instants
 * are written as their UTC wall-clock time (MSPDI has no zones); refs that are distinct
 * positive integers (a file's UIDs) are kept as UIDs, others are numbered.
 */
export function writeMspdi(document: PlanDocument, schedule?: TaskSchedule): string {
  const calendarUids = uidsFor(document.calendars.map((calendar) => calendar.ref));
  const taskUids = uidsFor(document.tasks.map((task) => task.ref));
  const resourceUids = uidsFor(document.resources.map((resource) => resource.ref));
  const calendars = document.calendars.map((calendar) => calendarElement(calendar, calendarUids));
  let projectCalendarUid = document.calendarRef === null ? undefined : calendarUids.get(document.calendarRef);
  if (projectCalendarUid === undefined) {
    projectCalendarUid = Math.max(0, ...calendarUids.values()) + 1;
    calendars.push(calendarElement({ ref: '', name: 'Standard', timeZone: 'UTC', weekly: STANDARD_WEEK, exceptions: [], baseRef: null }, new Map([['', projectCalendarUid]])));
  }
  const project = {
    '@_xmlns': MSPDI_NAMESPACE,
    SaveVersion: 14,
    Name: clean(document.name),
    Title: clean(document.name),
    ScheduleFromStart: document.scheduleFrom === 'backward' ? 0 : 1,
    StartDate: `${document.startDate}T08:00:00`,
    ...(document.deadline !== null ? { FinishDate: `${document.deadline}T17:00:00` } : {}),
    CurrencyCode: clean(document.currency),
    CalendarUID: projectCalendarUid,
    DefaultStartTime: '08:00:00',
    DefaultFinishTime: '17:00:00',
    MinutesPerDay: 480,
    MinutesPerWeek: 2400,
    DaysPerMonth: 20,
    Calendars: { Calendar: calendars },
    Tasks: { Task: tasksElements(document, schedule, taskUids, calendarUids) },
    Resources: {
      Resource: document.resources.map((resource, index) => ({
        UID: resourceUids.get(resource.ref),
        ID: index + 1,
        Name: clean(resource.name),
        Type: 1,
        IsNull: 0,
        MaxUnits: (resource.maxUnitsPct ?? 100) / 100,
      })),
    },
    Assignments: {
      Assignment: document.assignments.map((assignment, index) => ({
        UID: index + 1,
        TaskUID: taskUids.get(assignment.taskRef),
        ResourceUID: resourceUids.get(assignment.resourceRef),
        Units: assignment.unitsPct / 100,
      })),
    },
  };
  const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true, indentBy: '\t', processEntities: true });
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${builder.build({ Project: project }) as string}`;
}

/** UIDs by ref: the refs themselves when they are all distinct positive integers, else 1..n in order. */
function uidsFor(refs: readonly string[]): Map<string, number> {
  const numeric = refs.every((ref) => /^[1-9]\d{0,8}$/.test(ref)) && new Set(refs).size === refs.length;
  return new Map(refs.map((ref, index) => [ref, numeric ? Number(ref) : index + 1]));
}

/** Characters XML 1.0 cannot hold, even escaped: left out of written text. */
function clean(value: string): string {
  return value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '');
}

function wallClock(instant: string): string {
  return new Date(instant).toISOString().slice(0, 19);
}

function duration(minutes: number): string {
  return `PT${Math.trunc(minutes / 60)}H${minutes % 60}M0S`;
}

function workingTimes(intervals: DocumentInterval[]): Element {
  return {
    DayWorking: intervals.length > 0 ? 1 : 0,
    ...(intervals.length > 0
      ? { WorkingTimes: { WorkingTime: intervals.map(([from, to]) => ({ FromTime: `${from}:00`, ToTime: to === '24:00' ? '00:00:00' : `${to}:00` })) } }
      : {}),
  };
}

function calendarElement(calendar: DocumentCalendar, uids: ReadonlyMap<string, number>): Element {
  const baseUid = calendar.baseRef === null ? undefined : uids.get(calendar.baseRef);
  const weekDays = calendar.weekly.flatMap((intervals, day) => (intervals === null ? [] : [{ DayType: day + 1, ...workingTimes(intervals) }]));
  return {
    UID: uids.get(calendar.ref),
    Name: clean(calendar.name),
    IsBaseCalendar: baseUid === undefined ? 1 : 0,
    BaseCalendarUID: baseUid ?? -1,
    WeekDays: { WeekDay: weekDays },
    ...(calendar.exceptions.length > 0
      ? {
          Exceptions: {
            Exception: calendar.exceptions.map((exception) => ({
              EnteredByOccurrences: 0,
              TimePeriod: { FromDate: `${exception.from}T00:00:00`, ToDate: `${exception.to}T23:59:00` },
              Occurrences: 1,
              ...(exception.name !== null ? { Name: clean(exception.name) } : {}),
              Type: 1,
              ...workingTimes(exception.intervals),
            })),
          },
        }
      : {}),
  };
}

function tasksElements(document: PlanDocument, schedule: TaskSchedule | undefined, taskUids: ReadonlyMap<string, number>, calendarUids: ReadonlyMap<string, number>): Element[] {
  const outline = outlineNumbers(document.tasks);
  const predecessors = new Map<string, Element[]>();
  for (const dependency of document.dependencies) {
    const links = predecessors.get(dependency.successorRef) ?? [];
    links.push({
      PredecessorUID: taskUids.get(dependency.predecessorRef),
      Type: LINK_TYPES.indexOf(dependency.type),
      CrossProject: 0,
      LinkLag: dependency.lagMin * 10,
      LagFormat: DAYS_FORMAT,
    });
    predecessors.set(dependency.successorRef, links);
  }
  const baselines = new Map<string, Element[]>();
  const usedSlots = new Set(document.baselines.flatMap((baseline) => (baseline.slot === null ? [] : [baseline.slot])));
  const freeSlots = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].filter((slot) => !usedSlots.has(slot));
  for (const baseline of document.baselines) {
    // Microsoft Project has eleven baselines: those beyond them have no place in the file.
    const slot = baseline.slot ?? freeSlots.shift();
    if (slot === undefined) continue;
    for (const entry of baseline.tasks) {
      const entries = baselines.get(entry.taskRef) ?? [];
      entries.push({
        Number: slot,
        ...(entry.startAt !== null ? { Start: wallClock(entry.startAt) } : {}),
        ...(entry.finishAt !== null ? { Finish: wallClock(entry.finishAt) } : {}),
        Duration: duration(entry.durationMin),
        DurationFormat: DAYS_FORMAT,
        Work: duration(entry.workMin),
        Cost: entry.costFixed,
      });
      baselines.set(entry.taskRef, entries);
    }
  }
  return document.tasks.map((task, index) => {
    const outlineNumber = outline.get(task.ref)!;
    return taskElement(task, {
      uid: taskUids.get(task.ref)!,
      id: index + 1,
      outlineNumber,
      dates: schedule?.get(task.ref) ?? (task.manualStartAt !== null && task.manualFinishAt !== null ? { startAt: task.manualStartAt, finishAt: task.manualFinishAt } : null),
      calendarUid: task.calendarRef === null ? -1 : (calendarUids.get(task.calendarRef) ?? -1),
      predecessorLinks: predecessors.get(task.ref) ?? [],
      baselines: baselines.get(task.ref) ?? [],
    });
  });
}

function taskElement(
  task: DocumentTask,
  row: { uid: number; id: number; outlineNumber: string; dates: { startAt: string; finishAt: string } | null; calendarUid: number; predecessorLinks: Element[]; baselines: Element[] },
): Element {
  const optional = (name: string, value: string | null): Element => (value === null ? {} : { [name]: value });
  const instant = (name: string, value: string | null): Element => optional(name, value === null ? null : wallClock(value));
  return {
    UID: row.uid,
    ID: row.id,
    Name: clean(task.name),
    Manual: task.manuallyScheduled ? 1 : 0,
    Type: Math.max(0, TASK_TYPES.indexOf(task.taskType === 'fixed_duration_and_units' ? 'fixed_duration' : task.taskType)),
    IsNull: 0,
    ...optional('WBS', task.wbs === null ? null : clean(task.wbs)),
    OutlineNumber: row.outlineNumber,
    OutlineLevel: row.outlineNumber.split('.').length,
    Priority: 500,
    ...instant('Start', row.dates?.startAt ?? null),
    ...instant('Finish', row.dates?.finishAt ?? null),
    Duration: duration(task.durationMin),
    ...instant('ManualStart', task.manuallyScheduled ? task.manualStartAt : null),
    ...instant('ManualFinish', task.manuallyScheduled ? task.manualFinishAt : null),
    DurationFormat: task.durationEstimated ? ESTIMATED_DAYS_FORMAT : DAYS_FORMAT,
    Work: duration(task.workMin ?? 0),
    EffortDriven: task.effortDriven ? 1 : 0,
    Estimated: task.durationEstimated ? 1 : 0,
    Milestone: task.type === 'milestone' ? 1 : 0,
    Summary: task.type === 'summary' ? 1 : 0,
    FixedCost: task.costFixed,
    PercentComplete: task.progressPct,
    ...instant('ActualStart', task.actualStartAt),
    ...instant('ActualFinish', task.actualFinishAt),
    ConstraintType: CONSTRAINT_KINDS.indexOf(task.constraintKind),
    CalendarUID: row.calendarUid,
    ...instant('ConstraintDate', task.constraintDate),
    ...instant('Deadline', task.deadline),
    LevelingDelay: task.levelingDelayMin * 10,
    LevelingDelayFormat: DAYS_FORMAT,
    ...optional('Notes', task.notes === null ? null : clean(task.notes)),
    ...(row.predecessorLinks.length > 0 ? { PredecessorLink: row.predecessorLinks } : {}),
    ...(row.baselines.length > 0 ? { Baseline: row.baselines } : {}),
  };
}
