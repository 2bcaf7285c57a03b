/** How the timeline maps time to pixels at each zoom, and the labels of its header. */
import { displayLocale } from '../format';

export type Zoom = 'day' | 'week' | 'month';

const dayMs = 86_400_000;
export const pixelsPerDay: Record<Zoom, number> = { day: 36, week: 10, month: 2.5 };

export interface TimeScale {
  zoom: Zoom;
  /** Midnight UTC of the first day shown. */
  originMs: number;
  /** Width of the whole timeline, in pixels. */
  width: number;
  x(iso: string | number): number;
  /** The instant at a pixel offset, for drags. */
  at(x: number): number;
}

function startOfDay(ms: number): number {
  return Math.floor(ms / dayMs) * dayMs;
}

/** A scale covering `fromMs`–`toMs` with a margin on each side (a week, or more when zoomed out). */
export function timeScale(zoom: Zoom, fromMs: number, toMs: number): TimeScale {
  const margin = zoom === 'month' ? 60 : zoom === 'week' ? 21 : 7;
  const originMs = startOfDay(fromMs) - margin * dayMs;
  const days = Math.ceil((toMs - originMs) / dayMs) + margin;
  const perDay = pixelsPerDay[zoom];
  return {
    zoom,
    originMs,
    width: Math.ceil(days * perDay),
    x: (value) => (((typeof value === 'number' ? value : Date.parse(value)) - originMs) / dayMs) * perDay,
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
  while (scale.x(ms) < toX) {
    const date = new Date(ms);
    const next = scale.zoom === 'day' ? ms + dayMs : scale.zoom === 'week' ? ms + 7 * dayMs : Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
    const label = labelsOf[scale.zoom].format(date);
    const weekday = date.getUTCDay();
    out.push({ x: scale.x(ms), width: scale.x(next) - scale.x(ms), label, weekend: scale.zoom === 'day' && (weekday === 0 || weekday === 6) });
    ms = next;
  }
  return out;
}

/**
 * Working days of the Standard calendar (Monday to Friday) between two instants, signed:
 * what a resize by that many calendar days adds to a task's duration.
 */
export function workingDaysBetween(fromMs: number, toMs: number): number {
  const sign = toMs < fromMs ? -1 : 1;
  let count = 0;
  for (let ms = startOfDay(Math.min(fromMs, toMs)); ms < startOfDay(Math.max(fromMs, toMs)); ms += dayMs) {
    const weekday = new Date(ms).getUTCDay();
    if (weekday !== 0 && weekday !== 6) count += 1;
  }
  return sign * count;
}

export const dayInMs = dayMs;
