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

/** Days added to the lazily built day table at a time (about 4 years). */
const CHUNK_DAYS = 1461;
/** Hard limit on the day table (about 400 years) so a calendar without work cannot loop. */
const MAX_DAYS = 146_100;

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
 * to a *working position*: the count of working minutes since an arbitrary origin. All
 * primitives are then O(log days) lookups in a lazily grown per-day table. Never throws;
 * a calendar without any working time is treated as working around the clock.
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
  /** Day table: first local day number, cumulative work at each day's start, pattern per day. */
  private lo = 0;
  private hi = 0;
  private cum: Float64Array = new Float64Array(0);
  private pat: Int32Array = new Int32Array(0);
  /** `cum[0]` and `cum[hi − lo]`: the positions the day table spans (kept as fields for the fast paths). */
  private posLo = 0;
  private posHi = 0;
  /** The span `exactPosition` accepts: the table's positions in UTC, none (+∞, −∞) otherwise. */
  private exactLo = Infinity;
  private exactHi = -Infinity;
  /** Table days per working minute, for the first guess of `walkToDay`. */
  private daysPerWork = 0;
  private readonly allDay: boolean;
  /**
   * Calendars without exceptions repeat every week: `wkFin[r]` / `wkStart[r]` = minute of
   * the week (from Sunday 00:00 local) where r working minutes of the week are complete, as
   * a finish / start, so a position inside the day table maps back to an instant with one
   * division instead of a walk over the days. `wkOff` = position of local minute 0 of week 0
   * (Sunday 1969-12-28) in the table's numbering (stable: positions never move).
   */
  private readonly wkWork: number = 0;
  private readonly wkFin: Int32Array | null = null;
  private readonly wkStart: Int32Array | null = null;
  private wkOff = 0;

  constructor(id: string, zone: TimeZone, rules: DayRules) {
    this.id = id;
    this.zone = zone;
    let weeklyWork = 0;
    for (const d of rules.weekly) for (let i = 0; i < d.length; i += 2) weeklyWork += d[i + 1]! - d[i]!;
    this.allDay = weeklyWork === 0 && !rules.exceptions.some((e) => e.pattern.length > 0);
    this.rules = this.allDay ? { weekly: Array.from({ length: 7 }, () => [0, 1440]), exceptions: [] } : rules;
    for (const d of this.rules.weekly) this.weeklyPattern.push(this.internPattern(d));
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
      }
    }
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

  private patternOfDay(day: number): number {
    for (const e of this.rules.exceptions) {
      if (day >= e.from && day <= e.to) return this.internPattern(e.pattern);
    }
    return this.weeklyPattern[(((day + 4) % 7) + 7) % 7]!;
  }

  /** Grows the day table so that it covers `day`; returns false beyond the hard limit. */
  private ensure(day: number): boolean {
    if (day >= this.lo && day < this.hi) return true;
    if (this.hi === this.lo) {
      this.lo = day - CHUNK_DAYS;
      this.hi = day + CHUNK_DAYS;
      this.rebuild(this.lo, this.hi, 0, 0);
      return true;
    }
    // Grow geometrically so far-away dates cost O(days) in total, not per step.
    const grow = Math.max(CHUNK_DAYS, this.hi - this.lo);
    let newLo = day < this.lo ? Math.min(day, this.lo - grow) : this.lo;
    let newHi = day >= this.hi ? Math.max(day + 1, this.hi + grow) : this.hi;
    if (newHi - newLo > MAX_DAYS) {
      // Never slide the window (positions must stay stable); only grow up to the limit.
      newLo = Math.max(newLo, this.hi - MAX_DAYS);
      newHi = Math.min(newHi, newLo + MAX_DAYS);
      if (day < newLo || day >= newHi || (newLo === this.lo && newHi === this.hi)) return false;
    }
    const keepCum = this.cum[0]!;
    this.rebuild(newLo, newHi, this.lo, keepCum);
    return true;
  }

  /** Rebuilds cum/pat for [lo,hi) keeping cum(anchorDay) = anchorCum so positions stay stable. */
  private rebuild(lo: number, hi: number, anchorDay: number, anchorCum: number): void {
    const n = hi - lo + 1;
    const cum = new Float64Array(n);
    const pat = new Int32Array(n);
    if (this.rules.exceptions.length === 0) {
      // Weekly rules only: walk the weekdays instead of looking each day up.
      let wd = (((lo + 4) % 7) + 7) % 7;
      for (let d = lo; d < hi; d++) {
        pat[d - lo] = this.weeklyPattern[wd]!;
        if (++wd === 7) wd = 0;
      }
    } else for (let d = lo; d < hi; d++) pat[d - lo] = this.patternOfDay(d);
    for (let i = 0; i < n - 1; i++) cum[i + 1] = cum[i]! + this.patternWork[pat[i]!]!;
    const shift = anchorCum - (anchorDay >= lo && anchorDay <= hi ? cum[anchorDay - lo]! : 0);
    for (let i = 0; i < n; i++) cum[i] = cum[i]! + shift;
    this.lo = lo;
    this.hi = hi;
    this.cum = cum;
    this.pat = pat;
    this.posLo = cum[0]!;
    this.posHi = cum[n - 1]!;
    if (this.zone.isUtc) {
      this.exactLo = this.posLo;
      this.exactHi = this.posHi;
    }
    if (this.wkFin !== null) {
      // Position of local minute 0 of week 0: cum[0] minus the work from there to day lo.
      const k = Math.floor((lo + 4) / 7);
      let before = k * this.wkWork;
      for (let d = 7 * k - 4; d < lo; d++) before += this.patternWork[this.weeklyPattern[(((d + 4) % 7) + 7) % 7]!]!;
      this.wkOff = cum[0]! - before;
    }
    const span = cum[n - 1]! - cum[0]!;
    this.daysPerWork = span > 0 ? (n - 1) / span : 0;
  }

  /** Working position of a local wall-clock minute. */
  private posLocal(t: number): number {
    const day = Math.floor(t / 1440);
    if (!(day >= this.lo && day < this.hi) && !this.ensure(day)) return t < 0 || day < this.lo ? this.cum[0]! : this.cum[this.hi - this.lo]!;
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

  /** Index i (day lo+i) with cum[i] < w <= cum[i]+work, growing the table as needed; -1 if impossible. */
  private dayEndingAt(w: number): number {
    for (;;) {
      const n = this.hi - this.lo;
      if (w > this.cum[0]! && w <= this.cum[n]!) break;
      if (!this.ensure(w <= this.cum[0]! ? this.lo - 1 : this.hi)) return -1;
    }
    return this.walkToDay(w, false);
  }

  /** Index i with cum[i] <= w < cum[i]+work (smallest such day); -1 if impossible. */
  private dayStartingAt(w: number): number {
    for (;;) {
      const n = this.hi - this.lo;
      if (w >= this.cum[0]! && w < this.cum[n]!) break;
      if (!this.ensure(w < this.cum[0]! ? this.lo - 1 : this.hi)) return -1;
    }
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
    if (fin !== null && w > this.posLo && w <= this.posHi && w === Math.floor(w)) {
      // Inside the table: the week and the minute of the week directly (see wkFin).
      const u = w - this.wkOff;
      const k = Math.floor((u - 1) / this.wkWork);
      return k * 10080 - 5760 + fin[u - k * this.wkWork]!;
    }
    const i = this.dayEndingAt(w);
    if (i < 0) return w < this.cum[0]! ? this.lo * 1440 : this.hi * 1440;
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
    if (st !== null && w >= this.posLo && w < this.posHi && w === Math.floor(w)) {
      const u = w - this.wkOff;
      const k = Math.floor(u / this.wkWork);
      return k * 10080 - 5760 + st[u - k * this.wkWork]!;
    }
    const i = this.dayStartingAt(w);
    if (i < 0) return w < this.cum[0]! ? this.lo * 1440 : this.hi * 1440;
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
   * True when `w` is an integer position strictly inside the current day table of a UTC
   * calendar: then `position(startAtPosition(w)) === w` and `position(finishAtPosition(w))
   * === w`, and these instants' positions never change (the table only grows around
   * them), so a caller may remember `w` as their position instead of looking it up again.
   */
  exactPosition(w: number): boolean {
    return w > this.exactLo && w < this.exactHi && w === Math.floor(w);
  }

  /** Working position (working minutes since an arbitrary origin) of a UTC instant. */
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
    out.set(id, new WorkCalendar(id, new TimeZone(r.zone), r.rules));
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
