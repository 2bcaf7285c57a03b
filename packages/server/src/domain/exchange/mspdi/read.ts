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

  constructor(
    private readonly findings: Findings,
    readonly row: Row,
  ) {}

  /** False once the calendar is full (the exception is then reported as dropped). */
  add(exception: DocumentCalendar['exceptions'][number]): boolean {
    if (this.list.length >= limits.calendarExceptionsMax) {
      this.findings.dropped('calendar', this.row, `days off and special working days beyond ${limits.calendarExceptionsMax} exceptions per calendar are not kept`);
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

class MspdiReader {
  private readonly findings = new Findings();
  private readonly minutesPerDay: number;
  /** Days looked at to spread recurring exceptions and work weeks over their periods, in the whole file. */
  private calendarDays = 0;

  constructor(private readonly project: XmlElement) {
    this.minutesPerDay = numberOf(project, 'MinutesPerDay') ?? 480;
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
      startDate: instant(text(project, 'StartDate'))?.slice(0, 10) ?? new Date(0).toISOString().slice(0, 10),
      scheduleFrom,
      deadline: scheduleFrom === 'backward' ? (instant(text(project, 'FinishDate'))?.slice(0, 10) ?? null) : null,
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

  /** A duration of the file in working minutes; elapsed ones count an elapsed day as a working day. */
  private minutes(value: string | null, format: number | null, subject: ImportSubject, row: Row): number {
    const match = value === null ? null : ISO_DURATION.exec(value);
    if (!match) return 0;
    const [, negative, days, hours, minutes, seconds] = match;
    const total = Number(days ?? 0) * this.minutesPerDay + Number(hours ?? 0) * 60 + Number(minutes ?? 0) + Number(seconds ?? 0) / 60;
    const signed = negative ? -total : total;
    if (format !== null && ELAPSED_FORMATS.has(format) && signed !== 0) {
      this.findings.approximated(subject, row, 'elapsed durations become working time (an elapsed day is a working day)');
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
    const weekly: (DocumentInterval[] | null)[] = [null, null, null, null, null, null, null];
    const legacyExceptions: DocumentCalendar['exceptions'] = [];
    for (const weekDay of children(child(element, 'WeekDays'), 'WeekDay')) {
      const dayType = numberOf(weekDay, 'DayType');
      if (dayType !== null && dayType >= 1 && dayType <= 7) weekly[dayType - 1] = this.dayIntervals(weekDay);
      const period = child(weekDay, 'TimePeriod');
      if (dayType === 0 && period !== null) {
        const range = this.dateRange(period);
        const kept = range && this.inAcceptedYears(row, range);
        if (kept) legacyExceptions.push({ name: null, ...kept, intervals: this.dayIntervals(weekDay) });
      }
    }
    const exceptionElements = children(child(element, 'Exceptions'), 'Exception');
    const exceptions = new ExceptionList(this.findings, row);
    if (exceptionElements.length === 0) exceptions.addAll(legacyExceptions);
    for (const exception of exceptionElements) this.readException(exception, exceptions);
    // Project's order of precedence: a day's exception, then the work week holding it, then the default week.
    for (const workWeek of children(child(element, 'WorkWeeks'), 'WorkWeek')) this.readWorkWeek(workWeek, exceptions);
    const base = text(element, 'BaseCalendarUID');
    return { ref: uid, name, timeZone: 'UTC', weekly, exceptions: exceptions.list, baseRef: base !== null && kept.has(base) && base !== uid ? base : null };
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
      this.findings.dropped('calendar', exceptions.row, 'calendar exceptions without a readable period or recurrence are not kept');
      return;
    }
    const name = text(exception, 'Name');
    const intervals = this.dayIntervals(exception);
    for (const days of this.rangesInAcceptedYears(rule, exceptions.row)) {
      if (!exceptions.add({ name, ...days, intervals })) return;
    }
  }

  /**
   * The days of a recurrence in the years the API accepts, as ranges: its period ends
   * within them before its days are found (so no day after them costs any work), and what
   * falls before them is left out; either is reported.
   */
  private *rangesInAcceptedYears(rule: Recurrence, row: Row): Generator<{ from: string; to: string }> {
    const bounded = { ...rule, to: rule.to > LAST_ACCEPTED_DAY ? LAST_ACCEPTED_DAY : rule.to };
    if (bounded.to !== rule.to) this.findings.dropped('calendar', row, OUTSIDE_ACCEPTED_YEARS);
    if (bounded.from > bounded.to) return;
    for (const range of recurrenceRanges(bounded, this.dayBudget(row))) {
      const kept = this.inAcceptedYears(row, range);
      if (kept) yield kept;
    }
  }

  /** The days of `range` in the years the API accepts (those outside reported), or null when none is. */
  private inAcceptedYears(row: Row, range: { from: string; to: string }): { from: string; to: string } | null {
    if (range.from >= FIRST_ACCEPTED_DAY && range.to <= LAST_ACCEPTED_DAY) return range;
    this.findings.dropped('calendar', row, OUTSIDE_ACCEPTED_YEARS);
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
      this.findings.dropped('calendar', exceptions.row, 'work weeks without a readable period are not kept');
      return;
    }
    const weekdaysByIntervals = new Map<string, { intervals: DocumentInterval[]; daysOfWeek: number }>();
    for (const weekDay of children(child(workWeek, 'WeekDays'), 'WeekDay')) {
      const dayType = numberOf(weekDay, 'DayType');
      if (dayType === null || dayType < 1 || dayType > 7) continue;
      const intervals = this.dayIntervals(weekDay);
      const key = JSON.stringify(intervals);
      const group = weekdaysByIntervals.get(key) ?? { intervals, daysOfWeek: 0 };
      group.daysOfWeek |= 1 << (dayType - 1);
      weekdaysByIntervals.set(key, group);
    }
    const name = text(workWeek, 'Name');
    for (const { intervals, daysOfWeek } of weekdaysByIntervals.values()) {
      for (const days of this.rangesInAcceptedYears(weeklyOn(range, daysOfWeek), exceptions.row)) {
        if (!exceptions.add({ name, ...days, intervals })) return;
      }
    }
  }

  private dateRange(period: XmlElement): { from: string; to: string } | null {
    const from = instant(text(period, 'FromDate'))?.slice(0, 10);
    const to = instant(text(period, 'ToDate'))?.slice(0, 10);
    return from && to && from <= to ? { from, to } : null;
  }

  /** The working intervals of a week day or an exception; a working day without times has the Standard day's. */
  private dayIntervals(element: XmlElement): DocumentInterval[] {
    if (!flag(element, 'DayWorking')) return [];
    const intervals: DocumentInterval[] = [];
    for (const time of children(child(element, 'WorkingTimes'), 'WorkingTime')) {
      const from = clock(text(time, 'FromTime'), false);
      const to = clock(text(time, 'ToTime'), true);
      if (from !== null && to !== null && from < to) intervals.push([from, to]);
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
    this.reportUnsupportedTaskFields(element, row);
    const constraintKind = CONSTRAINT_KINDS[numberOf(element, 'ConstraintType') ?? 0] ?? 'asap';
    const calendarUid = text(element, 'CalendarUID');
    if (calendarUid !== null && calendarUid !== '-1' && !calendarRefs.has(calendarUid)) {
      this.findings.dropped('task', row, 'task calendars missing from the file are not kept: those tasks use the project calendar');
    }
    const manual = flag(element, 'Manual');
    const work = this.minutes(text(element, 'Work'), null, 'task', row);
    const levelingDelayTenths = numberOf(element, 'LevelingDelay') ?? 0;
    const levelingDelayFormat = numberOf(element, 'LevelingDelayFormat');
    let levelingDelayMin = Math.round(levelingDelayTenths / 10);
    if (levelingDelayMin !== 0 && levelingDelayFormat !== null && ELAPSED_FORMATS.has(levelingDelayFormat)) {
      this.findings.approximated('task', row, 'elapsed leveling delays become working time (an elapsed day is a working day)');
      levelingDelayMin = Math.round((levelingDelayMin / 1440) * this.minutesPerDay);
    }
    return documentTask({
      ref,
      parentRef,
      name,
      type: flag(element, 'Milestone') ? 'milestone' : 'task',
      durationMin: Math.max(0, this.minutes(text(element, 'Duration'), numberOf(element, 'DurationFormat'), 'task', row)),
      workMin: work > 0 ? work : null,
      progressPct: Math.min(100, Math.max(0, Math.round(numberOf(element, 'PercentComplete') ?? 0))),
      constraintKind,
      constraintDate: constraintKind === 'asap' || constraintKind === 'alap' ? null : instant(text(element, 'ConstraintDate')),
      deadline: instant(text(element, 'Deadline')),
      calendarRef: calendarUid !== null && calendarRefs.has(calendarUid) ? calendarUid : null,
      costFixed: numberOf(element, 'FixedCost') ?? 0,
      notes: text(element, 'Notes'),
      wbs: text(element, 'WBS'),
      manuallyScheduled: manual,
      manualStartAt: manual ? instant(text(element, 'ManualStart') ?? text(element, 'Start')) : null,
      manualFinishAt: manual ? instant(text(element, 'ManualFinish') ?? text(element, 'Finish')) : null,
      levelingDelayMin,
      taskType: TASK_TYPES[numberOf(element, 'Type') ?? 0] ?? 'fixed_units',
      effortDriven: flag(element, 'EffortDriven'),
      actualStartAt: instant(text(element, 'ActualStart')),
      actualFinishAt: instant(text(element, 'ActualFinish')),
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
        dependencies.push({
          predecessorRef,
          successorRef: successor.ref,
          type: LINK_TYPES[numberOf(link, 'Type') ?? 1] ?? 'FS',
          lagMin: this.lagMinutes(link, predecessor, row),
        });
      }
    }
    return dependencies;
  }

  /** `LinkLag` is in tenths of a minute, or a percentage of the predecessor's duration for percentage formats. */
  private lagMinutes(link: XmlElement, predecessor: DocumentTask, row: Row): number {
    const lag = numberOf(link, 'LinkLag') ?? 0;
    const format = numberOf(link, 'LagFormat');
    if (lag === 0 || format === null) return Math.round(lag / 10);
    if (PERCENT_FORMATS.has(format)) {
      this.findings.approximated('dependency', row, "percentage lags become minutes of the predecessor's duration in the file");
      return Math.round((predecessor.durationMin * lag) / 100);
    }
    if (ELAPSED_FORMATS.has(format)) {
      this.findings.approximated('dependency', row, 'elapsed lags become working time (an elapsed day is a working day)');
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
    const given = Math.round((numberOf(element, 'MaxUnits') ?? 1) * 100);
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
      assignments.push({ taskRef, resourceRef, unitsPct: Math.max(0, Math.round((numberOf(element, 'Units') ?? 1) * 100)) });
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
        baseline.tasks.push({
          taskRef: task.ref,
          startAt: instant(text(entry, 'Start')),
          finishAt: instant(text(entry, 'Finish')),
          durationMin: Math.max(0, this.minutes(text(entry, 'Duration'), numberOf(entry, 'DurationFormat'), 'baseline', row)),
          workMin: Math.max(0, this.minutes(text(entry, 'Work'), null, 'baseline', row)),
          costFixed: numberOf(entry, 'Cost') ?? 0,
        });
      }
    }
    return [...baselines.values()].sort((a, b) => a.slot! - b.slot!);
  }
}
