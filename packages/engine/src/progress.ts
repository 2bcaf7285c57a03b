import { STANDARD_CALENDAR, createCalendar, type WorkCalendar } from './calendar.js';
import { toEpochMinutes, toIsoString } from './instant.js';

/** Progress fields of one task (API names). Instants are ISO strings. */
export interface ProgressState {
  durationMin: number;
  progressPct: number;
  actualDurationMin: number;
  remainingDurationMin: number;
  actualStartAt: string | null;
  actualFinishAt: string | null;
}

/** One progress edit; `scheduledStartAt`/`scheduledFinishAt` are the task's current computed dates. */
export type ProgressEdit =
  | { kind: 'progressPct'; progressPct: number; scheduledStartAt?: string | null; scheduledFinishAt?: string | null }
  | { kind: 'actualDurationMin'; actualDurationMin: number; scheduledStartAt?: string | null }
  | { kind: 'remainingDurationMin'; remainingDurationMin: number }
  | { kind: 'actualStartAt'; actualStartAt: string | null }
  | { kind: 'actualFinishAt'; actualFinishAt: string | null; scheduledStartAt?: string | null };

let std: WorkCalendar | null = null;

/**
 * Applies one progress edit the way Microsoft Project relates % complete, actual and
 * remaining duration (docs/scheduling.md › Progress, decision 9). Pure; minutes are integers,
 * `progressPct` is rounded to 2 decimals. `calendar` (default Standard) measures the
 * duration between actual start and actual finish. Never throws.
 */
export function applyProgressEdit(state: ProgressState, edit: ProgressEdit, calendar?: WorkCalendar): ProgressState {
  const s: ProgressState = { ...state };
  const pctOf = (a: number, d: number) => (d > 0 ? Math.round((10000 * a) / d) / 100 : a > 0 ? 100 : s.progressPct >= 100 ? 100 : 0);
  const cal = calendar ?? (std ??= createCalendar(STANDARD_CALENDAR));
  switch (edit.kind) {
    case 'progressPct': {
      const p = Math.min(100, Math.max(0, edit.progressPct));
      s.progressPct = p;
      s.actualDurationMin = Math.round((s.durationMin * p) / 100);
      s.remainingDurationMin = s.durationMin - s.actualDurationMin;
      if (p > 0 && !s.actualStartAt) s.actualStartAt = edit.scheduledStartAt ?? null;
      if (p >= 100 && !s.actualFinishAt) s.actualFinishAt = edit.scheduledFinishAt ?? null;
      if (p < 100) s.actualFinishAt = null;
      return s;
    }
    case 'actualDurationMin': {
      const a = Math.max(0, Math.round(edit.actualDurationMin));
      s.actualDurationMin = a;
      if (a > s.durationMin) s.durationMin = a;
      s.remainingDurationMin = s.durationMin - a;
      s.progressPct = pctOf(a, s.durationMin);
      if (a > 0 && !s.actualStartAt) s.actualStartAt = edit.scheduledStartAt ?? null;
      return s;
    }
    case 'remainingDurationMin': {
      const r = Math.max(0, Math.round(edit.remainingDurationMin));
      s.remainingDurationMin = r;
      s.durationMin = s.actualDurationMin + r;
      s.progressPct = pctOf(s.actualDurationMin, s.durationMin);
      return s;
    }
    case 'actualStartAt':
      s.actualStartAt = edit.actualStartAt;
      return s;
    case 'actualFinishAt': {
      s.actualFinishAt = edit.actualFinishAt;
      if (edit.actualFinishAt === null) return s;
      const start = s.actualStartAt ?? edit.scheduledStartAt ?? null;
      const a = toEpochMinutes(start);
      const f = toEpochMinutes(edit.actualFinishAt);
      if (a !== null && f !== null && f >= a) {
        s.actualStartAt = toIsoString(a);
        s.durationMin = cal.workBetween(a, f);
      }
      s.actualDurationMin = s.durationMin;
      s.remainingDurationMin = 0;
      s.progressPct = 100;
      return s;
    }
  }
  return s;
}
