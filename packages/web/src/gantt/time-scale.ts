/** How the timeline maps time to pixels at each zoom, and the labels of its header. */
import { displayLocale, wallClockMs } from '../format';

export type Zoom = 'day' | 'week' | 'month';

const dayMs = 86_400_000;
export const pixelsPerDay: Record<Zoom, number> = { day: 36, week: 10, month: 2.5 };

/**
 * The timeline counts days on the plan's wall clock (`wallClockMs`: the zone of its
 * calendar), so a day column is a day where the work happens.
 */
export interface TimeScale {
  zoom: Zoom;
  /** Midnight of the first day shown, on the plan's wall clock. */
  originMs: number;
  /** Width of the whole timeline, in pixels. */
  width: number;
  /** Where an instant is. */
  x(iso: string | number): number;
  /** Where a wall-clock time (milliseconds of it read as UTC) is. */
  wallX(wallMs: number): number;
  /** The wall-clock time at a pixel offset. */
  at(x: number): number;
}

function startOfDay(ms: number): number {
  return Math.floor(ms / dayMs) * dayMs;
}

/** A scale covering `fromMs`–`toMs` with a margin on each side (a week, or more when zoomed out). */
export function timeScale(zoom: Zoom, fromMs: number, toMs: number): TimeScale {
  const margin = zoom === 'month' ? 60 : zoom === 'week' ? 21 : 7;
  const originMs = startOfDay(wallClockMs(fromMs)) - margin * dayMs;
  const days = Math.ceil((wallClockMs(toMs) - originMs) / dayMs) + margin;
  const perDay = pixelsPerDay[zoom];
  const wallX = (wallMs: number) => ((wallMs - originMs) / dayMs) * perDay;
  return {
    zoom,
    originMs,
    width: Math.ceil(days * perDay),
    x: (value) => wallX(wallClockMs(typeof value === 'number' ? value : Date.parse(value))),
    wallX,
    at: (x) => originMs + (x / perDay) * dayMs,
  };
}

export interface Tick {
  x: number;
  width: number;
  label: string;
  /** Saturday and Sunday at day zoom, shaded as non-working. */
  weekend: boolean;
}

// Ticks are wall-clock times read as UTC: labelled in UTC, they name the plan's own days.
const labels = (locale: string | undefined) => ({
  day: new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'narrow', day: 'numeric' }),
  week: new Intl.DateTimeFormat(locale, { timeZone: 'UTC', month: 'short', day: 'numeric' }),
  month: new Intl.DateTimeFormat(locale, { timeZone: 'UTC', month: 'short', year: 'numeric' }),
});
let labelsOf = { locale: displayLocale(), ...labels(displayLocale()) };

/** The header cells between two pixel offsets (only what is on screen is built). */
export function ticks(scale: TimeScale, fromX: number, toX: number): Tick[] {
  if (labelsOf.locale !== displayLocale()) labelsOf = { locale: displayLocale(), ...labels(displayLocale()) };
  const out: Tick[] = [];
  let ms = startOfDay(scale.at(Math.max(0, fromX)));
  if (scale.zoom === 'week') ms -= ((new Date(ms).getUTCDay() + 6) % 7) * dayMs;
  if (scale.zoom === 'month') ms = Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth(), 1);
  while (scale.wallX(ms) < toX) {
    const date = new Date(ms);
    const next = scale.zoom === 'day' ? ms + dayMs : scale.zoom === 'week' ? ms + 7 * dayMs : Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
    const label = labelsOf[scale.zoom].format(date);
    const weekday = date.getUTCDay();
    out.push({ x: scale.wallX(ms), width: scale.wallX(next) - scale.wallX(ms), label, weekend: scale.zoom === 'day' && (weekday === 0 || weekday === 6) });
    ms = next;
  }
  return out;
}

/**
 * Working days (Monday to Friday on the plan's wall clock) between two instants, signed:
 * what a resize by that many calendar days adds to a task's duration.
 */
export function workingDaysBetween(fromMs: number, toMs: number): number {
  const sign = toMs < fromMs ? -1 : 1;
  const [from, to] = [wallClockMs(Math.min(fromMs, toMs)), wallClockMs(Math.max(fromMs, toMs))];
  let count = 0;
  for (let ms = startOfDay(from); ms < startOfDay(to); ms += dayMs) {
    const weekday = new Date(ms).getUTCDay();
    if (weekday !== 0 && weekday !== 6) count += 1;
  }
  return sign * count;
}

export const dayInMs = dayMs;
