import type { PlanTask } from '../types';

/** One row of the chart: a task with its depth in the tree and whether it has subtasks. */
export interface Row {
  task: PlanTask;
  depth: number;
  hasChildren: boolean;
}

/**
 * The tasks in outline order (parents before their subtasks, siblings by sortKey) with
 * their depth, leaving out the subtasks of collapsed summaries.
 */
export function outlineRows(tasks: readonly PlanTask[], collapsed: ReadonlySet<string>): Row[] {
  const children = new Map<string | null, PlanTask[]>();
  for (const task of tasks) {
    const siblings = children.get(task.parentId);
    if (siblings) siblings.push(task);
    else children.set(task.parentId, [task]);
  }
  // sortKeys are fractional indexes: plain string order, never the locale's.
  for (const siblings of children.values()) siblings.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));
  const rows: Row[] = [];
  const stack: { task: PlanTask; depth: number }[] = (children.get(null) ?? []).map((task) => ({ task, depth: 0 })).reverse();
  while (stack.length > 0) {
    const { task, depth } = stack.pop()!;
    const own = children.get(task.id) ?? [];
    rows.push({ task, depth, hasChildren: own.length > 0 });
    if (!collapsed.has(task.id)) for (let i = own.length - 1; i >= 0; i--) stack.push({ task: own[i]!, depth: depth + 1 });
  }
  return rows;
}

/** A plan with a write's answer merged in: its tasks and links replaced or added, the deleted ones gone. */
export function mergeWrite<T extends { id: string }>(current: readonly T[], changed: readonly T[], deletedIds: readonly string[]): T[] {
  if (changed.length === 0 && deletedIds.length === 0) return current as T[];
  const byId = new Map(changed.map((item) => [item.id, item]));
  const deleted = new Set(deletedIds);
  const merged = current.filter((item) => !deleted.has(item.id)).map((item) => byId.get(item.id) ?? item);
  const known = new Set(current.map((item) => item.id));
  for (const item of changed) if (!known.has(item.id)) merged.push(item);
  return merged;
}
