import { limits, type ImportReport, type ImportReportItem, type ImportSubject } from '@gantry/contract';
import { invalid } from '../../errors.js';
import type {
  DocumentAssignment,
  DocumentBaseline,
  DocumentCalendar,
  DocumentDependency,
  DocumentInterval,
  DocumentResource,
  DocumentTask,
  PlanDocument,
} from '../plan-document.js';
import { documentTask } from '../plan-document.js';
import {
  CONSTRAINT_KINDS,
  ELAPSED_FORMATS,
  LINK_TYPES,
  MSPDI_NAMESPACE,
  PERCENT_FORMATS,
  STANDARD_DAY,
  TASK_TYPES,
  UNASSIGNED_RESOURCE_UID,
} from './codes.js';
import { isReadableRecurrence, recurrenceRanges, weeklyOn, type Recurrence } from './recurrence.js';
import { child, children, flag, numberOf, parseXml, text, type XmlElement } from './xml.js';

/**
 * Reads a Microsoft Project XML (MSPDI) file into a plan document, with what it left out
 * or changed. The file's wall-clock times (MSPDI has no zones) become UTC instants on
 * calendars in UTC. Throws `invalid` (path `data`) for anything that is not a readable
 * MSPDI file within the import limits.
 */
export function readMspdi(xml: string): { document: PlanDocument; report: ImportReport } {
  const project = parseXml(xml);
  if (project.name !== 'Project' || project.namespace !== MSPDI_NAMESPACE) {
    throw invalid([{ path: 'data', message: `not a Microsoft Project XML file (a Project element in the namespace ${MSPDI_NAMESPACE})` }]);
  }
  const taskElements = children(child(project, 'Tasks'), 'Task');
  // The row of UID 0 is the project itself (its summary), not one of its tasks.
  if (taskElements.filter((task) => text(task, 'UID') !== '0').length > limits.importTasksMax) {
    throw invalid([{ path: 'data', message: `the file holds more than ${limits.importTasksMax} tasks` }]);
  }
  return new MspdiReader(project).read(taskElements);
}

type Row = { ref: string | null; name: string | null } | null;

/** Findings aggregated by kind: one item per message, with its first row and a count. */
class Findings {
  private readonly items = new Map<string, ImportReportItem & { list: keyof ImportReport }>();

  dropped(subject: ImportSubject, row: Row, message: string): void {
    this.add('dropped', subject, row, message);
  }

  approximated(subject: ImportSubject, row: Row, message: string): void {
    this.add('approximated', subject, row, message);
  }

  report(): ImportReport {
    const report: ImportReport = { dropped: [], approximated: [] };
    for (const { list, ...item } of this.items.values()) report[list].push(item);
    return report;
  }

  private add(list: keyof ImportReport, subject: ImportSubject, row: Row, message: string): void {
    const key = `${list}\u0000${subject}\u0000${message}`;
    const item = this.items.get(key);
    if (item) item.count++;
    else this.items.set(key, { list, subject, ref: row?.ref ?? null, name: row?.name ?? null, message, count: 1 });
  }
}

/** A calendar's exceptions as read, up to the limit a calendar holds; what is beyond it is reported, not kept. */
class ExceptionList {
  readonly list: DocumentCalendar['exceptions'] = [];

  /** `reader`: the calendar's, which reports what is not kept. */
  constructor(readonly reader: RowReader) {}

  /** False once the calendar is full (the exception is then reported as dropped). */
  add(exception: DocumentCalendar['exceptions'][number]): boolean {
    if (this.list.length >= limits.calendarExceptionsMax) {
      this.reader.dropped(`days off and special working days beyond ${limits.calendarExceptionsMax} exceptions per calendar are not kept`);
      return false;
    }
    this.list.push(exception);
    return true;
  }

  addAll(exceptions: DocumentCalendar['exceptions']): void {
    for (const exception of exceptions) if (!this.add(exception)) return;
  }
}

/** The days a plan's calendars may hold (the years of the dates the API accepts). */
const FIRST_ACCEPTED_DAY = `${limits.dateYearMin}-01-01`;
const LAST_ACCEPTED_DAY = `${limits.dateYearMax}-12-31`;
const OUTSIDE_ACCEPTED_YEARS = `days of calendar exceptions and work weeks outside the years ${limits.dateYearMin}-${limits.dateYearMax} are not kept`;

const ISO_DURATION = /^(-)?P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;
const WALL_CLOCK = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?/;

/** A wall-clock time of the file as the UTC instant the document uses. */
function instant(value: string | null): string | null {
  const match = value === null ? null : WALL_CLOCK.exec(value);
  return match ? `${match[1]}T${match[2]}${match[3] ?? ':00'}Z` : null;
}

/** `HH:MM:SS` as `HH:MM`; a working time ending at midnight ends at `24:00`. */
function clock(value: string | null, isEnd: boolean): string | null {
  if (value === null || !/^\d{2}:\d{2}/.test(value)) return null;
  const time = value.slice(0, 5);
  return isEnd && time === '00:00' ? '24:00' : time;
}

/** `text` cut to `max` characters, without leaving half of a surrogate pair at the end. */
function shortened(text: string, max: number): string {
  const cut = text.slice(0, max);
  return cut.isWellFormed() ? cut : cut.slice(0, -1);
}

/**
 * Reads the values of one row of the file (the project, a calendar, a task, a link, …) so
 * that none is changed in silence: a value that is not readable is left out and reported
 * as dropped, one beyond what the plan holds is kept at the nearest value it does and
 * reported as approximated.
 */
class RowReader {
  constructor(
    private readonly findings: Findings,
    private readonly subject: ImportSubject,
    readonly row: Row,
  ) {}

  dropped(message: string): void {
    this.findings.dropped(this.subject, this.row, message);
  }

  approximated(message: string): void {
    this.findings.approximated(this.subject, this.row, message);
  }

  /** The number `name` of `element`, or null when it is missing or not a number. */
  number(element: XmlElement, name: string): number | null {
    const value = text(element, name);
    if (value === null) return null;
    const parsed = Number(value);
    if (Number.isFinite(parsed)) return parsed;
    this.dropped(`${name} values that are not numbers are not kept`);
    return null;
  }

  /** The wall-clock time `name` of `element` as the UTC instant the document uses, or null when it is missing or not readable. */
  instant(element: XmlElement, name: string): string | null {
    const value = text(element, name);
    const read = instant(value);
    if (value !== null && read === null) this.dropped(`${name} values that are not dates and times are not kept`);
    return read;
  }

  /** What the code `name` of `element` stands for; an unknown code reads as `fallback` does. */
  code<T>(element: XmlElement, name: string, codes: readonly T[], fallback: number, fallbackName: string): T {
    const code = this.number(element, name) ?? fallback;
    const known = Number.isInteger(code) ? codes[code] : undefined;
    if (known !== undefined) return known;
    this.approximated(`unknown ${name} codes are read as ${fallbackName}`);
    return codes[fallback]!;
  }

  /** `value` of `what` (its plural, as the report says it) within `min..max`. */
  within(what: string, value: number, min: number, max: number): number {
    const kept = Math.min(max, Math.max(min, value));
    if (kept !== value) this.approximated(`${what} outside ${min}..${max} are kept at the nearest of the two`);
    return kept;
  }

  /** `value` of `what` (its plural) at `min` or more. */
  atLeast(what: string, value: number, min: number): number {
    if (value >= min) return value;
    this.approximated(`${what} below ${min} are read as ${min}`);
    return min;
  }
}

class MspdiReader {
  private readonly findings = new Findings();
  private readonly minutesPerDay: number;
  /** Days looked at to spread recurring exceptions and work weeks over their periods, in the whole file. */
  private calendarDays = 0;
  private readonly projectRow = new RowReader(this.findings, 'project', null);

  constructor(private readonly project: XmlElement) {
    this.minutesPerDay = this.projectRow.within('MinutesPerDay values', this.projectRow.number(project, 'MinutesPerDay') ?? 480, 1, 1440);
  }

  read(taskElements: readonly XmlElement[]): { document: PlanDocument; report: ImportReport } {
    const project = this.project;
    this.reportUnsupportedProjectFields();
    const calendars = this.readCalendars(taskElements);
    const calendarRefs = new Set(calendars.map((calendar) => calendar.ref));
    const tasks = this.readTasks(taskElements, calendarRefs);
    const tasksByRef = new Map(tasks.map((task) => [task.ref, task]));
    const resources = this.readResources();
    const scheduleFrom = text(project, 'ScheduleFromStart') === '0' ? 'backward' : 'forward';
    const projectCalendar = text(project, 'CalendarUID');
    const document: PlanDocument = {
      name: this.limitName('project', null, text(project, 'Title')?.trim() || text(project, 'Name')?.trim() || 'Imported plan'),
      description: null,
      startDate: this.projectRow.instant(project, 'StartDate')?.slice(0, 10) ?? new Date(0).toISOString().slice(0, 10),
      scheduleFrom,
      deadline: scheduleFrom === 'backward' ? (this.projectRow.instant(project, 'FinishDate')?.slice(0, 10) ?? null) : null,
      currency: text(project, 'CurrencyCode') ?? 'USD',
      calendarRef: projectCalendar !== null && calendarRefs.has(projectCalendar) ? projectCalendar : null,
      calendars,
      resources,
      tasks,
      dependencies: this.readDependencies(taskElements, tasksByRef),
      assignments: this.readAssignments(tasksByRef, new Set(resources.map((resource) => resource.ref))),
      baselines: this.readBaselines(taskElements, tasksByRef),
    };
    return { document, report: this.findings.report() };
  }

  private reportUnsupportedProjectFields(): void {
    const project = this.project;
    if (children(child(project, 'ExtendedAttributes'), 'ExtendedAttribute').length > 0) {
      this.findings.dropped('project', null, 'custom fields (extended attributes) are not kept');
    }
    if ((child(project, 'OutlineCodes')?.children?.size ?? 0) > 0) this.findings.dropped('project', null, 'outline codes are not kept');
  }

  /** Microsoft Project lets a task have no name; a Gantry task has one: its row number in the file. */
  private unnamedTask(element: XmlElement, ref: string): string {
    const name = `Task ${text(element, 'ID') ?? ref}`;
    this.findings.approximated('task', { ref, name: null }, 'tasks without a name are named "Task" and their row number (ID)');
    return name;
  }

  private limitName(subject: ImportSubject, ref: string | null, name: string): string {
    if (name.length <= limits.nameMaxLength) return name;
    this.findings.approximated(subject, { ref, name }, `names longer than ${limits.nameMaxLength} characters are shortened`);
    return shortened(name, limits.nameMaxLength);
  }

  /**
   * The duration `name` of `element` in working minutes (0 when missing or not readable);
   * with `formatName`, an elapsed one counts an elapsed day as a working day.
   */
  private minutes(reader: RowReader, element: XmlElement, name: string, formatName: string | null): number {
    const value = text(element, name);
    const match = value === null ? null : ISO_DURATION.exec(value);
    if (!match) {
      if (value !== null) reader.dropped(`${name} values that are not durations are not kept`);
      return 0;
    }
    const [, negative, days, hours, minutes, seconds] = match;
    const total = Number(days ?? 0) * this.minutesPerDay + Number(hours ?? 0) * 60 + Number(minutes ?? 0) + Number(seconds ?? 0) / 60;
    const signed = negative ? -total : total;
    const format = formatName === null ? null : reader.number(element, formatName);
    if (format !== null && ELAPSED_FORMATS.has(format) && signed !== 0) {
      reader.approximated('elapsed durations become working time (an elapsed day is a working day)');
      return Math.round((signed / 1440) * this.minutesPerDay);
    }
    return Math.round(signed);
  }

  private readCalendars(taskElements: readonly XmlElement[]): DocumentCalendar[] {
    const elements = children(child(this.project, 'Calendars'), 'Calendar');
    const byUid = new Map(elements.flatMap((element) => (text(element, 'UID') === null ? [] : [[text(element, 'UID')!, element] as const])));
    const kept = new Set<string>();
    const keep = (uid: string | null): void => {
      for (let current = uid; current !== null && byUid.has(current) && !kept.has(current); ) {
        kept.add(current);
        current = text(byUid.get(current)!, 'BaseCalendarUID');
      }
    };
    for (const [uid, element] of byUid) if (flag(element, 'IsBaseCalendar')) keep(uid);
    keep(text(this.project, 'CalendarUID'));
    for (const task of taskElements) keep(text(task, 'CalendarUID'));
    const calendars: DocumentCalendar[] = [];
    for (const [uid, element] of byUid) {
      const row = { ref: uid, name: text(element, 'Name') };
      if (kept.has(uid)) calendars.push(this.readCalendar(uid, element, kept));
      else this.findings.dropped('calendar', row, 'resource calendars are not kept: resources work on the project calendar');
    }
    return calendars;
  }

  private readCalendar(uid: string, element: XmlElement, kept: ReadonlySet<string>): DocumentCalendar {
    const name = this.limitName('calendar', uid, text(element, 'Name') ?? `Calendar ${uid}`);
    const row = { ref: uid, name };
    const reader = new RowReader(this.findings, 'calendar', row);
    const weekly: (DocumentInterval[] | null)[] = [null, null, null, null, null, null, null];
    const legacyExceptions: DocumentCalendar['exceptions'] = [];
    for (const weekDay of children(child(element, 'WeekDays'), 'WeekDay')) {
      const dayType = this.dayType(reader, weekDay, 0);
      if (dayType !== null && dayType >= 1) weekly[dayType - 1] = this.dayIntervals(reader, weekDay);
      if (dayType !== 0) continue;
      // Days of type 0 are exceptions in the form of Project 2003 and before.
      const period = child(weekDay, 'TimePeriod');
      const range = period === null ? null : this.dateRange(period);
      const kept = range && this.inAcceptedYears(reader, range);
      if (kept) legacyExceptions.push({ name: null, ...kept, intervals: this.dayIntervals(reader, weekDay) });
      else if (!range) reader.dropped('calendar exceptions without a readable period or recurrence are not kept');
    }
    const exceptionElements = children(child(element, 'Exceptions'), 'Exception');
    const exceptions = new ExceptionList(reader);
    if (exceptionElements.length === 0) exceptions.addAll(legacyExceptions);
    for (const exception of exceptionElements) this.readException(exception, exceptions);
    // Project's order of precedence: a day's exception, then the work week holding it, then the default week.
    for (const workWeek of children(child(element, 'WorkWeeks'), 'WorkWeek')) this.readWorkWeek(workWeek, exceptions);
    const base = text(element, 'BaseCalendarUID');
    return { ref: uid, name, timeZone: 'UTC', weekly, exceptions: exceptions.list, baseRef: base !== null && kept.has(base) && base !== uid ? base : null };
  }

  /** `DayType` of a week day: 1..7 Sunday..Saturday, or `lowest` (0 where an exception may be written as a week day); null when it is none of them (reported). */
  private dayType(reader: RowReader, weekDay: XmlElement, lowest: number): number | null {
    const dayType = reader.number(weekDay, 'DayType');
    if (dayType !== null && Number.isInteger(dayType) && dayType >= lowest && dayType <= 7) return dayType;
    reader.dropped('week days with an unknown DayType are not kept');
    return null;
  }

  /** A one-off exception as one range; a recurring one as the days it falls on (runs of consecutive days as one range). */
  private readException(exception: XmlElement, exceptions: ExceptionList): void {
    const period = child(exception, 'TimePeriod');
    const range = period === null ? null : this.dateRange(period);
    const rule: Recurrence | null = range && {
      ...range,
      type: numberOf(exception, 'Type') ?? 1,
      every: numberOf(exception, 'Period') ?? 1,
      daysOfWeek: numberOf(exception, 'DaysOfWeek'),
      monthDay: numberOf(exception, 'MonthDay'),
      month: numberOf(exception, 'Month'),
      monthItem: numberOf(exception, 'MonthItem'),
      monthPosition: numberOf(exception, 'MonthPosition'),
    };
    if (rule === null || !isReadableRecurrence(rule)) {
      exceptions.reader.dropped('calendar exceptions without a readable period or recurrence are not kept');
      return;
    }
    const name = this.exceptionName(exception, exceptions);
    const intervals = this.dayIntervals(exceptions.reader, exception);
    for (const days of this.rangesInAcceptedYears(rule, exceptions.reader)) {
      if (!exceptions.add({ name, ...days, intervals })) return;
    }
  }

  /**
   * The days of a recurrence in the years the API accepts, as ranges: its period ends
   * within them before its days are found (so no day after them costs any work), and what
   * falls before them is left out; either is reported.
   */
  private *rangesInAcceptedYears(rule: Recurrence, reader: RowReader): Generator<{ from: string; to: string }> {
    const bounded = { ...rule, to: rule.to > LAST_ACCEPTED_DAY ? LAST_ACCEPTED_DAY : rule.to };
    if (bounded.to !== rule.to) reader.dropped(OUTSIDE_ACCEPTED_YEARS);
    if (bounded.from > bounded.to) return;
    for (const range of recurrenceRanges(bounded, this.dayBudget(reader.row))) {
      const kept = this.inAcceptedYears(reader, range);
      if (kept) yield kept;
    }
  }

  /** The days of `range` in the years the API accepts (those outside reported), or null when none is. */
  private inAcceptedYears(reader: RowReader, range: { from: string; to: string }): { from: string; to: string } | null {
    if (range.from >= FIRST_ACCEPTED_DAY && range.to <= LAST_ACCEPTED_DAY) return range;
    reader.dropped(OUTSIDE_ACCEPTED_YEARS);
    const kept = { from: range.from < FIRST_ACCEPTED_DAY ? FIRST_ACCEPTED_DAY : range.from, to: range.to > LAST_ACCEPTED_DAY ? LAST_ACCEPTED_DAY : range.to };
    return kept.from <= kept.to ? kept : null;
  }

  /**
   * What spreading a recurrence over its period may cost, for the whole file: each day
   * looked at counts, and a file that needs more than Microsoft Project's files ever do is
   * refused rather than read for minutes.
   */
  private dayBudget(row: Row): () => void {
    return () => {
      if (++this.calendarDays <= limits.importCalendarDaysMax) return;
      throw invalid([
        {
          path: 'data',
          message: `the recurring calendar exceptions and work weeks of the file fall on more than ${limits.importCalendarDaysMax} days in all (the limit was reached in the calendar "${row?.name}", UID ${row?.ref})`,
        },
      ]);
    };
  }

  /**
   * A work week (a period with working times of its own for some weekdays) as exceptions on
   * the days of its period that it sets: its days with the same working times recur weekly,
   * so each run of them is one range.
   */
  private readWorkWeek(workWeek: XmlElement, exceptions: ExceptionList): void {
    const period = child(workWeek, 'TimePeriod');
    const range = period === null ? null : this.dateRange(period);
    if (range === null) {
      exceptions.reader.dropped('work weeks without a readable period are not kept');
      return;
    }
    const weekdaysByIntervals = new Map<string, { intervals: DocumentInterval[]; daysOfWeek: number }>();
    for (const weekDay of children(child(workWeek, 'WeekDays'), 'WeekDay')) {
      const dayType = this.dayType(exceptions.reader, weekDay, 1);
      if (dayType === null) continue;
      const intervals = this.dayIntervals(exceptions.reader, weekDay);
      const key = JSON.stringify(intervals);
      const group = weekdaysByIntervals.get(key) ?? { intervals, daysOfWeek: 0 };
      group.daysOfWeek |= 1 << (dayType - 1);
      weekdaysByIntervals.set(key, group);
    }
    const name = this.exceptionName(workWeek, exceptions);
    for (const { intervals, daysOfWeek } of weekdaysByIntervals.values()) {
      for (const days of this.rangesInAcceptedYears(weeklyOn(range, daysOfWeek), exceptions.reader)) {
        if (!exceptions.add({ name, ...days, intervals })) return;
      }
    }
  }

  /** The name of an exception or a work week of a calendar, within the length of a name. */
  private exceptionName(element: XmlElement, exceptions: ExceptionList): string | null {
    const name = text(element, 'Name');
    return name === null ? null : this.limitName('calendar', exceptions.reader.row?.ref ?? null, name);
  }

  private dateRange(period: XmlElement): { from: string; to: string } | null {
    const from = instant(text(period, 'FromDate'))?.slice(0, 10);
    const to = instant(text(period, 'ToDate'))?.slice(0, 10);
    return from && to && from <= to ? { from, to } : null;
  }

  /** The working intervals of a week day or an exception; a working day without times has the Standard day's. */
  private dayIntervals(reader: RowReader, element: XmlElement): DocumentInterval[] {
    if (!flag(element, 'DayWorking')) return [];
    const intervals: DocumentInterval[] = [];
    for (const time of children(child(element, 'WorkingTimes'), 'WorkingTime')) {
      const from = clock(text(time, 'FromTime'), false);
      const to = clock(text(time, 'ToTime'), true);
      if (from !== null && to !== null && from < to) intervals.push([from, to]);
      else reader.dropped('working times that are not readable or do not end after they start are not kept (a working day left without any has the Standard day)');
    }
    return intervals.length > 0 ? intervals : STANDARD_DAY.map(([from, to]): DocumentInterval => [from, to]);
  }

  private readTasks(elements: readonly XmlElement[], calendarRefs: ReadonlySet<string>): DocumentTask[] {
    const tasks: DocumentTask[] = [];
    const open: { level: number; ref: string }[] = [];
    const refs = new Set<string>();
    for (const element of elements) {
      const ref = text(element, 'UID');
      const name = text(element, 'Name');
      const row = { ref, name };
      // UID 0 is the project summary row: the project itself.
      if (ref === '0') continue;
      if (flag(element, 'IsNull')) {
        this.findings.dropped('task', row, 'blank rows are not kept');
        continue;
      }
      if (ref === null || refs.has(ref)) {
        this.findings.dropped('task', row, 'tasks without a unique UID are not kept');
        continue;
      }
      refs.add(ref);
      const level = numberOf(element, 'OutlineLevel') ?? (text(element, 'OutlineNumber') ?? '1').split('.').length;
      while (open.length > 0 && open.at(-1)!.level >= level) open.pop();
      const parentRef = open.at(-1)?.ref ?? null;
      open.push({ level, ref });
      tasks.push(this.readTask(element, ref, parentRef, calendarRefs));
    }
    const parents = new Set(tasks.map((task) => task.parentRef));
    for (const task of tasks) if (parents.has(task.ref)) task.type = 'summary';
    return tasks;
  }

  private readTask(element: XmlElement, ref: string, parentRef: string | null, calendarRefs: ReadonlySet<string>): DocumentTask {
    const name = this.limitName('task', ref, text(element, 'Name')?.trim() || this.unnamedTask(element, ref));
    const row = { ref, name };
    const reader = new RowReader(this.findings, 'task', row);
    this.reportUnsupportedTaskFields(element, row);
    const constraintKind = reader.code(element, 'ConstraintType', CONSTRAINT_KINDS, 0, 'As Soon As Possible');
    const calendarUid = text(element, 'CalendarUID');
    if (calendarUid !== null && calendarUid !== '-1' && !calendarRefs.has(calendarUid)) {
      this.findings.dropped('task', row, 'task calendars missing from the file are not kept: those tasks use the project calendar');
    }
    const manual = flag(element, 'Manual');
    const work = reader.atLeast('Work values', this.minutes(reader, element, 'Work', null), 0);
    const levelingDelayTenths = reader.number(element, 'LevelingDelay') ?? 0;
    const levelingDelayFormat = reader.number(element, 'LevelingDelayFormat');
    let levelingDelayMin = Math.round(levelingDelayTenths / 10);
    if (levelingDelayMin !== 0 && levelingDelayFormat !== null && ELAPSED_FORMATS.has(levelingDelayFormat)) {
      reader.approximated('elapsed leveling delays become working time (an elapsed day is a working day)');
      levelingDelayMin = Math.round((levelingDelayMin / 1440) * this.minutesPerDay);
    }
    return documentTask({
      ref,
      parentRef,
      name,
      type: flag(element, 'Milestone') ? 'milestone' : 'task',
      durationMin: reader.atLeast('Duration values', this.minutes(reader, element, 'Duration', 'DurationFormat'), 0),
      workMin: work > 0 ? work : null,
      progressPct: reader.within('PercentComplete values', reader.number(element, 'PercentComplete') ?? 0, 0, 100),
      constraintKind,
      constraintDate: constraintKind === 'asap' || constraintKind === 'alap' ? null : reader.instant(element, 'ConstraintDate'),
      deadline: reader.instant(element, 'Deadline'),
      calendarRef: calendarUid !== null && calendarRefs.has(calendarUid) ? calendarUid : null,
      costFixed: reader.number(element, 'FixedCost') ?? 0,
      notes: text(element, 'Notes'),
      wbs: text(element, 'WBS'),
      manuallyScheduled: manual,
      manualStartAt: manual ? reader.instant(element, text(element, 'ManualStart') === null ? 'Start' : 'ManualStart') : null,
      manualFinishAt: manual ? reader.instant(element, text(element, 'ManualFinish') === null ? 'Finish' : 'ManualFinish') : null,
      levelingDelayMin,
      taskType: reader.code(element, 'Type', TASK_TYPES, 0, 'fixed units'),
      effortDriven: flag(element, 'EffortDriven'),
      durationEstimated: flag(element, 'Estimated'),
      actualStartAt: reader.instant(element, 'ActualStart'),
      actualFinishAt: reader.instant(element, 'ActualFinish'),
    });
  }

  private reportUnsupportedTaskFields(element: XmlElement, row: Row): void {
    if (children(element, 'ExtendedAttribute').length > 0) this.findings.dropped('task', row, 'custom field values are not kept');
    if (text(element, 'Hyperlink') !== null || text(element, 'HyperlinkAddress') !== null) this.findings.dropped('task', row, 'hyperlinks are not kept');
    if (flag(element, 'Recurring')) this.findings.approximated('task', row, 'recurring tasks become a summary task with their occurrences as plain tasks');
    if (flag(element, 'IsSubproject') || text(element, 'SubprojectName') !== null) this.findings.dropped('task', row, 'links to subproject files are not kept');
  }

  private readDependencies(elements: readonly XmlElement[], tasksByRef: ReadonlyMap<string, DocumentTask>): DocumentDependency[] {
    const dependencies: DocumentDependency[] = [];
    const seen = new Set<string>();
    for (const element of elements) {
      const successor = tasksByRef.get(text(element, 'UID') ?? '');
      if (!successor) continue;
      for (const link of children(element, 'PredecessorLink')) {
        const predecessorRef = text(link, 'PredecessorUID') ?? '';
        const row = { ref: `${predecessorRef}->${successor.ref}`, name: successor.name };
        const predecessor = tasksByRef.get(predecessorRef);
        if (flag(link, 'CrossProject')) {
          this.findings.dropped('dependency', row, 'links to tasks of other projects are not kept');
          continue;
        }
        const key = `${predecessorRef}\u0000${successor.ref}`;
        if (!predecessor || predecessor === successor || seen.has(key)) {
          this.findings.dropped('dependency', row, 'links to tasks missing from the file, to the task itself, or repeated, are not kept');
          continue;
        }
        seen.add(key);
        const reader = new RowReader(this.findings, 'dependency', row);
        dependencies.push({
          predecessorRef,
          successorRef: successor.ref,
          type: reader.code(link, 'Type', LINK_TYPES, 1, 'finish-to-start'),
          lagMin: this.lagMinutes(reader, link, predecessor),
        });
      }
    }
    return dependencies;
  }

  /** `LinkLag` is in tenths of a minute, or a percentage of the predecessor's duration for percentage formats. */
  private lagMinutes(reader: RowReader, link: XmlElement, predecessor: DocumentTask): number {
    const lag = reader.number(link, 'LinkLag') ?? 0;
    const format = reader.number(link, 'LagFormat');
    if (lag === 0 || format === null) return Math.round(lag / 10);
    if (PERCENT_FORMATS.has(format)) {
      reader.approximated("percentage lags become minutes of the predecessor's duration in the file");
      return Math.round((predecessor.durationMin * lag) / 100);
    }
    if (ELAPSED_FORMATS.has(format)) {
      reader.approximated('elapsed lags become working time (an elapsed day is a working day)');
      return Math.round((lag / 10 / 1440) * this.minutesPerDay);
    }
    return Math.round(lag / 10);
  }

  private readResources(): DocumentResource[] {
    const resources: DocumentResource[] = [];
    for (const element of children(child(this.project, 'Resources'), 'Resource')) {
      const ref = text(element, 'UID');
      const name = text(element, 'Name');
      const row = { ref, name };
      // UID 0 is Microsoft Project's placeholder resource; blank rows have no name.
      if (ref === null || ref === '0' || name === null || flag(element, 'IsNull')) continue;
      const type = text(element, 'Type');
      if (type === '0' || type === '2' || flag(element, 'IsCostResource')) {
        this.findings.dropped('resource', row, 'material and cost resources are not kept');
        continue;
      }
      if ((numberOf(element, 'StandardRate') ?? 0) > 0 || (numberOf(element, 'CostPerUse') ?? 0) > 0) {
        this.findings.dropped('resource', row, 'cost rates are not kept');
      }
      if (children(element, 'ExtendedAttribute').length > 0) this.findings.dropped('resource', row, 'custom field values are not kept');
      resources.push({ ref, name: this.limitName('resource', ref, name), userId: null, maxUnitsPct: this.maxUnitsOf(element, row) });
    }
    return resources;
  }

  /** Max. Units (a fraction, 1 = 100 %) as a whole percent within the limits; one value for all time. */
  private maxUnitsOf(element: XmlElement, row: Row): number {
    const given = Math.round((new RowReader(this.findings, 'resource', row).number(element, 'MaxUnits') ?? 1) * 100);
    const kept = Math.min(Math.max(given, 1), limits.resourceMaxUnitsPct);
    if (kept !== given) this.findings.approximated('resource', row, `Max. Units are kept between 1 % and ${limits.resourceMaxUnitsPct} %`);
    const periods = children(child(element, 'AvailabilityPeriods'), 'AvailabilityPeriod');
    if (periods.some((period) => Math.round((numberOf(period, 'AvailableUnits') ?? 1) * 100) !== given)) {
      this.findings.approximated('resource', row, 'availability that changes over time is not kept: the resource has its Max. Units at all times');
    }
    return kept;
  }

  private readAssignments(tasksByRef: ReadonlyMap<string, DocumentTask>, resourceRefs: ReadonlySet<string>): DocumentAssignment[] {
    const assignments: DocumentAssignment[] = [];
    const seen = new Set<string>();
    for (const element of children(child(this.project, 'Assignments'), 'Assignment')) {
      const taskRef = text(element, 'TaskUID') ?? '';
      const resourceRef = text(element, 'ResourceUID') ?? '';
      if (resourceRef === UNASSIGNED_RESOURCE_UID) continue;
      const task = tasksByRef.get(taskRef);
      const row = { ref: text(element, 'UID'), name: task?.name ?? null };
      const key = `${taskRef}\u0000${resourceRef}`;
      if (!task || !resourceRefs.has(resourceRef) || seen.has(key)) {
        this.findings.dropped('assignment', row, 'assignments of tasks or resources not kept (or repeated) are not kept');
        continue;
      }
      if (task.type === 'summary') {
        this.findings.dropped('assignment', row, 'assignments to summary tasks are not kept');
        continue;
      }
      if ((numberOf(element, 'WorkContour') ?? 0) !== 0) this.findings.approximated('assignment', row, 'work contours become work spread evenly');
      seen.add(key);
      const reader = new RowReader(this.findings, 'assignment', row);
      const unitsPct = Math.round((reader.number(element, 'Units') ?? 1) * 100);
      assignments.push({ taskRef, resourceRef, unitsPct: reader.within('Units (in percent)', unitsPct, 0, limits.resourceMaxUnitsPct) });
    }
    return assignments;
  }

  private readBaselines(elements: readonly XmlElement[], tasksByRef: ReadonlyMap<string, DocumentTask>): DocumentBaseline[] {
    const baselines = new Map<number, DocumentBaseline>();
    for (const element of elements) {
      const task = tasksByRef.get(text(element, 'UID') ?? '');
      if (!task) continue;
      for (const entry of children(element, 'Baseline')) {
        const slot = numberOf(entry, 'Number') ?? 0;
        const row = { ref: task.ref, name: task.name };
        if (!Number.isInteger(slot) || slot < 0 || slot > 10) {
          this.findings.dropped('baseline', row, 'baselines numbered outside 0..10 are not kept');
          continue;
        }
        let baseline = baselines.get(slot);
        if (!baseline) {
          baseline = { name: slot === 0 ? 'Baseline' : `Baseline ${slot}`, slot, tasks: [] };
          baselines.set(slot, baseline);
        }
        const reader = new RowReader(this.findings, 'baseline', row);
        baseline.tasks.push({
          taskRef: task.ref,
          startAt: reader.instant(entry, 'Start'),
          finishAt: reader.instant(entry, 'Finish'),
          durationMin: reader.atLeast('Duration values', this.minutes(reader, entry, 'Duration', 'DurationFormat'), 0),
          workMin: reader.atLeast('Work values', this.minutes(reader, entry, 'Work', null), 0),
          costFixed: reader.number(entry, 'Cost') ?? 0,
        });
      }
    }
    return [...baselines.values()].sort((a, b) => a.slot! - b.slot!);
  }
}
