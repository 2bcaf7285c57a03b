import { limits, type Forecast } from '@gantry/contract';
import { hasDurationRange, simulateFinishes } from '@gantry/engine';
import { yieldIfBusy } from '../../time-slice.js';
import type { Actor, DomainContext } from '../context.js';
import { requireProject } from '../permissions.js';
import { engineInput, loadPlan } from './plan.js';

/** The finish by which `share` of the (sorted) simulated finishes fall. */
function percentile(sorted: readonly string[], share: number): string {
  return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)]!;
}

/**
 * A Monte Carlo forecast of the project finish (viewers): `runs` plans with every uncertain
 * duration drawn from its PERT range, recalculated by the engine; nothing is saved. Large
 * plans get fewer runs (the task schedulings in all are bounded), and the event loop gets
 * turns between runs.
 */
export async function forecastFinish(ctx: DomainContext, actor: Actor, projectId: string, options: { runs: number; seed: number }): Promise<Forecast> {
  const { project } = await requireProject(ctx, actor, projectId, 'viewer');
  // Read as committed: a cached plan may be the one a write is changing.
  const input = engineInput(await loadPlan(ctx.store.q, project));
  const runs = Math.max(1, Math.min(options.runs, Math.floor(limits.forecastTaskRunsMax / Math.max(1, input.tasks.length))));
  const finishes: string[] = [];
  for (const finish of simulateFinishes(input, { runs, seed: options.seed })) {
    finishes.push(finish ?? project.finish_at);
    await yieldIfBusy();
  }
  finishes.sort();
  return {
    runs,
    seed: options.seed,
    uncertainTaskCount: input.tasks.filter(hasDurationRange).length,
    finishAt: project.finish_at,
    p50FinishAt: percentile(finishes, 0.5),
    p80FinishAt: percentile(finishes, 0.8),
    p95FinishAt: percentile(finishes, 0.95),
  };
}
