import {
  schedule,
  type CalendarInput,
  type DependencyType,
  type ScheduleInput,
  type ScheduleResult,
  type TaskInput,
  type TaskResult,
} from '../../src/index.js';

/** `at(3, '13:00')` → 2026-03-03T13:00:00.000Z (the week of the examples in docs/scheduling.md); month defaults to March. */
export function at(day: number, hm: string, month = 3): string {
  return `2026-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T${hm}:00.000Z`;
}

export type T = Partial<TaskInput> & { id: string };
/** A link: predecessor, successor, type (FS), lag (0) and `'elapsed'` for an elapsed lag. */
export type L = [string, string, DependencyType?, number?, 'elapsed'?];

export interface Built {
  input: ScheduleInput;
  result: ScheduleResult;
  t: (id: string) => TaskResult;
}

/** Builds and schedules a plan on the Standard calendar starting Mon 02 Mar 2026 08:00. */
export function plan(
  tasks: T[],
  links: L[] = [],
  opts: { startAt?: string; calendars?: CalendarInput[]; scheduleFrom?: 'forward' | 'backward'; finishAt?: string } = {},
): Built {
  const input: ScheduleInput = {
    project: {
      startAt: opts.startAt ?? at(2, '08:00'),
      scheduleFrom: opts.scheduleFrom ?? 'forward',
      finishAt: opts.finishAt ?? null,
    },
    calendars: opts.calendars ?? [],
    tasks: tasks.map((t) => ({ name: t.id, type: 'task', durationMin: 480, ...t })),
    dependencies: links.map(([p, s, type, lag, elapsed], k) => ({
      id: `d${k}`,
      predecessorId: p,
      successorId: s,
      type: type ?? 'FS',
      lagMin: lag ?? 0,
      lagElapsed: elapsed === 'elapsed',
    })),
  };
  const result = schedule(input);
  const byId = new Map(result.tasks.map((r) => [r.id, r]));
  return { input, result, t: (id) => byId.get(id)! };
}

/** Compact view of a task for assertions: [start, finish]. */
export function span(r: TaskResult): [string, string] {
  return [r.startAt, r.finishAt];
}
