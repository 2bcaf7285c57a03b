import type { FieldProblem, LevelingRequest, LevelingSummary } from '@gantry/contract';
import { levelResources, type LevelingDelayChange, type Overallocation } from '@gantry/engine';
import type { TaskRow } from '../../store/store.js';
import type { Actor, DomainContext } from '../context.js';
import { invalid } from '../errors.js';
import type { PlanChanges } from './apply-changes.js';
import { engineInput, type Plan } from './plan.js';
import { taskKey } from './presenters.js';
import { writePlan, type PlanWriteResult } from './write-plan.js';

/** What leveling found on the plan as committed, before the write applies it. */
interface Leveled {
  resourceIds: string[];
  finishAt: string;
  /** The tasks whose delay changes, as committed: the write's plan holds only their new rows once it has committed. */
  changed: Readonly<TaskRow>[];
  changes: LevelingDelayChange[];
  overallocations: Overallocation[];
}

/**
 * Levels the project's resources (editors and owners): the engine computes every task's
 * leveling delay on the plan as committed, under the project's write lock, and the delays
 * that change are saved as task edits through the one write path — the same checks,
 * recalculation, events (`task.updated` with `levelingDelayMin`, `task.dates_changed`),
 * plan version and answer as a change set editing them. Nothing to level changes nothing.
 */
export async function levelProject(ctx: DomainContext, actor: Actor, projectId: string, request: LevelingRequest): Promise<PlanWriteResult & { leveling: LevelingSummary }> {
  const changes: PlanChanges = { createTasks: [], updateTasks: [], createDependencies: [], deleteDependencyIds: [], fullReschedule: false };
  let leveled: Leveled | undefined;
  const written = await writePlan(ctx, actor, projectId, changes, async (_tx, plan) => {
    leveled = level(plan, request.resourceIds);
    changes.updateTasks.push(...leveled.changes.map(({ taskId, toMin }) => ({ id: taskId, levelingDelayMin: toMin, path: '' })));
  });
  const { resourceIds, finishAt, changed, overallocations } = leveled!;
  const { plan } = written;
  const tasks = changed
    .map((before) => ({ before, after: plan.tasks.get(before.id)! }))
    .sort((a, b) => a.after.number - b.after.number)
    .map(({ before, after }) => ({
      taskId: after.id,
      key: taskKey(plan.project.key, after),
      levelingDelayMin: { from: before.leveling_delay_min, to: after.leveling_delay_min },
      startAt: { from: before.start_at, to: after.start_at },
      finishAt: { from: before.finish_at, to: after.finish_at },
    }));
  return {
    ...written,
    leveling: { resourceIds, tasks, projectFinishAt: { from: finishAt, to: written.projectFinishAt }, overallocations },
  };
}

/** The engine's leveling of the plan: the resources named (400 for one the project does not have) or every resource. */
function level(plan: Plan, only: readonly string[] | undefined): Leveled {
  const problems: FieldProblem[] = (only ?? []).flatMap((id, index) => (plan.resources.has(id) ? [] : [{ path: `resourceIds[${index}]`, message: 'no such resource in this project' }]));
  if (problems.length > 0) throw invalid(problems);
  const resourceIds = [...new Set(only ?? [...plan.resources.values()].map((resource) => resource.id))].sort();
  // Microsoft Project breaks ties by ID: ours is the task number.
  const tieOrder = [...plan.tasks.values()].sort((a, b) => a.number - b.number).map((task) => task.id);
  const capacityPct = Object.fromEntries([...plan.resources.values()].map((resource) => [resource.id, resource.max_units_pct]));
  const { delays, overallocations } = levelResources(engineInput(plan), { resourceIds, tieOrder, capacityPct });
  return { resourceIds, finishAt: plan.project.finish_at, changed: delays.map(({ taskId }) => plan.tasks.get(taskId)!), changes: delays, overallocations };
}
