import type { Dependency, PlanTask, Project, Task } from '@gantry/contract';
import type { DependencyRow, ProjectRow, TaskRow } from '../../store/store.js';

export interface AssigneeView {
  resourceId: string;
  userId: string | null;
  name: string;
  unitsPct: number;
}

/** The stored task without `sortKey`: what every task shape shares. */
function taskFields(row: TaskRow, projectKey: string): Omit<PlanTask, 'sortKey'> {
  return {
    id: row.id,
    number: row.number,
    key: taskKey(projectKey, row),
    parentId: row.parent_id,
    name: row.name,
    type: row.type,
    durationMin: row.duration_min,
    workMin: row.work_min,
    progressPct: row.progress_pct,
    constraintKind: row.constraint_kind as PlanTask['constraintKind'],
    constraintDate: row.constraint_date,
    deadline: row.deadline,
    calendarId: row.calendar_id,
    costFixed: row.cost_fixed,
    notes: row.notes,
    color: row.color,
    wbs: row.wbs,
    externalId: row.external_id,
    startAt: row.start_at,
    finishAt: row.finish_at,
    isCritical: row.is_critical === 1,
    totalFloatMin: row.total_float_min,
    earlyStartAt: row.early_start_at,
    lateFinishAt: row.late_finish_at,
    actualStartAt: row.actual_start_at,
    actualFinishAt: row.actual_finish_at,
    actualDurationMin: row.actual_duration_min,
    remainingDurationMin: row.remaining_duration_min,
    manuallyScheduled: row.manually_scheduled === 1,
    levelingDelayMin: row.leveling_delay_min,
    taskType: row.task_type,
    effortDriven: row.effort_driven === 1,
    durationEstimated: row.duration_estimated === 1,
    durationOptimisticMin: row.duration_optimistic_min,
    durationPessimisticMin: row.duration_pessimistic_min,
  };
}

/** A task inside write results and the full project: with `sortKey`. */
/** A task's key, as people read and type it: the project key and the task number (`WEB-12`). */
export function taskKey(projectKey: string, row: Pick<TaskRow, 'number'>): string {
  return `${projectKey}-${row.number}`;
}

export function presentPlanTask(row: TaskRow, projectKey: string): PlanTask {
  // Completed in place rather than spread into a second object: a full plan presents every task.
  const task = taskFields(row, projectKey) as PlanTask;
  task.sortKey = row.sort_key;
  return task;
}

/** The page of a task in the web app. */
export function taskUrl(baseUrl: string, projectId: string, taskId: string): string {
  return `${baseUrl}/projects/${projectId}/tasks/${taskId}`;
}

/** A task as task reads and webhook payloads carry it. */
export function presentTask(row: TaskRow, projectKey: string, assignees: readonly AssigneeView[], baseUrl: string): Task {
  return {
    ...taskFields(row, projectKey),
    projectId: row.project_id,
    completed: row.progress_pct >= 100,
    assignees: assignees.map((a) => ({ resourceId: a.resourceId, userId: a.userId, name: a.name, unitsPct: a.unitsPct })),
    url: taskUrl(baseUrl, row.project_id, row.id),
  };
}

export function presentDependency(row: DependencyRow): Dependency {
  return { id: row.id, predecessorId: row.predecessor_id, successorId: row.successor_id, type: row.type, lagMin: row.lag_min };
}

export function presentProject(row: ProjectRow): Project {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    key: row.key,
    keyLocked: row.key_locked === 1,
    name: row.name,
    description: row.description,
    startDate: row.start_date,
    calendarId: row.calendar_id,
    currency: row.currency,
    scheduleFrom: row.schedule_from,
    deadline: row.deadline,
    color: row.color,
    settings: JSON.parse(row.settings) as Record<string, unknown>,
    archivedAt: row.archived_at,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
