import { nowIso, type DomainContext } from '../context.js';
import { loadPlan, planSpan, recalculate } from './plan.js';
import { changedTaskRows } from './write-plan.js';

/**
 * The version of what plan writes derive and store: the schedule (dates, float, critical
 * flags), what summaries roll up, the project's finish. Raise it with a change that
 * derives a stored value differently or stores a new one, and say here what changed: the
 * upgrade then recomputes every plan once (`upgradeDerivedValues`).
 *
 * 1. Summaries roll up their actuals: actual start and finish, actual and remaining duration.
 * 2. A manually scheduled task without links is critical at zero slack unless its duration
 *    is an estimate (`durationEstimated`); before, such a task was never critical.
 */
export const DERIVED_VALUES_VERSION = 2;

/**
 * Recomputes the derived values of every project an older version computed, run after the
 * migrations by every process before it serves (`gantry migrate`, `serve`, `worker`, CLI
 * commands). Without it, such values would wait for the project's next write, which would
 * report them as its own changes (`task.updated` credited to whoever wrote).
 *
 * One project at a time, with its writes locked; a project another process has recomputed
 * meanwhile is skipped, and an interrupted upgrade resumes where it stopped. Rows whose
 * values change are saved with `updatedAt` moved (every stored change sets it) and the plan
 * version moved (caches miss), but no event is appended: no one changed the plan, and each
 * task's next event carries its values. Answers how many projects were recomputed.
 */
export async function upgradeDerivedValues(ctx: Pick<DomainContext, 'store' | 'clock'>): Promise<number> {
  let recomputed = 0;
  for (const projectId of await ctx.store.q.projects.idsDerivedBefore(DERIVED_VALUES_VERSION)) {
    const done = await ctx.store.transaction(async (tx) => {
      const project = await tx.projects.findForWrite(projectId);
      if (!project || project.derived_values_version >= DERIVED_VALUES_VERSION) return false;
      const plan = await loadPlan(tx, project);
      const { finishAt } = planSpan(plan, recalculate(plan, { full: true }));
      const saved = changedTaskRows(plan, nowIso(ctx));
      await tx.tasks.upsertMany(saved);
      const moved = saved.length > 0 || finishAt !== project.finish_at;
      await tx.projects.update(projectId, {
        derived_values_version: DERIVED_VALUES_VERSION,
        ...(moved ? { plan_version: project.plan_version + 1, finish_at: finishAt } : {}),
      });
      return true;
    });
    if (done) recomputed += 1;
  }
  return recomputed;
}
