/**
 * The days a recurring calendar exception of a Microsoft Project XML file falls on, so that
 * a plan keeps each of them as a dated exception and schedules as Microsoft Project does.
 * The rules follow Project's recurrence dialog: every N days; every N weeks on some
 * weekdays; a day of the month, or the first..fourth or last weekday of the month, every N
 * months; a date, or the nth weekday of a month, every year.
 */

/** What an `Exception` element says of its recurrence (the file's codes). */
export interface Recurrence {
  /** First and last day of `TimePeriod` (YYYY-MM-DD). */
  from: string;
  to: string;
  /** `Type`: 1 and 7 daily, 2 yearly on a date, 3 yearly on the nth weekday, 4 monthly on a day, 5 monthly on the nth weekday, 6 weekly. */
  type: number;
  /** `Period`: every how many days, weeks or months (1 when absent). */
  every: number;
  /** `DaysOfWeek`: bit 1 Sunday … bit 64 Saturday. */
  daysOfWeek: number | null;
  /** `MonthDay`: 1..31. */
  monthDay: number | null;
  /** `Month`: 0 January … 11 December. */
  month: number | null;
  /** `MonthItem`: 3 Sunday … 9 Saturday. */
  monthItem: number | null;
  /** `MonthPosition`: 0 first … 3 fourth, 4 last. */
  monthPosition: number | null;
}

/** Every week on `daysOfWeek` (bit 1 Sunday … bit 64 Saturday) within a period: the days a work week sets. */
export function weeklyOn(period: { from: string; to: string }, daysOfWeek: number): Recurrence {
  return { ...period, type: 6, every: 1, daysOfWeek, monthDay: null, month: null, monthItem: null, monthPosition: null };
}

const DAY_MS = 86_400_000;

const dayOf = (date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const dateOf = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
const weekdayOf = (day: number): number => (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday; 0 = Sunday
const monthStart = (year: number, month: number): number => Date.UTC(year, month, 1) / DAY_MS;
const monthLength = (year: number, month: number): number => monthStart(year, month + 1) - monthStart(year, month);

/** Which days `MonthItem` names: 0 any day, 1 a weekday, 2 a weekend day, 3..9 Sunday..Saturday. */
function monthItemMatches(item: number, day: number): boolean {
  const weekday = weekdayOf(day);
  if (item === 0) return true;
  if (item === 1) return weekday >= 1 && weekday <= 5;
  if (item === 2) return weekday === 0 || weekday === 6;
  return weekday === item - 3;
}

/** The day of the `position`th (0..3, 4 = last) day of a month that `MonthItem` names. */
function nthOfMonth(year: number, month: number, item: number, position: number): number {
  const [first, last] = [monthStart(year, month), monthStart(year, month + 1) - 1];
  if (position >= 4) {
    let day = last;
    while (!monthItemMatches(item, day)) day--;
    return day;
  }
  // Every month holds a fourth of each kind of day, so the search ends within the month.
  for (let day = first, seen = -1; ; day++) {
    if (monthItemMatches(item, day) && ++seen === position) return day;
  }
}

/** A day of the month, on the month's last day when the month is shorter. */
const dayOfMonth = (year: number, month: number, monthDay: number): number => monthStart(year, month) + Math.min(monthDay, monthLength(year, month)) - 1;

/** Candidate days in ascending order, from the first period that can hold `from`; the caller keeps those in range. */
function* candidates(rule: Recurrence, from: number): Generator<number> {
  const every = Math.max(1, rule.every);
  const start = new Date(from * DAY_MS);
  const [year, month] = [start.getUTCFullYear(), start.getUTCMonth()];
  const [item, position] = [rule.monthItem ?? 3, rule.monthPosition ?? 0];
  switch (rule.type) {
    case 2:
    case 3:
      for (let y = year; ; y++) {
        const targetMonth = rule.month ?? month;
        yield rule.type === 2 ? dayOfMonth(y, targetMonth, rule.monthDay ?? 1) : nthOfMonth(y, targetMonth, item, position);
      }
    case 4:
    case 5:
      // A day of the month already past in the first month starts the count a month later (as MPXJ reads Project's files).
      for (let m = rule.type === 4 && (rule.monthDay ?? 1) < start.getUTCDate() ? month + 1 : month; ; m += every) {
        yield rule.type === 4 ? dayOfMonth(year, m, rule.monthDay ?? 1) : nthOfMonth(year, m, item, position);
      }
    case 6: {
      const days = (rule.daysOfWeek ?? 0) & 0x7f || 1 << weekdayOf(from);
      // Weeks run Sunday to Saturday, counted from the week that holds `from`.
      for (let sunday = from - weekdayOf(from); ; sunday += 7 * every) {
        for (let offset = 0; offset < 7; offset++) if (days & (1 << offset)) yield sunday + offset;
      }
    }
    default:
      for (let day = from; ; day += every) yield day;
  }
}

const within = (value: number | null, low: number, high: number): boolean => value === null || (Number.isInteger(value) && value >= low && value <= high);

/** Whether the codes name a recurrence this reader knows (Project writes no other). */
export function isReadableRecurrence(rule: Recurrence): boolean {
  return (
    within(rule.type, 1, 7) &&
    within(rule.every, 1, 1000) &&
    within(rule.monthDay, 1, 31) &&
    within(rule.month, 0, 11) &&
    within(rule.monthItem, 0, 9) &&
    within(rule.monthPosition, 0, 4) &&
    rule.from <= rule.to
  );
}

/**
 * The days (ascending) a readable recurrence falls on within its period. `Occurrences` is
 * not read: Project writes the period's last day from it, and writes 1 for a one-off
 * exception of several days. `visit` is called for each day looked at, before it is.
 */
function* recurrenceDays(rule: Recurrence, visit: () => void): Generator<number> {
  const [from, to] = [dayOf(rule.from), dayOf(rule.to)];
  let previous = -Infinity;
  for (const day of candidates(rule, from)) {
    visit();
    if (day > to) return;
    if (day < from || day <= previous) continue;
    previous = day;
    yield day;
  }
}

/** Runs of consecutive days (ascending) as inclusive ranges, each given once it ends. */
function* dayRanges(days: Iterable<number>): Generator<{ from: string; to: string }> {
  let run: { from: number; to: number } | null = null;
  for (const day of days) {
    if (run && day === run.to + 1) {
      run.to = day;
      continue;
    }
    if (run) yield { from: dateOf(run.from), to: dateOf(run.to) };
    run = { from: day, to: day };
  }
  if (run) yield { from: dateOf(run.from), to: dateOf(run.to) };
}

/** Whether a recurrence falls on every day of its period: daily, or weekly on all seven days. */
function isEveryDay(rule: Recurrence): boolean {
  if (rule.every !== 1) return false;
  return rule.type === 1 || rule.type === 7 || (rule.type === 6 && ((rule.daysOfWeek ?? 0) & 0x7f) === 0x7f);
}

/**
 * The days a readable recurrence falls on within its period, as ranges of consecutive days
 * (ascending), each given once it ends. Every day looked at calls `visit` first, so a
 * reader can bound the work a file makes it do: besides a recurrence on every day (one
 * range, no day looked at), days are looked at no more than a week ahead of the range
 * they end, so the work follows the ranges a reader keeps.
 */
export function recurrenceRanges(rule: Recurrence, visit: () => void): Iterable<{ from: string; to: string }> {
  return isEveryDay(rule) ? [{ from: rule.from, to: rule.to }] : dayRanges(recurrenceDays(rule, visit));
}
