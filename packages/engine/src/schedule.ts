import { sameRow } from './results.js';
import { Scheduler } from './scheduler.js';
import type { ScheduleInput, ScheduleResult } from './types.js';

export interface ScheduleOptions {
  /**
   * A previous result of the same project: the run then reports in `changedTaskIds` only
   * the tasks whose computed values differ from it (to drive `savedCount` and
   * `task.dates_changed`). Without it every task is reported as changed.
   */
  previous?: ScheduleResult | null;
}

/**
 * Schedules a project from scratch: pure, deterministic (input order never matters) and
 * total (malformed input never throws; cycles are reported in `cycles` and their links
 * ignored for the dates). For incremental recalculation keep a `Scheduler` per project.
 */
export function schedule(input: ScheduleInput, options: ScheduleOptions = {}): ScheduleResult {
  const s = new Scheduler(input);
  if (!options.previous) return s.current;
  // Re-diff against the caller's previous result instead of "all new".
  const prevById = new Map(options.previous.tasks.map((t) => [t.id, t]));
  const changed: string[] = [];
  for (const t of s.current.tasks) {
    const o = prevById.get(t.id);
    if (!o || !sameRow(o, t)) changed.push(t.id);
  }
  return { ...s.current, changedTaskIds: changed };
}
