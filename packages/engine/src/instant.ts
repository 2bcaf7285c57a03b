/**
 * Conversions between ISO-8601 strings, UTC epoch minutes and calendar-local wall-clock
 * minutes. The engine works internally on integer epoch minutes (UTC); calendars convert
 * to their own wall-clock time only inside their arithmetic (docs/scheduling.md, decision 1).
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
 * A schedule formats tens of thousands of instants, mostly the same few thousand (day
 * starts and ends), so formatted instants are cached in an open-addressing hash table
 * (linear probing) on integer keys: `isoSlots` holds (instant, index into `isoStrings`)
 * pairs side by side, so a probe reads one cache line, and the strings sit in the order
 * they were first formatted, which is roughly the order a plan asks for them again. Probes
 * mostly miss the CPU cache, so the table is kept small (2^15 slots, 256 KB: measurably
 * faster than 512 KB on a 10k-task plan with 15k distinct instants); when it is half full
 * it is emptied and refilled. Day prefixes (`YYYY-MM-DDT`) have their own direct-mapped
 * table.
 */
const ISO_BITS = 15;
const SLOT_MASK = (2 << ISO_BITS) - 1;
const NO_KEY = -2147483648;
const isoSlots = new Int32Array(2 << ISO_BITS).fill(NO_KEY);
const isoStrings: string[] = [];
const DAY_SLOTS = 1 << 14;
const dayKeys = new Float64Array(DAY_SLOTS).fill(Number.NaN);
const dayVals: string[] = new Array<string>(DAY_SLOTS).fill('');
const timeVals: (string | undefined)[] = new Array<string | undefined>(1440).fill(undefined);

/** Formats UTC epoch minutes exactly like `new Date(m * 60000).toISOString()`, but faster (cached). */
export function toIsoString(epochMinutes: number): string {
  const m = epochMinutes;
  // Only whole minutes in int32 range are cached (all instants the engine computes).
  if ((m | 0) !== m || m === NO_KEY) return formatIso(m);
  let slot = (Math.imul(m, 0x9e3779b1) >>> (32 - ISO_BITS)) << 1;
  for (;;) {
    const k = isoSlots[slot]!;
    if (k === m) return isoStrings[isoSlots[slot + 1]!]!;
    if (k === NO_KEY) break;
    slot = (slot + 2) & SLOT_MASK;
  }
  if (isoStrings.length >= 1 << (ISO_BITS - 1)) {
    isoSlots.fill(NO_KEY);
    isoStrings.length = 0;
    slot = (Math.imul(m, 0x9e3779b1) >>> (32 - ISO_BITS)) << 1;
  }
  const s = formatIso(m);
  isoSlots[slot] = m;
  isoSlots[slot + 1] = isoStrings.length;
  isoStrings.push(s);
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
    // Years outside 0000-9999 use the extended format (±YYYYYY): no cached prefix.
    const y = d.getUTCFullYear();
    if (y < 0 || y > 9999) return new Date(epochMinutes * 60_000).toISOString();
    prefix = d.toISOString().slice(0, 11);
    dayKeys[slot] = day;
    dayVals[slot] = prefix;
  }
  const m = epochMinutes - day * 1440;
  // Fractions of a minute (never computed by the engine) take the slow, exact path.
  if ((m | 0) !== m) return new Date(epochMinutes * 60_000).toISOString();
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
  private static readonly byName = new Map<string, TimeZone>();

  /**
   * The zone of that name, made once per process: making one builds an Intl formatter, and
   * its offsets, once read, stay cached for every later recalculation.
   */
  static named(name: string | null | undefined): TimeZone {
    const key = name ?? 'UTC';
    let zone = TimeZone.byName.get(key);
    if (!zone) {
      // Names come from calendars, checked by the API; the bound only guards against arbitrary input.
      if (TimeZone.byName.size >= 1000) TimeZone.byName.clear();
      TimeZone.byName.set(key, (zone = new TimeZone(key)));
    }
    return zone;
  }

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
