import type { EventData } from '@gantry/contract';
import type { Queries, TaskRow } from '../../store/store.js';
import type { DomainEvent } from '../outbox.js';
import { wantedOptInEvents } from '../webhooks/deliveries.js';
import type { AppliedChanges } from './apply-changes.js';
import type { Plan } from './plan.js';
import { taskKey } from './presenters.js';

/** The project finish before and after a write; null while the plan has no task. */
export interface FinishMove {
  from: string | null;
  to: string | null;
}

/** Whether a task is on the critical path: critical and not a summary (a summary is critical when any of its subtasks is). */
function isOnCriticalPath(row: Readonly<TaskRow> | undefined): boolean {
  return row !== undefined && row.is_critical === 1 && row.type !== 'summary';
}

/**
 * The opt-in events of a plan write (docs/api.md › Events › Opt-in schedule events):
 * `schedule.critical_path_changed` when tasks entered or left the critical path, and
 * `schedule.finish_changed` when the project finish moved — each only when a webhook
 * covering the project names it. `saved` are the rows the write saves (every row whose
 * computed values changed is one), so this looks at what the write changed, never at the
 * whole plan.
 */
export async function scheduleEvents(tx: Queries, plan: Plan, applied: AppliedChanges, saved: readonly TaskRow[], finish: FinishMove): Promise<DomainEvent[]> {
  const entered = saved.filter((row) => isOnCriticalPath(row) && !isOnCriticalPath(plan.tasks.original(row.id)));
  const left = [
    ...saved.filter((row) => !isOnCriticalPath(row) && isOnCriticalPath(plan.tasks.original(row.id))),
    ...applied.deletedTasks.map(({ row }) => row).filter(isOnCriticalPath),
  ].sort((a, b) => a.number - b.number);
  const criticalPathChanged = entered.length > 0 || left.length > 0;
  const finishChanged = finish.from !== finish.to;
  if (!criticalPathChanged && !finishChanged) return [];

  const { project } = plan;
  const wanted = await wantedOptInEvents(tx, project.workspace_id, project.id, ['schedule.critical_path_changed', 'schedule.finish_changed']);
  const named = (row: Readonly<TaskRow>) => ({ taskId: row.id, key: taskKey(project.key, row), name: row.name });
  const criticalPath: EventData<'schedule.critical_path_changed'> = { entered: entered.map(named), left: left.map(named) };
  const base = { workspaceId: project.workspace_id, projectId: project.id };
  const events: DomainEvent[] = [];
  if (criticalPathChanged && wanted.has('schedule.critical_path_changed')) events.push({ ...base, type: 'schedule.critical_path_changed', data: criticalPath });
  if (finishChanged && wanted.has('schedule.finish_changed')) events.push({ ...base, type: 'schedule.finish_changed', data: finish });
  return events;
}
