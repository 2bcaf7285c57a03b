import { NumberHeap } from './heap.js';
import { TimeZone } from './instant.js';
import { fastPaths } from './internal.js';
import type { CalendarInput, WorkInterval } from './types.js';

const STD_DAY: readonly WorkInterval[] = [
  ['08:00', '12:00'],
  ['13:00', '17:00'],
];

/**
 * Microsoft Project's built-in Standard calendar: Mon–Fri 08:00–12:00 and 13:00–17:00
 * (480 working minutes a day), UTC, no exceptions. Used when a project names no calendar.
 */
export const STANDARD_CALENDAR: CalendarInput = Object.freeze({
  id: 'standard',
  name: 'Standard',
  timeZone: 'UTC',
  weekly: [[], STD_DAY, STD_DAY, STD_DAY, STD_DAY, STD_DAY, []],
  exceptions: [],
});

/** Days the lazily built day table first covers on each side of a date (about 4 years). */
const CHUNK_DAYS = 1461;
/**
 * The span working time is computed in, exactly: local days from `start` up to (not
 * including) `end`. The span is fixed so that no reading depends on how far earlier
 * look-ups grew the day table; instants outside it read as its edges, so a schedule that
 * reaches an edge is not exact (callers refuse it). It also bounds the table of a calendar
 * without work.
 */
export const SCHEDULE_HORIZON = Object.freeze({ start: '1600-01-01T00:00:00.000Z', end: '2400-01-01T00:00:00.000Z' });
const DAY_MIN = Date.parse(SCHEDULE_HORIZON.start) / 86_400_000;
const DAY_MAX = Date.parse(SCHEDULE_HORIZON.end) / 86_400_000;

function parseHm(s: string): number {
  const m = /^(\d{1,2}):(\d{2})/.exec(s);
  if (!m) return NaN;
  return Number(m[1]) * 60 + Number(m[2]);
}

/** Normalises a list of intervals into sorted, merged `[a,b)` minute pairs within a day. */
function compileDay(intervals: readonly WorkInterval[] | readonly unknown[]): number[] {
  const pairs: [number, number][] = [];
  for (const iv of intervals) {
    let a: number;
    let b: number;
    if (Array.isArray(iv)) {
      a = parseHm(String(iv[0]));
      b = parseHm(String(iv[1]));
    } else if (iv !== null && typeof iv === 'object') {
      const o = iv as { start?: unknown; end?: unknown; from?: unknown; to?: unknown };
      a = parseHm(String(o.start ?? o.from));
      b = parseHm(String(o.end ?? o.to));
    } else continue;
    if (!(a >= 0) || !(b <= 1440) || !(b > a)) continue;
    pairs.push([a, b]);
  }
  pairs.sort((x, y) => x[0] - y[0]);
  const out: number[] = [];
  for (const [a, b] of pairs) {
    const n = out.length;
    if (n > 0 && a <= out[n - 1]!) out[n - 1] = Math.max(out[n - 1]!, b);
    else out.push(a, b);
  }
  return out;
}

function dateToDay(s: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (!m) return NaN;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 86_400_000;
}

/** A resolved day rule: which local days use which interval pattern. */
interface DayRules {
  weekly: number[][];
  /** Sorted exception ranges `[fromDay, toDay, pattern]`, earlier entries win. */
  exceptions: { from: number; to: number; pattern: number[] }[];
}

/**
 * Working-time arithmetic on one calendar, exact to the minute (docs/scheduling.md › Working time).
 *
 * Instants are **UTC epoch minutes** (`Math.floor(Date.parse(iso) / 60000)`). Internally
 * each instant is converted to the calendar's wall-clock time (its IANA zone) and mapped
 * to a *working position*: the count of working minutes since local 1970-01-01 00:00
 * (negative before). Every reading is a function of the calendar and its arguments only:
 * positions have a fixed origin and the days read have a fixed span (`DAY_MIN`–`DAY_MAX`),
 * so the per-day table, grown lazily around the dates looked up, is a cache that changes
 * speed, never results. Never throws; a calendar without any working time is treated as
 * working around the clock.
 */
export class WorkCalendar {
  readonly id: string;
  readonly zone: TimeZone;
  private readonly rules: DayRules;
  private readonly patterns: number[][] = [];
  private readonly patternWork: number[] = [];
  private readonly patternKey = new Map<string, number>();
  /**
   * Per pattern, lookup tables replacing the walk over its intervals: `before[off]` =
   * working minutes in [00:00, off) of the day; `finAt[r]` / `startAt[r]` = minute of the day
   * where r working minutes are complete, as a finish (interval end) / start (interval start).
   */
  private readonly before: Int32Array[] = [];
  private readonly finAt: Int32Array[] = [];
  private readonly startAt: Int32Array[] = [];
  private readonly weeklyPattern: number[] = [];
  /** `weekCum[j]`: weekly work of the j first days of a week that starts on a Thursday (as local day 0 does). */
  private readonly weekCum = new Float64Array(8);
  /** Exception days as disjoint ranges `[segFrom[k], segTo[k]]` in ascending order, with their patterns. */
  private readonly segFrom: number[] = [];
  private readonly segTo: number[] = [];
  private readonly segPat: number[] = [];
  /** What the exceptions change in the work before local day 0 (subtracted so that day 0 is position 0). */
  private origin = 0;
  /** Positions of local midnight of `DAY_MIN` and `DAY_MAX`: the span of positions a reading can return. */
  private readonly posMin: number;
  private readonly posMax: number;
  /** The span `exactPosition` accepts: (posMin, posMax) in UTC, none (+∞, −∞) in other zones. */
  private readonly exactLo: number;
  private readonly exactHi: number;
  /** Day table: first local day number, cumulative work (position) at each day's start, pattern per day. */
  private lo = 0;
  private hi = 0;
  private cum: Float64Array = new Float64Array(0);
  private pat: Int32Array = new Int32Array(0);
  /** Table days per working minute, for the first guess of `walkToDay`. */
  private daysPerWork = 0;
  private readonly allDay: boolean;
  /**
   * Calendars without exceptions repeat every week: `wkFin[r]` / `wkStart[r]` = minute of
   * the week (from Sunday 00:00 local) where r working minutes of the week are complete, as
   * a finish / start, so a position inside the span maps back to an instant with one
   * division instead of a walk over the days. `wkOff` = position of local minute 0 of week 0
   * (Sunday 1969-12-28).
   */
  private readonly wkWork: number = 0;
  private readonly wkFin: Int32Array | null = null;
  private readonly wkStart: Int32Array | null = null;
  private readonly wkOff: number = 0;

  constructor(id: string, zone: TimeZone, rules: DayRules) {
    this.id = id;
    this.zone = zone;
    let weeklyWork = 0;
    for (const d of rules.weekly) for (let i = 0; i < d.length; i += 2) weeklyWork += d[i + 1]! - d[i]!;
    this.allDay = weeklyWork === 0 && !rules.exceptions.some((e) => e.pattern.length > 0);
    this.rules = this.allDay ? { weekly: Array.from({ length: 7 }, () => [0, 1440]), exceptions: [] } : rules;
    for (const d of this.rules.weekly) this.weeklyPattern.push(this.internPattern(d));
    for (let j = 0; j < 7; j++) this.weekCum[j + 1] = this.weekCum[j]! + this.patternWork[this.weeklyPattern[(j + 4) % 7]!]!;
    this.resolveExceptions();
    this.origin = this.cumAt(0);
    this.posMin = this.cumAt(DAY_MIN);
    this.posMax = this.cumAt(DAY_MAX);
    this.exactLo = this.zone.isUtc ? this.posMin : Infinity;
    this.exactHi = this.zone.isUtc ? this.posMax : -Infinity;
    if (fastPaths.weeklyCalendar && this.rules.exceptions.length === 0) {
      let w = 0;
      for (let d = 0; d < 7; d++) w += this.patternWork[this.weeklyPattern[d]!]!;
      if (w > 0) {
        const fin = new Int32Array(w + 1);
        const st = new Int32Array(w + 1);
        let acc = 0;
        for (let d = 0; d < 7; d++) {
          const pi = this.weeklyPattern[d]!;
          const work = this.patternWork[pi]!;
          // The same choice of day as dayEndingAt (acc < r <= acc + work) / dayStartingAt
          // (acc <= r < acc + work), then the same per-pattern tables.
          for (let r = acc + 1; r <= acc + work; r++) fin[r] = d * 1440 + this.finAt[pi]![r - acc]!;
          for (let r = acc; r < acc + work; r++) st[r] = d * 1440 + this.startAt[pi]![r - acc]!;
          acc += work;
        }
        this.wkWork = w;
        this.wkFin = fin;
        this.wkStart = st;
        this.wkOff = this.cumAt(-4);
      }
    }
  }

  /**
   * Resolves the exceptions, which may overlap (the earlier one wins), into disjoint day
   * ranges; their patterns are interned here, so pattern numbers do not depend on look-ups.
   */
  private resolveExceptions(): void {
    const ex = this.rules.exceptions;
    const cuts = [...new Set(ex.flatMap((e) => [e.from, e.to + 1]))].sort((a, b) => a - b);
    // A sweep over the cuts: the exceptions begun so far, earliest listed first; those
    // ended are dropped as they come to the top. O(n log n) for a calendar's 1,000.
    const byStart = ex.map((_, i) => i).sort((a, b) => ex[a]!.from - ex[b]!.from);
    const begun = new NumberHeap((a, b) => a < b);
    let next = 0;
    for (let k = 0; k + 1 < cuts.length; k++) {
      const day = cuts[k]!;
      while (next < byStart.length && ex[byStart[next]!]!.from <= day) begun.push(byStart[next++]!);
      while (begun.size > 0 && ex[begun.peek()!]!.to < day) begun.pop();
      if (begun.size === 0) continue;
      const e = ex[begun.peek()!]!;
      const p = this.internPattern(e.pattern);
      const last = this.segTo.length - 1;
      if (last >= 0 && this.segTo[last] === day - 1 && this.segPat[last] === p) this.segTo[last] = cuts[k + 1]! - 1;
      else {
        this.segFrom.push(day);
        this.segTo.push(cuts[k + 1]! - 1);
        this.segPat.push(p);
      }
    }
  }

  /** Work of the weekly rules from local day 0 to `day` (negative before day 0). */
  private weeklyCum(day: number): number {
    const k = Math.floor(day / 7);
    return k * this.weekCum[7]! + this.weekCum[day - 7 * k]!;
  }

  /** Position of local midnight starting `day`, in closed form: the weekly work plus what exceptions change. */
  private cumAt(day: number): number {
    let w = this.weeklyCum(day) - this.origin;
    for (let k = 0; k < this.segFrom.length; k++) {
      const a = this.segFrom[k]!;
      if (a >= day) break;
      const b = Math.min(this.segTo[k]! + 1, day);
      w += (b - a) * this.patternWork[this.segPat[k]!]! - (this.weeklyCum(b) - this.weeklyCum(a));
    }
    return w;
  }

  private internPattern(p: number[]): number {
    const key = p.join(',');
    let idx = this.patternKey.get(key);
    if (idx === undefined) {
      idx = this.patterns.length;
      this.patterns.push(p);
      let w = 0;
      for (let i = 0; i < p.length; i += 2) w += p[i + 1]! - p[i]!;
      this.patternWork.push(w);
      this.patternKey.set(key, idx);
      const before = new Int32Array(1441);
      const finAt = new Int32Array(w + 1);
      const startAt = new Int32Array(w + 1);
      let acc = 0;
      let k = 0;
      for (let off = 0; off <= 1440; off++) {
        before[off] = acc;
        while (k < p.length && off >= p[k + 1]!) k += 2;
        if (k < p.length && off >= p[k]!) acc++;
      }
      // The same walks as earliestAt/latestAt, tabulated for every integer remainder.
      for (let r = 0; r <= w; r++) {
        let rem = r;
        let f = 1440;
        for (let q = 0; q < p.length; q += 2) {
          const len = p[q + 1]! - p[q]!;
          if (rem <= len) {
            f = p[q]! + rem;
            break;
          }
          rem -= len;
        }
        finAt[r] = f;
        rem = r;
        let st = 1440;
        for (let q = 0; q < p.length; q += 2) {
          const len = p[q + 1]! - p[q]!;
          if (rem < len) {
            st = p[q]! + rem;
            break;
          }
          rem -= len;
        }
        startAt[r] = st;
      }
      this.before.push(before);
      this.finAt.push(finAt);
      this.startAt.push(startAt);
    }
    return idx;
  }

  /** Grows the day table so that it covers `day`; false outside `DAY_MIN`–`DAY_MAX`. */
  private ensure(day: number): boolean {
    if (day >= this.lo && day < this.hi) return true;
    if (!(day >= DAY_MIN && day < DAY_MAX)) return false;
    if (this.hi === this.lo) {
      this.rebuild(Math.max(DAY_MIN, day - CHUNK_DAYS), Math.min(DAY_MAX, day + CHUNK_DAYS));
      return true;
    }
    // Grow geometrically so far-away dates cost O(days) in total, not per step.
    const grow = Math.max(CHUNK_DAYS, this.hi - this.lo);
    const lo = day < this.lo ? Math.max(DAY_MIN, Math.min(day, this.lo - grow)) : this.lo;
    const hi = day >= this.hi ? Math.min(DAY_MAX, Math.max(day + 1, this.hi + grow)) : this.hi;
    this.rebuild(lo, hi);
    return true;
  }

  /** Fills cum/pat for days [lo, hi]: cum[0] from the closed form, then day by day. */
  private rebuild(lo: number, hi: number): void {
    const n = hi - lo + 1;
    const cum = new Float64Array(n);
    const pat = new Int32Array(n);
    let wd = (((lo + 4) % 7) + 7) % 7;
    for (let d = lo; d < hi; d++) {
      pat[d - lo] = this.weeklyPattern[wd]!;
      if (++wd === 7) wd = 0;
    }
    for (let k = 0; k < this.segFrom.length; k++) {
      const b = Math.min(this.segTo[k]! + 1, hi);
      for (let d = Math.max(this.segFrom[k]!, lo); d < b; d++) pat[d - lo] = this.segPat[k]!;
    }
    cum[0] = this.cumAt(lo);
    for (let i = 0; i < n - 1; i++) cum[i + 1] = cum[i]! + this.patternWork[pat[i]!]!;
    this.lo = lo;
    this.hi = hi;
    this.cum = cum;
    this.pat = pat;
    const span = cum[n - 1]! - cum[0]!;
    this.daysPerWork = span > 0 ? (n - 1) / span : 0;
  }

  /** Working position of a local wall-clock minute. */
  private posLocal(t: number): number {
    const day = Math.floor(t / 1440);
    if (!(day >= this.lo && day < this.hi) && !this.ensure(day)) return day < DAY_MIN ? this.posMin : day >= DAY_MAX ? this.posMax : NaN;
    const i = day - this.lo;
    const off = t - day * 1440;
    if ((off | 0) === off) return this.cum[i]! + this.before[this.pat[i]!]![off]!;
    const p = this.patterns[this.pat[i]!]!;
    let w = this.cum[i]!;
    for (let k = 0; k < p.length; k += 2) {
      const a = p[k]!;
      if (off <= a) break;
      const b = p[k + 1]!;
      w += (off < b ? off : b) - a;
      if (off < b) break;
    }
    return w;
  }

  /** Index i (day lo+i) with cum[i] < w <= cum[i]+work, growing the table as needed; -1 outside (posMin, posMax]. */
  private dayEndingAt(w: number): number {
    if (!(w > this.posMin && w <= this.posMax)) return -1;
    // Terminates: inside the span, the table can still grow towards w.
    while (!(w > this.cum[0]! && w <= this.cum[this.hi - this.lo]!)) this.ensure(w <= this.cum[0]! ? this.lo - 1 : this.hi);
    return this.walkToDay(w, false);
  }

  /** Index i with cum[i] <= w < cum[i]+work (smallest such day); -1 outside [posMin, posMax). */
  private dayStartingAt(w: number): number {
    if (!(w >= this.posMin && w < this.posMax)) return -1;
    while (!(w >= this.cum[0]! && w < this.cum[this.hi - this.lo]!)) this.ensure(w < this.cum[0]! ? this.lo - 1 : this.hi);
    return this.walkToDay(w, true);
  }

  /**
   * Finds the day index for position w (which must lie inside the table). Working time is
   * nearly linear in days, so an interpolated guess plus a short walk beats a binary search.
   * `startSide`: smallest i with cum[i] <= w < cum[i+1]; otherwise largest i with cum[i] < w <= cum[i+1].
   */
  private walkToDay(w: number, startSide: boolean): number {
    const cum = this.cum;
    const n = this.hi - this.lo;
    // The walks below end on the same day from any starting guess; the guess only saves steps.
    let i = Math.floor((w - cum[0]!) * this.daysPerWork);
    if (!(i >= 0)) i = 0;
    else if (i > n - 1) i = n - 1;
    if (startSide) {
      while (i > 0 && cum[i]! > w) i--;
      while (i < n - 1 && cum[i + 1]! <= w) i++;
    } else {
      while (i < n - 1 && cum[i + 1]! < w) i++;
      while (i > 0 && cum[i]! >= w) i--;
    }
    return i;
  }

  /** Earliest local instant x with pos(x) = w (a finish-type reading: lands on interval ends). */
  private earliestAt(w: number): number {
    const fin = this.wkFin;
    if (fin !== null && w > this.posMin && w <= this.posMax && w === Math.floor(w)) {
      // The week and the minute of the week directly (see wkFin), without the day table.
      const u = w - this.wkOff;
      const k = Math.floor((u - 1) / this.wkWork);
      return k * 10080 - 5760 + fin[u - k * this.wkWork]!;
    }
    const i = this.dayEndingAt(w);
    if (i < 0) return w <= this.posMin ? DAY_MIN * 1440 : DAY_MAX * 1440;
    const pi = this.pat[i]!;
    let rem = w - this.cum[i]!;
    if ((rem | 0) === rem && rem >= 0 && rem <= this.patternWork[pi]!) return (this.lo + i) * 1440 + this.finAt[pi]![rem]!;
    const p = this.patterns[pi]!;
    for (let k = 0; k < p.length; k += 2) {
      const len = p[k + 1]! - p[k]!;
      if (rem <= len) return (this.lo + i) * 1440 + p[k]! + rem;
      rem -= len;
    }
    return (this.lo + i + 1) * 1440;
  }

  /** Latest local instant x with pos(x) = w (a start-type reading: lands on interval starts). */
  private latestAt(w: number): number {
    const st = this.wkStart;
    if (st !== null && w >= this.posMin && w < this.posMax && w === Math.floor(w)) {
      const u = w - this.wkOff;
      const k = Math.floor(u / this.wkWork);
      return k * 10080 - 5760 + st[u - k * this.wkWork]!;
    }
    const i = this.dayStartingAt(w);
    if (i < 0) return w < this.posMin ? DAY_MIN * 1440 : DAY_MAX * 1440;
    const pi = this.pat[i]!;
    let rem = w - this.cum[i]!;
    if ((rem | 0) === rem && rem >= 0 && rem <= this.patternWork[pi]!) return (this.lo + i) * 1440 + this.startAt[pi]![rem]!;
    const p = this.patterns[pi]!;
    for (let k = 0; k < p.length; k += 2) {
      const len = p[k + 1]! - p[k]!;
      if (rem < len) return (this.lo + i) * 1440 + p[k]! + rem;
      rem -= len;
    }
    return (this.lo + i + 1) * 1440;
  }

  /**
   * True when `w` is an integer position strictly inside the calendar's span on a UTC
   * calendar: then `position(startAtPosition(w)) === w` and `position(finishAtPosition(w))
   * === w`, so a caller may remember `w` as these instants' position instead of looking
   * it up again. (In other zones a wall-clock time may occur twice or not at all.)
   */
  exactPosition(w: number): boolean {
    return w > this.exactLo && w < this.exactHi && w === Math.floor(w);
  }

  /** Working position (working minutes since local 1970-01-01 00:00) of a UTC instant. */
  position(t: number): number {
    return this.posLocal(this.zone.isUtc ? t : this.zone.toLocal(t));
  }

  /** Earliest UTC instant at working position `w`: the end of an interval when `w` falls on one. */
  finishAtPosition(w: number): number {
    const x = this.earliestAt(w);
    return this.zone.isUtc ? x : this.zone.toUtc(x);
  }

  /** Latest UTC instant at working position `w`: the start of an interval when `w` falls on one. */
  startAtPosition(w: number): number {
    const x = this.latestAt(w);
    return this.zone.isUtc ? x : this.zone.toUtc(x);
  }

  /** `addWork(t, m)`, m ≥ 0: result lands on an interval end when m runs out there; m = 0 → t. */
  addWork(t: number, m: number): number {
    if (m <= 0) return t;
    return this.finishAtPosition(this.position(t) + m);
  }

  /** `subWork(t, m)`, m ≥ 0: result lands on an interval start when m runs out there; m = 0 → t. */
  subWork(t: number, m: number): number {
    if (m <= 0) return t;
    return this.startAtPosition(this.position(t) - m);
  }

  /** Signed lag shift: `addWork` for L ≥ 0, `subWork(−L)` for leads. */
  shift(t: number, lag: number): number {
    return lag >= 0 ? this.addWork(t, lag) : this.subWork(t, -lag);
  }

  /** Working minutes from t1 to t2 (negative when t2 < t1). */
  workBetween(t1: number, t2: number): number {
    return this.position(t2) - this.position(t1);
  }

  /** t when t is inside a working interval, else the next interval start (an interval end is outside). */
  nextWorkStart(t: number): number {
    return this.startAtPosition(this.position(t));
  }

  /** Like `nextWorkStart`, but an interval end is kept: milestones may sit at 17:00. */
  nextMilestoneStart(t: number): number {
    const w = this.position(t);
    const back = this.finishAtPosition(w);
    return back === t ? t : this.startAtPosition(w);
  }

  /** Moves t back to the previous interval end when no working time lies in between. */
  normalizeFinish(t: number): number {
    return this.finishAtPosition(this.position(t));
  }

  /** True when the calendar has no working time at all and is therefore run as 24/7. */
  get isAroundTheClock(): boolean {
    return this.allDay;
  }
}

/**
 * The calendar elapsed durations and lags run on (docs/scheduling.md › Elapsed durations
 * and lags): every minute of every day works, on the wall clock of `zone`, so its working
 * minutes are clock minutes and an elapsed day from 08:00 ends at 08:00 the next day, DST
 * change or not.
 */
export function clockCalendar(zone: TimeZone): WorkCalendar {
  const day = [0, 1440];
  return new WorkCalendar(`clock:${zone.name}`, zone, { weekly: [day, day, day, day, day, day, day], exceptions: [] });
}

/**
 * Compiles calendar inputs (with `baseCalendarId` inheritance) into `WorkCalendar`s keyed by
 * id. A missing or cyclic base is ignored; unparsable intervals are dropped. The Standard
 * calendar is always present under `STANDARD_CALENDAR.id` unless overridden.
 */
export function compileCalendars(inputs: readonly CalendarInput[] | null | undefined): Map<string, WorkCalendar> {
  const byId = new Map<string, CalendarInput>();
  byId.set(STANDARD_CALENDAR.id, STANDARD_CALENDAR);
  const sorted = [...(inputs ?? [])].filter((c) => c && typeof c.id === 'string').sort((a, b) => cmpStr(a.id, b.id));
  for (const c of sorted) byId.set(c.id, c);
  const stdWeek = (STANDARD_CALENDAR.weekly ?? []).map((d) => compileDay(d ?? []));
  const resolved = new Map<string, { rules: DayRules; zone: string }>();
  const resolve = (id: string, seen: Set<string>): { rules: DayRules; zone: string } => {
    const done = resolved.get(id);
    if (done) return done;
    const c = byId.get(id)!;
    let base: { rules: DayRules; zone: string } | null = null;
    if (c.baseCalendarId && byId.has(c.baseCalendarId) && !seen.has(c.baseCalendarId)) {
      seen.add(id);
      base = resolve(c.baseCalendarId, seen);
    }
    const weekly: number[][] = [];
    for (let d = 0; d < 7; d++) {
      const own = c.weekly?.[d];
      weekly.push(own ? compileDay(own) : (base ? base.rules.weekly[d]! : stdWeek[d]!));
    }
    const exceptions: DayRules['exceptions'] = [];
    for (const e of c.exceptions ?? []) {
      const from = dateToDay(e?.from ?? '');
      const to = dateToDay(e?.to ?? e?.from ?? '');
      if (!Number.isFinite(from) || !Number.isFinite(to) || to < from) continue;
      exceptions.push({ from, to, pattern: compileDay(e.intervals ?? []) });
    }
    if (base) exceptions.push(...base.rules.exceptions);
    const r = { rules: { weekly, exceptions }, zone: c.timeZone ?? base?.zone ?? 'UTC' };
    resolved.set(id, r);
    return r;
  };
  const out = new Map<string, WorkCalendar>();
  for (const id of byId.keys()) {
    const r = resolve(id, new Set());
    out.set(id, new WorkCalendar(id, TimeZone.named(r.zone), r.rules));
  }
  return out;
}

/** Builds one `WorkCalendar` from an input (bases resolved among `others`). */
export function createCalendar(input: CalendarInput, others: readonly CalendarInput[] = []): WorkCalendar {
  return compileCalendars([...others, input]).get(input.id)!;
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
