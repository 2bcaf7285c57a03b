import { randomUUID } from 'node:crypto';
import type { Calendar, FieldProblem, WorkInterval } from '@gantry/contract';
import { CalendarCreate, STANDARD_WEEK } from '@gantry/contract';
import type { CalendarRow, Queries } from '../../store/store.js';
import { invalid } from '../errors.js';
import { problemsAt } from '../validation.js';
import type { DocumentCalendar } from '../exchange/plan-document.js';

type Week = (WorkInterval[] | null)[];

export function presentCalendar(row: CalendarRow): Calendar {
  return {
    id: row.id,
    projectId: row.project_id,
    name: row.name,
    timeZone: row.time_zone,
    weekly: JSON.parse(row.weekly) as Week,
    exceptions: JSON.parse(row.exceptions) as Calendar['exceptions'],
    baseCalendarId: row.base_calendar_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/** Working minutes in the week of `id`, its null days read from its bases (the Standard week below the last one). */
function weeklyWork(id: string, byId: ReadonlyMap<string, CalendarRow>): number {
  const days: (WorkInterval[] | null)[] = Array.from({ length: 7 }, () => null);
  const seen = new Set<string>();
  for (let calendar = byId.get(id); calendar && !seen.has(calendar.id); calendar = byId.get(calendar.base_calendar_id ?? '')) {
    seen.add(calendar.id);
    const own = JSON.parse(calendar.weekly) as Week;
    for (let day = 0; day < 7; day++) days[day] ??= own[day] ?? null;
  }
  return days
    .map((intervals, day) => intervals ?? STANDARD_WEEK[day]!)
    .flat()
    .reduce((sum, [start, end]) => sum + minutesOf(end) - minutesOf(start), 0);
}

/** The chain of bases from `id` when it comes back to a calendar already on it, as names (`A → B → A`); null when it ends. */
function baseCycle(id: string, byId: ReadonlyMap<string, CalendarRow>): string | null {
  const seen: string[] = [];
  for (let calendar = byId.get(id); calendar; calendar = byId.get(calendar.base_calendar_id ?? '')) {
    if (seen.includes(calendar.id)) return [...seen, calendar.id].map((seenId) => byId.get(seenId)!.name).join(' → ');
    seen.push(calendar.id);
  }
  return null;
}

/**
 * What the scheduler cannot work with in a project's calendars once `changed` is written
 * (`calendars` holds it already): a base outside the project, a cycle of bases, or a
 * week without working time — the engine would run such a calendar around the clock, or,
 * with working exceptions only, leave the years it computes. A change of a base calendar
 * is checked against every calendar based on it.
 */
export function calendarProblems(calendars: readonly CalendarRow[], changed: CalendarRow, path: string): FieldProblem[] {
  const at = (name: string) => (path ? `${path}.${name}` : name);
  const byId = new Map(calendars.map((calendar) => [calendar.id, calendar]));
  if (changed.base_calendar_id !== null) {
    if (!byId.has(changed.base_calendar_id)) return [{ path: at('baseCalendarId'), message: 'no such calendar in this project' }];
    const cycle = baseCycle(changed.id, byId);
    if (cycle) return [{ path: at('baseCalendarId'), message: `would make a cycle of base calendars: ${cycle}` }];
  }
  const problems: FieldProblem[] = [];
  for (const id of calendarAndDependents(calendars, changed.id)) {
    if (weeklyWork(id, byId) > 0) continue;
    const calendar = byId.get(id)!;
    problems.push({
      path: at('weekly'),
      message:
        calendar.id === changed.id
          ? 'the week has no working time (null days inherit from the base calendar): a calendar needs some'
          : `would leave the calendar "${calendar.name}", based on this one, without working time in its week`,
    });
  }
  return problems;
}

/** The calendars based on `id`, directly or not, and `id` itself. */
export function calendarAndDependents(calendars: readonly CalendarRow[], id: string): Set<string> {
  const ids = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const calendar of calendars) {
      if (calendar.base_calendar_id !== null && ids.has(calendar.base_calendar_id) && !ids.has(calendar.id)) {
        ids.add(calendar.id);
        grew = true;
      }
    }
  }
  return ids;
}

/** The built-in Standard week in a time zone: a new project's calendar. */
export function standardCalendarDocument(timeZone: string): DocumentCalendar {
  return { ref: 'standard', name: 'Standard', timeZone, weekly: STANDARD_WEEK, exceptions: [], baseRef: null };
}

/**
 * Creates a new project's calendars from a plan document's, inside the caller's transaction
 * (the project row exists): checked as a calendar write is, by the contract's schema too
 * (400 on `calendars[i]`), each base inserted before the calendars based on it. Answers
 * the id of each calendar by its ref.
 */
export async function createProjectCalendars(tx: Queries, projectId: string, documents: readonly DocumentCalendar[], now: string): Promise<Map<string, string>> {
  const idOf = new Map(documents.map((document) => [document.ref, randomUUID()]));
  const rows: CalendarRow[] = documents.map((document) => ({
    id: idOf.get(document.ref)!,
    project_id: projectId,
    name: document.name,
    time_zone: document.timeZone,
    weekly: JSON.stringify(document.weekly),
    exceptions: JSON.stringify(document.exceptions),
    base_calendar_id: document.baseRef === null ? null : (idOf.get(document.baseRef) ?? document.baseRef),
    created_at: now,
    updated_at: now,
  }));
  const problems = documents.flatMap(({ name, timeZone, weekly, exceptions }, index) => {
    const parsed = CalendarCreate.safeParse({ name, timeZone, weekly, exceptions });
    return parsed.success ? [] : problemsAt(parsed.error, ['calendars', index]);
  });
  problems.push(...rows.flatMap((row, index) => calendarProblems(rows, row, `calendars[${index}]`)));
  if (problems.length > 0) throw invalid(problems);
  const inserted = new Set<string>();
  while (inserted.size < rows.length) {
    for (const row of rows) {
      if (!inserted.has(row.id) && (row.base_calendar_id === null || inserted.has(row.base_calendar_id))) {
        await tx.calendars.insert(row);
        inserted.add(row.id);
      }
    }
  }
  return idOf;
}
