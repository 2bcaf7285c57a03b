import { Scheduler } from './scheduler.js';
import type { ScheduleInput, TaskInput } from './types.js';

/**
 * A pseudo-random number generator of `[0, 1)` from a 32-bit seed (mulberry32): a forecast
 * with the same seed gives the same answer, so a test (or a person comparing two runs)
 * sees the plan change, not the dice.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal variate (Box–Muller). */
function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** A Gamma(shape, 1) variate, shape ≥ 1 (Marsaglia and Tsang). */
function gamma(shape: number, random: () => number): number {
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal(random);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = 1 - random();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

/**
 * A duration drawn from the Beta-PERT distribution between the optimistic and the
 * pessimistic duration, most likely `mostLikely` (its mean is the PERT expected duration
 * `(O + 4M + P) / 6`), in whole minutes.
 */
export function pertSample(optimistic: number, mostLikely: number, pessimistic: number, random: () => number): number {
  if (pessimistic <= optimistic) return Math.round(mostLikely);
  const m = Math.min(Math.max(mostLikely, optimistic), pessimistic);
  const range = pessimistic - optimistic;
  const x = gamma(1 + (4 * (m - optimistic)) / range, random);
  const y = gamma(1 + (4 * (pessimistic - m)) / range, random);
  return Math.round(optimistic + (x / (x + y)) * range);
}

/** Whether a task's duration is uncertain: both ends of its range are given (and it is scheduled by its duration). */
export function hasDurationRange(task: TaskInput): task is TaskInput & { durationOptimisticMin: number; durationPessimisticMin: number } {
  return typeof task.durationOptimisticMin === 'number' && typeof task.durationPessimisticMin === 'number' && task.type !== 'summary' && task.type !== 'milestone' && !task.manuallyScheduled;
}

/**
 * The project finish of `runs` plans, each with every uncertain task's duration drawn from
 * its PERT range (Monte Carlo); one finish (ISO instant, or null for an empty plan) per
 * run, as a generator so a caller can give its event loop turns between runs. Runs are
 * incremental: only what the drawn durations move is recalculated.
 */
export function* simulateFinishes(input: ScheduleInput, options: { runs: number; seed: number }): Generator<string | null, void, undefined> {
  const random = seededRandom(options.seed);
  const scheduler = new Scheduler(input);
  const uncertainIndexes = input.tasks.flatMap((task, index) => (hasDurationRange(task) ? [index] : []));
  const changedTaskIds = uncertainIndexes.map((index) => input.tasks[index]!.id);
  for (let run = 0; run < options.runs; run++) {
    const tasks = input.tasks.slice();
    for (const index of uncertainIndexes) {
      const task = tasks[index] as TaskInput & { durationOptimisticMin: number; durationPessimisticMin: number };
      tasks[index] = { ...task, durationMin: pertSample(task.durationOptimisticMin, task.durationMin ?? 0, task.durationPessimisticMin, random) };
    }
    yield scheduler.update({ ...input, tasks }, { changedTaskIds, changedDependencyIds: [] }).projectFinishAt;
  }
}
