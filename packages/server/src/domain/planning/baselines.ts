import { randomUUID } from 'node:crypto';
import type { Baseline } from '@gantry/contract';
import type { BaselineRow, ProjectRow, Queries, TaskRow } from '../../store/store.js';
import { nowIso, type Actor, type DomainContext } from '../context.js';
import { appendEvents } from '../outbox.js';
import { lockProject, requireProject } from '../permissions.js';

export const MAIN_BASELINE_NAME = 'Baseline';

export function presentBaseline(row: BaselineRow): Baseline {
  return { id: row.id, name: row.name, index: row.slot, capturedAt: row.captured_at, capturedBy: row.captured_by, taskCount: row.task_count };
}

/**
 * Captures the tasks' current dates, duration, work and cost. Without a name it is the
 * main baseline, overwritten in place; a name saves (or overwrites) that named baseline.
 */
export async function captureBaseline(
  tx: Queries,
  project: ProjectRow,
  tasks: readonly TaskRow[],
  options: { name: string | null; capturedBy: string | null; now: string },
): Promise<Baseline> {
  const existing = await tx.baselines.list(project.id);
  const replaced = options.name === null ? existing.find((b) => b.is_main === 1) : existing.find((b) => b.is_main === 0 && b.name === options.name);
  const row: BaselineRow = {
    id: replaced?.id ?? randomUUID(),
    project_id: project.id,
    name: options.name ?? MAIN_BASELINE_NAME,
    slot: null,
    is_main: options.name === null ? 1 : 0,
    captured_at: options.now,
    captured_by: options.capturedBy,
    task_count: tasks.length,
  };
  await tx.baselines.put(
    row,
    tasks.map((task) => ({
      baseline_id: row.id,
      task_id: task.id,
      start_at: task.start_at,
      finish_at: task.finish_at,
      duration_min: task.duration_min,
      work_min: task.work_min,
      cost_fixed: task.cost_fixed,
    })),
  );
  return presentBaseline(row);
}

export async function saveBaseline(ctx: DomainContext, actor: Actor, projectId: string, name: string | undefined): Promise<Baseline> {
  await requireProject(ctx, actor, projectId, 'editor');
  const now = nowIso(ctx);
  return ctx.store.transaction(async (tx) => {
    const project = await lockProject(tx, projectId);
    const baseline = await captureBaseline(tx, project, await tx.tasks.listForProject(projectId), { name: name ?? null, capturedBy: actor.userId, now });
    // Baselines are part of the plan as the full-project read serves it.
    await tx.projects.update(projectId, { plan_version: project.plan_version + 1 });
    await appendEvents(tx, actor, now, [{ type: 'baseline.saved', workspaceId: project.workspace_id, projectId, data: { baseline, automatic: false } }]);
    return baseline;
  });
}

export async function listBaselines(ctx: DomainContext, actor: Actor, projectId: string): Promise<Baseline[]> {
  await requireProject(ctx, actor, projectId, 'viewer');
  return (await ctx.store.q.baselines.list(projectId)).map(presentBaseline);
}
