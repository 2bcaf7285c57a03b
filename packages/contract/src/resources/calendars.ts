import { z } from 'zod';
import { DateOnly, DateTime, Uuid } from '../common.js';
import { limits } from '../limits.js';
import { Conflict } from './tasks.js';

/** Whether Node's Intl knows the zone by name (offsets such as `+01:00` are not zones). */
function isKnownTimeZone(zone: string): boolean {
  if (!/^[A-Za-z]/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const TimeZoneName = z
  .string()
  .max(100)
  .refine(isKnownTimeZone, 'must be an IANA time zone such as Europe/Berlin or UTC')
  .describe('IANA time zone of the working times.');

const clockTime = z.string().regex(/^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$/, 'must be a time "HH:MM" from 00:00 to 24:00');

const intervalHelp = '`["HH:MM", "HH:MM"]`, start before end (end exclusive, `"24:00"` allowed).';

/**
 * A working interval of one day, local time; the end is exclusive (`"24:00"` ends the day).
 * An array of two rather than a tuple: a tuple's JSON Schema (`prefixItems`) reads as "no
 * items" to the draft-07 validators of MCP clients.
 */
export const WorkInterval = z
  .array(clockTime)
  .length(2, 'must be two times, ["HH:MM", "HH:MM"]')
  .refine((interval) => interval[0]! < interval[1]!, 'must end after it starts')
  // Exactly two items once checked: typed as the pair it is.
  .transform((interval) => interval as [string, string])
  .describe(intervalHelp);
export type WorkInterval = z.output<typeof WorkInterval>;
const StoredInterval = z.array(z.string()).describe(intervalHelp);

/** The working intervals of one day, in order and without overlaps; `[]` = not working. */
export const DayIntervals = z
  .array(WorkInterval)
  .max(limits.calendarIntervalsPerDayMax)
  .superRefine((intervals, ctx) => {
    for (let k = 1; k < intervals.length; k++) {
      if (intervals[k]![0] < intervals[k - 1]![1]) {
        ctx.addIssue({ code: 'custom', path: [k], message: `must start at or after the end of the interval before it (${intervals[k - 1]![1]}): intervals are ascending and do not overlap` });
      }
    }
  });

/** Microsoft Project's Standard week: Monday to Friday 08:00-12:00 and 13:00-17:00. */
const standardDay: WorkInterval[] = [
  ['08:00', '12:00'],
  ['13:00', '17:00'],
];
export const STANDARD_WEEK: (WorkInterval[] | null)[] = [[], standardDay, standardDay, standardDay, standardDay, standardDay, []];

export const Weekly = z
  .array(DayIntervals.nullable())
  .length(7, 'must have exactly 7 entries, Sunday to Saturday')
  .describe('7 entries, Sunday..Saturday: the working intervals of that weekday (`[]` = not working), or null to inherit the day from the base calendar (the Standard week without one).');

export const CalendarException = z
  .object({
    name: z.string().trim().max(limits.nameMaxLength).nullable().default(null),
    from: DateOnly.describe('First day, inclusive.'),
    to: DateOnly.describe('Last day, inclusive.'),
    intervals: DayIntervals.describe('`[]`: those days are not worked (a holiday); otherwise the working intervals of each of those days.'),
  })
  .refine((exception) => exception.from <= exception.to, { path: ['to'], message: 'must be on or after from' });

const Exceptions = z
  .array(CalendarException)
  .max(limits.calendarExceptionsMax)
  .describe('Days that differ from the week (holidays, special working days), in the calendar\'s time zone. Where exceptions overlap, the first listed wins; a base calendar\'s exceptions apply after the calendar\'s own.');

export const Calendar = z.object({
  id: Uuid,
  projectId: Uuid,
  name: z.string(),
  timeZone: z.string(),
  weekly: z.array(z.array(StoredInterval).nullable()).describe('7 entries, Sunday..Saturday: the working intervals (`[]` = not working), or null (inherited from the base calendar; the Standard day without one).'),
  exceptions: z.array(z.object({ name: z.string().nullable(), from: DateOnly, to: DateOnly, intervals: z.array(StoredInterval) })),
  baseCalendarId: Uuid.nullable().describe('The calendar this one inherits its null weekdays and its exceptions from (of the same project).'),
  createdAt: DateTime,
  updatedAt: DateTime,
});
export type Calendar = z.infer<typeof Calendar>;

const calendarName = z.string().trim().min(1).max(limits.nameMaxLength);

export const CalendarCreate = z.object({
  name: calendarName,
  timeZone: TimeZoneName.default('UTC'),
  weekly: Weekly.default(STANDARD_WEEK),
  exceptions: Exceptions.default([]),
  baseCalendarId: Uuid.nullable().default(null),
});
export type CalendarCreate = z.output<typeof CalendarCreate>;

export const CalendarPatch = z.object({
  name: calendarName.optional(),
  timeZone: TimeZoneName.optional(),
  weekly: Weekly.optional(),
  exceptions: Exceptions.optional().describe('Replaces every exception.'),
  baseCalendarId: Uuid.nullable().optional(),
});
export type CalendarPatch = z.output<typeof CalendarPatch>;

export const CalendarResponse = z.object({ calendar: Calendar });
export const CalendarList = z.object({ calendars: z.array(Calendar).describe('Oldest first.') });
export const CalendarPatchResult = z.object({
  calendar: Calendar,
  conflicts: z.array(Conflict),
  rescheduled: z.boolean().describe('True when the working times changed (time zone, week, exceptions or base) and the project or a task works on this calendar, or on one based on it: every task was recalculated.'),
});
