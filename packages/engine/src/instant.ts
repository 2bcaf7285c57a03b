/**
 * Conversions between ISO-8601 strings, UTC epoch minutes and calendar-local wall-clock
 * minutes. The engine works internally on integer epoch minutes (UTC); calendars convert
 * to their own wall-clock time only inside their arithmetic (product decision 1).
 */

/**
 * Parses an ISO-8601 instant (or `YYYY-MM-DD`, read as 00:00 UTC) into UTC epoch minutes.
 * Seconds are truncated. Returns `null` for `null`, `undefined`, empty or unparsable input;
 * never throws.
 */
export function toEpochMinutes(iso: string | null | undefined): number | null {
  if (iso === null || iso === undefined || iso === '') return null;
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return null;
  return Math.floor(ms / 60000);
}

/**
 * Direct-mapped caches (a collision simply overwrites the slot): a schedule formats tens
 * of thousands of instants, mostly the same few thousand (day starts and ends). Instants
 * are cached in per-day groups of 64 slots (4096 days), so formatting the instants of a
 * plan in roughly chronological order touches few cache lines: a typed-array probe that
 * is much cheaper than a `Map` lookup.
 */
const DAY_GROUPS = 1 << 12;
const GROUP_BITS = 6;
const isoKeys = new Float64Array(DAY_GROUPS << GROUP_BITS).fill(Number.NaN);
const isoVals: string[] = new Array<string>(DAY_GROUPS << GROUP_BITS).fill('');
const DAY_SLOTS = 1 << 14;
const dayKeys = new Float64Array(DAY_SLOTS).fill(Number.NaN);
const dayVals: string[] = new Array<string>(DAY_SLOTS).fill('');
const timeVals: (string | undefined)[] = new Array<string | undefined>(1440).fill(undefined);

/**
 * Formats UTC epoch minutes exactly like `new Date(m * 60000).toISOString()`, but faster:
 * whole instants and `YYYY-MM-DDT` day prefixes are cached.
 */
export function toIsoString(epochMinutes: number): string {
  const day = Math.floor(epochMinutes / 1440);
  const slot = ((day & (DAY_GROUPS - 1)) << GROUP_BITS) | (Math.imul(epochMinutes - day * 1440, 0x9e3779b1) >>> (32 - GROUP_BITS));
  if (isoKeys[slot] === epochMinutes) return isoVals[slot]!;
  const s = formatIso(epochMinutes);
  if (epochMinutes === Math.floor(epochMinutes)) {
    isoKeys[slot] = epochMinutes;
    isoVals[slot] = s;
  }
  return s;
}

function formatIso(epochMinutes: number): string {
  const day = Math.floor(epochMinutes / 1440);
  const slot = day & (DAY_SLOTS - 1); // consecutive days: no collisions within ~45 years
  let prefix: string;
  if (dayKeys[slot] === day) prefix = dayVals[slot]!;
  else {
    const d = new Date(day * 86_400_000);
    if (!Number.isFinite(d.getTime())) return new Date(0).toISOString();
    prefix = d.toISOString().slice(0, 11);
    dayKeys[slot] = day;
    dayVals[slot] = prefix;
  }
  const m = epochMinutes - day * 1440;
  if ((m | 0) === m) {
    // Whole minutes: `HH:MM:00.000Z` from a table built on first use.
    let tail = timeVals[m];
    if (tail === undefined) {
      const h = (m / 60) | 0;
      const mm = m - h * 60;
      tail = `${h < 10 ? '0' : ''}${h}:${mm < 10 ? '0' : ''}${mm}:00.000Z`;
      timeVals[m] = tail;
    }
    return prefix + tail;
  }
  const h = (m / 60) | 0;
  const mm = m - h * 60;
  return `${prefix}${h < 10 ? '0' : ''}${h}:${mm < 10 ? '0' : ''}${mm}:00.000Z`;
}

/**
 * A fixed IANA time zone: converts UTC epoch minutes to local wall-clock minutes ("local
 * epoch minutes", i.e. the wall-clock reading expressed as if it were UTC) and back.
 * Unknown zone names fall back to UTC rather than throwing, so scheduling never fails on
 * a bad zone; validation belongs to the API layer.
 */
export class TimeZone {
  /** The zone name actually used (`'UTC'` after a fallback). */
  readonly name: string;
  readonly isUtc: boolean;
  private readonly fmt: Intl.DateTimeFormat | null;
  /** Offset (minutes) per UTC hour, cached because Intl formatting is slow. */
  private readonly offsetCache = new Map<number, number>();

  constructor(name: string | null | undefined) {
    let fmt: Intl.DateTimeFormat | null = null;
    let used = 'UTC';
    const n = name ?? 'UTC';
    if (n !== 'UTC' && n !== 'Etc/UTC' && n !== 'Z') {
      try {
        fmt = new Intl.DateTimeFormat('en-US', {
          timeZone: n,
          hourCycle: 'h23',
          year: 'numeric',
          month: 'numeric',
          day: 'numeric',
          hour: 'numeric',
          minute: 'numeric',
        });
        used = n;
      } catch {
        fmt = null;
      }
    }
    this.fmt = fmt;
    this.name = used;
    this.isUtc = fmt === null;
  }

  /** Offset local − UTC in minutes at the given UTC instant. */
  offsetAt(utcMin: number): number {
    if (this.fmt === null) return 0;
    const hour = Math.floor(utcMin / 60);
    const cached = this.offsetCache.get(hour);
    if (cached !== undefined) return cached;
    let y = 1970;
    let mo = 1;
    let d = 1;
    let h = 0;
    let mi = 0;
    for (const p of this.fmt.formatToParts(new Date(hour * 3_600_000))) {
      if (p.type === 'year') y = Number(p.value);
      else if (p.type === 'month') mo = Number(p.value);
      else if (p.type === 'day') d = Number(p.value);
      else if (p.type === 'hour') h = Number(p.value);
      else if (p.type === 'minute') mi = Number(p.value);
    }
    const local = Date.UTC(y, mo - 1, d, h, mi) / 60000;
    const off = Math.round(local - hour * 60);
    if (this.offsetCache.size > 200_000) this.offsetCache.clear();
    this.offsetCache.set(hour, off);
    return off;
  }

  toLocal(utcMin: number): number {
    return this.fmt === null ? utcMin : utcMin + this.offsetAt(utcMin);
  }

  /**
   * Local wall-clock minutes → UTC. For a wall-clock time that occurs twice (DST fall-back)
   * the earlier instant is returned; for one that does not exist (spring-forward gap) the
   * instant just after the gap is returned.
   */
  toUtc(localMin: number): number {
    if (this.fmt === null) return localMin;
    const o1 = this.offsetAt(localMin - this.offsetAt(localMin));
    const guess1 = localMin - o1;
    const o2 = this.offsetAt(guess1);
    if (o2 === o1) {
      // Prefer the earlier of two valid readings (fall-back ambiguity).
      const earlierOffset = Math.max(o1, this.offsetAt(guess1 - 180));
      const alt = localMin - earlierOffset;
      if (alt < guess1 && alt + this.offsetAt(alt) === localMin) return alt;
      return guess1;
    }
    // In a gap: no UTC instant maps to localMin; take the transition instant.
    return Math.max(guess1, localMin - o2);
  }
}
