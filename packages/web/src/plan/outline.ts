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

/** Where a task goes: under a parent (null: the top level), after or before a sibling (neither: last). */
export interface Placement {
  parentId: string | null;
  afterTaskId?: string;
  beforeTaskId?: string;
}

/** Where a dragged row lands on another: before it, after it (as its siblings), or into it (its last subtask). */
export type DropZone = 'before' | 'after' | 'into';

/** One task moved by a change set (`updateTasks[]` with `placement`). */
export interface Move {
  id: string;
  placement: Placement;
}

const bySortKey = (a: { sortKey: string }, b: { sortKey: string }) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0);

/**
 * The plan's tree as ordered lists of subtask ids, to plan restructuring as Microsoft
 * Project does it: every operation moves tasks in this copy and answers the moves that
 * make the server's tree the same, in the order a change set applies them.
 */
export class Outline {
  private readonly children = new Map<string | null, string[]>();
  private readonly parents = new Map<string, string | null>();

  constructor(tasks: readonly { id: string; parentId: string | null; sortKey: string }[]) {
    for (const task of [...tasks].sort(bySortKey)) {
      this.parents.set(task.id, task.parentId);
      this.childrenOf(task.parentId).push(task.id);
    }
  }

  childrenOf(parentId: string | null): string[] {
    let list = this.children.get(parentId);
    if (!list) this.children.set(parentId, (list = []));
    return list;
  }

  parentOf(id: string): string | null {
    return this.parents.get(id) ?? null;
  }

  /** The ids in outline order (parents before their subtasks). */
  ordered(): string[] {
    const order: string[] = [];
    const visit = (parentId: string | null) => {
      for (const id of this.childrenOf(parentId)) {
        order.push(id);
        visit(id);
      }
    };
    visit(null);
    return order;
  }

  /** The selected tasks none of whose ancestors is selected, in outline order: what an operation on a selection moves (subtasks go along). */
  tops(ids: Iterable<string>): string[] {
    const selected = new Set(ids);
    const isTop = (id: string) => {
      for (let parent = this.parentOf(id); parent !== null; parent = this.parentOf(parent)) if (selected.has(parent)) return false;
      return true;
    };
    return this.ordered().filter((id) => selected.has(id) && isTop(id));
  }

  /** Moves a task (with its subtasks) under `parentId` at `index` among the other subtasks, and answers the placement that does the same. */
  move(id: string, parentId: string | null, index: number): Move {
    const from = this.childrenOf(this.parentOf(id));
    from.splice(from.indexOf(id), 1);
    const siblings = this.childrenOf(parentId);
    const at = Math.max(0, Math.min(index, siblings.length));
    siblings.splice(at, 0, id);
    this.parents.set(id, parentId);
    if (at > 0) return { id, placement: { parentId, afterTaskId: siblings[at - 1]! } };
    if (siblings.length > 1) return { id, placement: { parentId, beforeTaskId: siblings[1]! } };
    return { id, placement: { parentId } };
  }

  /** Moves a task right before or after another (as its sibling), or into it as its last subtask: where a dragged row is dropped. */
  placeBeside(id: string, targetId: string, zone: DropZone): Move {
    if (zone === 'into') return this.move(id, targetId, this.childrenOf(targetId).filter((child) => child !== id).length);
    const parentId = this.parentOf(targetId);
    const siblings = this.childrenOf(parentId).filter((sibling) => sibling !== id);
    return this.move(id, parentId, siblings.indexOf(targetId) + (zone === 'after' ? 1 : 0));
  }

  /** Drops tasks (each with its subtasks) at a row, keeping their order; none may be dropped within itself. */
  drop(ids: Iterable<string>, targetId: string, zone: DropZone): Move[] {
    const tops = this.tops(ids);
    if (tops.some((id) => this.isWithin(targetId, id))) return [];
    const moves: Move[] = [];
    let previous: string | null = null;
    for (const id of tops) {
      moves.push(previous === null ? this.placeBeside(id, targetId, zone) : this.placeBeside(id, previous, zone === 'into' ? 'into' : 'after'));
      if (zone !== 'into') previous = id;
    }
    return moves;
  }

  /** Whether `id` is `ancestorId` or one of its subtasks, at any depth. */
  isWithin(id: string, ancestorId: string): boolean {
    for (let current: string | null = id; current !== null; current = this.parentOf(current)) if (current === ancestorId) return true;
    return false;
  }

  private siblingIndex(id: string): { siblings: string[]; index: number } {
    const siblings = this.childrenOf(this.parentOf(id));
    return { siblings, index: siblings.indexOf(id) };
  }

  /** Indent (Alt+Shift+→): each task becomes the last subtask of the sibling above it; the first of a list has none and stays. */
  indent(ids: Iterable<string>): Move[] {
    const moves: Move[] = [];
    for (const id of this.tops(ids)) {
      const { siblings, index } = this.siblingIndex(id);
      const above = siblings[index - 1];
      if (above !== undefined) moves.push(this.move(id, above, this.childrenOf(above).length));
    }
    return moves;
  }

  /**
   * Outdent (Alt+Shift+←): each task moves up a level, right after its parent, and the
   * siblings that followed it become its subtasks, so every row keeps its place, as in
   * Microsoft Project. A task at the top level stays.
   */
  outdent(ids: Iterable<string>): Move[] {
    const moves: Move[] = [];
    for (const id of this.tops(ids)) {
      const parentId = this.parentOf(id);
      if (parentId === null) continue;
      const { siblings, index } = this.siblingIndex(id);
      const following = siblings.slice(index + 1);
      const grandparentId = this.parentOf(parentId);
      moves.push(this.move(id, grandparentId, this.childrenOf(grandparentId).indexOf(parentId) + 1));
      for (const sibling of following) moves.push(this.move(sibling, id, this.childrenOf(id).length));
    }
    return moves;
  }

  /** Move up (Alt+Shift+↑): each task (with its subtasks) changes places with the sibling above it. */
  moveUp(ids: Iterable<string>): Move[] {
    const moves: Move[] = [];
    for (const id of this.tops(ids)) {
      const { index } = this.siblingIndex(id);
      if (index > 0) moves.push(this.move(id, this.parentOf(id), index - 1));
    }
    return moves;
  }

  /** Move down (Alt+Shift+↓): each task changes places with the sibling below it. */
  moveDown(ids: Iterable<string>): Move[] {
    const moves: Move[] = [];
    for (const id of this.tops(ids).reverse()) {
      const { siblings, index } = this.siblingIndex(id);
      if (index < siblings.length - 1) moves.push(this.move(id, this.parentOf(id), index + 1));
    }
    return moves;
  }

  /**
   * The moves that put the given tasks back where they are in this outline, whatever moves
   * happened since to them alone: from the last in outline order to the first, each goes
   * before its next sibling (already back in place) or last under its parent.
   */
  restore(ids: Iterable<string>): Move[] {
    const moved = new Set(ids);
    return this.ordered()
      .filter((id) => moved.has(id))
      .reverse()
      .map((id) => {
        const { siblings, index } = this.siblingIndex(id);
        const next = siblings[index + 1];
        const parentId = this.parentOf(id);
        return { id, placement: next === undefined ? { parentId } : { parentId, beforeTaskId: next } };
      });
  }
}
