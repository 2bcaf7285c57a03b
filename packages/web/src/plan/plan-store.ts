import { ApiError, describeError, type Call, type CallResult } from '../client';
import type { ChangeSet, Conflict, Dependency, FullProject, Member, PlanTask, TaskPatch, WriteResult } from '../types';
import { copiedFields, type CopiedTasks } from './clipboard';
import { History, type Command, type HistoryEntry, type WatchedValues } from './history';
import { mergeWrite, Outline, outlineRows, type DropZone, type Move, type Row } from './outline';

/** Which rows are selected: `focusId` is the row the keyboard is on, `anchorId` where a Shift range starts. */
export interface Selection {
  ids: ReadonlySet<string>;
  focusId: string | null;
  anchorId: string | null;
}

/** Everything the Gantt page shows of one plan, replaced (never mutated) on every change. */
export interface PlanState {
  plan: FullProject;
  members: readonly Member[];
  tasksById: ReadonlyMap<string, PlanTask>;
  /** The rows in outline order, without the subtasks of collapsed summaries. */
  rows: readonly Row[];
  collapsed: ReadonlySet<string>;
  selection: Selection;
  /** The conflicts the scheduler kept at the last write. */
  conflicts: readonly Conflict[];
  history: { undoLabel: string | null; redoLabel: string | null; busy: boolean };
  /** What went wrong last, or why an undo did not happen; null when all is well. */
  notice: string | null;
}

/** Where a new task goes: after the selected row (the default), above it (Insert), or as its last subtask. */
export type NewTaskPlace = 'after' | 'above' | 'under';

type Listener = () => void;

const noSelection: Selection = { ids: new Set(), focusId: null, anchorId: null };

/** Progress, which a summary rolls up from its subtasks rather than keeps. */
const progressFields = ['progressPct', 'actualStartAt', 'actualFinishAt'] as const;

/** The assignments of these tasks, by task, as a change set creates them (units as they are, nothing recalculated). */
function assignmentsOf(plan: FullProject, taskIds: ReadonlySet<string>): Map<string, { resourceId: string; unitsPct: number }[]> {
  const byTask = new Map<string, { resourceId: string; unitsPct: number }[]>();
  for (const { taskId, resourceId, unitsPct } of plan.assignments) {
    if (!taskIds.has(taskId)) continue;
    const list = byTask.get(taskId);
    if (list) list.push({ resourceId, unitsPct });
    else byTask.set(taskId, [{ resourceId, unitsPct }]);
  }
  return byTask;
}

function pick<Fields extends keyof PlanTask>(task: PlanTask, fields: readonly Fields[]): Pick<PlanTask, Fields> {
  return Object.fromEntries(fields.map((field) => [field, task[field]])) as Pick<PlanTask, Fields>;
}

/** A UUID for a task the browser creates (so that undo and redo can name it); `crypto.randomUUID` needs a secure context, which a plain-http install is not. */
export function newId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Up to this many tasks an undo checks one by one; beyond, it reads the plan once. */
const fewWatchedTasks = 20;

/**
 * One open plan, apart from any view (in the spirit of tldraw's Editor): the plan as the
 * server last answered, the selection, and the undo history of every change made here.
 * Every write goes through `execute`, which runs one command at a time, merges the
 * server's answer and keeps the command for undo. React reads it with
 * `useSyncExternalStore` (use-plan.ts); tests drive it directly.
 */
export class PlanStore {
  private state: PlanState;
  private readonly listeners = new Set<Listener>();
  private readonly history = new History();
  /** Writes run one after another, in the order asked: 50 quick undos are 50 steps back. */
  private queue: Promise<unknown> = Promise.resolve();
  private pending = 0;
  /** Why the last change failed (an ApiError names the fields), for a form that shows it beside its fields. */
  private lastFailure: unknown = null;

  constructor(
    private readonly call: Call,
    plan: FullProject,
    members: readonly Member[],
  ) {
    this.state = this.derive({ plan, members, collapsed: new Set(), selection: noSelection, conflicts: [], notice: null }, true);
  }

  /** Reads the plan and its members. */
  static async open(call: Call, projectId: string): Promise<PlanStore> {
    const params = { projectId };
    const [plan, { members }] = await Promise.all([call('getProject', { params }), call('listProjectMembers', { params })]);
    return new PlanStore(call, plan, members);
  }

  get projectId(): string {
    return this.state.plan.project.id;
  }

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getState = (): PlanState => this.state;

  /**
   * The state with what follows from the plan: tasks by id and rows. `tasksChanged` says
   * which tasks a write replaced; when none moved in the tree (a date, a name), the rows keep
   * their order and only take the new tasks, instead of sorting the whole outline again.
   */
  private derive(next: Omit<PlanState, 'tasksById' | 'rows' | 'history'> & Partial<Pick<PlanState, 'tasksById' | 'rows'>>, tasksChanged: boolean | ReadonlyMap<string, PlanTask>): PlanState {
    const tasksById = tasksChanged || !next.tasksById ? new Map(next.plan.tasks.map((task) => [task.id, task])) : next.tasksById;
    const collapsedChanged = next.collapsed !== this.state?.collapsed;
    const rows =
      tasksChanged instanceof Map && next.rows && !collapsedChanged
        ? next.rows.map((row) => {
            const task = tasksChanged.get(row.task.id);
            return task ? { ...row, task } : row;
          })
        : tasksChanged || !next.rows || collapsedChanged
          ? outlineRows(next.plan.tasks, next.collapsed)
          : next.rows;
    const { undo, redo } = this.history.depth;
    return {
      ...next,
      tasksById,
      rows,
      history: { undoLabel: undo ? this.history.undoLabel : null, redoLabel: redo ? this.history.redoLabel : null, busy: this.pending > 0 },
    };
  }

  private update(change: Partial<Omit<PlanState, 'tasksById' | 'rows' | 'history'>>, tasksChanged: boolean | ReadonlyMap<string, PlanTask> = false): void {
    this.state = this.derive({ ...this.state, ...change }, tasksChanged);
    for (const listener of this.listeners) listener();
  }

  /** Replaces the plan with a fresh read (after a change made elsewhere on the page: calendars, resources, a restored version). */
  async reload(): Promise<void> {
    const params = { projectId: this.projectId };
    const [plan, { members }] = await Promise.all([this.call('getProject', { params }), this.call('listProjectMembers', { params })]);
    this.update({ plan, members, selection: this.keepExisting(this.state.selection, new Set(plan.tasks.map((task) => task.id))) }, true);
  }

  /** Merges a write's answer: the tasks, links and assignments it changed or added, without those it deleted. */
  applyWrite(result: WriteResult): void {
    const { plan } = this.state;
    const tasks = mergeWrite(plan.tasks, result.tasks, result.deletedTaskIds);
    const dependencies = mergeWrite(plan.dependencies, result.dependencies, result.deletedDependencyIds);
    const deleted = new Set(result.deletedTaskIds);
    // The tasks whose assignments the write changed come with all of theirs: those replace what the plan had.
    const replaced = new Set([...deleted, ...result.reassignedTaskIds]);
    const assignments = replaced.size > 0 ? [...plan.assignments.filter((assignment) => !replaced.has(assignment.taskId)), ...result.assignments] : plan.assignments;
    const selection = deleted.size > 0 ? this.keepExisting(this.state.selection, new Set(tasks.map((task) => task.id))) : this.state.selection;
    const { tasksById } = this.state;
    const treeChanged =
      deleted.size > 0 ||
      result.tasks.some((task) => {
        const before = tasksById.get(task.id);
        return !before || before.parentId !== task.parentId || before.sortKey !== task.sortKey || (before.type === 'summary') !== (task.type === 'summary');
      });
    this.update({ plan: { ...plan, tasks, dependencies, assignments }, conflicts: result.conflicts, selection }, treeChanged || new Map(result.tasks.map((task) => [task.id, task])));
  }

  private keepExisting(selection: Selection, existing: ReadonlySet<string>): Selection {
    const ids = new Set([...selection.ids].filter((id) => existing.has(id)));
    const focusId = selection.focusId !== null && existing.has(selection.focusId) ? selection.focusId : ([...ids][0] ?? null);
    return { ids, focusId, anchorId: selection.anchorId !== null && existing.has(selection.anchorId) ? selection.anchorId : focusId };
  }

  // ——— Selection and folding ———

  /** Selects a row: alone, added to or taken from the selection (Ctrl/⌘+click), or the range from the anchor to it (Shift). */
  select(taskId: string, mode: 'only' | 'toggle' | 'range' = 'only'): void {
    const { selection, rows } = this.state;
    if (mode === 'toggle') {
      const ids = new Set(selection.ids);
      if (!ids.delete(taskId)) ids.add(taskId);
      return this.update({ selection: { ids, focusId: taskId, anchorId: taskId } });
    }
    if (mode === 'range' && selection.anchorId !== null) {
      const from = rows.findIndex((row) => row.task.id === selection.anchorId);
      const to = rows.findIndex((row) => row.task.id === taskId);
      if (from >= 0 && to >= 0) {
        const ids = new Set(rows.slice(Math.min(from, to), Math.max(from, to) + 1).map((row) => row.task.id));
        return this.update({ selection: { ids, focusId: taskId, anchorId: selection.anchorId } });
      }
    }
    this.update({ selection: { ids: new Set([taskId]), focusId: taskId, anchorId: taskId } });
  }

  /** Selects the tasks given (a new task, pasted ones), the first focused. */
  selectAll(taskIds: readonly string[]): void {
    const focusId = taskIds[0] ?? null;
    this.update({ selection: { ids: new Set(taskIds), focusId, anchorId: focusId } });
  }

  /** The selected tasks in outline order. */
  selectedTasks(): PlanTask[] {
    const { selection, tasksById } = this.state;
    return new Outline(this.state.plan.tasks)
      .ordered()
      .filter((id) => selection.ids.has(id))
      .map((id) => tasksById.get(id)!);
  }

  toggleCollapsed(taskId: string): void {
    const collapsed = new Set(this.state.collapsed);
    if (!collapsed.delete(taskId)) collapsed.add(taskId);
    this.update({ collapsed });
  }

  dismissNotice(): void {
    this.update({ notice: null });
  }

  // ——— Writes, undo and redo ———

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    this.pending++;
    this.update({});
    const next = this.queue.then(work).finally(() => {
      this.pending--;
      this.update({});
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Runs a write and merges what the server answered. */
  private async write<Result extends WriteResult>(request: () => Promise<Result>): Promise<Result> {
    const result = await request();
    this.applyWrite(result);
    return result;
  }

  private failed(error: unknown): void {
    this.lastFailure = error;
    this.update({ notice: describeError(error) });
  }

  /** For a form awaiting a change: throws why it failed (its fields' messages), so the form can show them. */
  throwIfFailed = (done: boolean): void => {
    if (!done) throw this.lastFailure;
  };

  /**
   * Runs a change and keeps it for undo; a refused change is shown and not kept. Resolves
   * false when it failed or had nothing to do. A change given as a function is planned when
   * its turn comes, on the plan as the changes before it left it: keys pressed faster than
   * the server answers each act on the result of the one before.
   */
  execute(plan: Command | (() => Command | null)): Promise<boolean> {
    return this.enqueue(async () => {
      const command = typeof plan === 'function' ? plan() : plan;
      if (!command) return false;
      this.update({ notice: null });
      try {
        await command.run();
      } catch (error) {
        this.failed(error);
        return false;
      }
      this.history.done(command, this.watchedValues(command));
      return true;
    });
  }

  undo(): Promise<boolean> {
    return this.step('undo');
  }

  redo(): Promise<boolean> {
    return this.step('redo');
  }

  private step(direction: 'undo' | 'redo'): Promise<boolean> {
    return this.enqueue(async () => {
      const entry = direction === 'undo' ? this.history.takeUndo() : this.history.takeRedo();
      if (!entry) return false;
      this.update({ notice: null });
      const changed = await this.changedSince(entry).catch(() => null);
      if (changed) {
        // Someone else's change is kept: this step leaves the history rather than overwrite it.
        this.update({ notice: `Not ${direction === 'undo' ? 'undone' : 'redone'}: ${changed} was changed by someone else since "${entry.command.label}".` });
        return false;
      }
      try {
        await (direction === 'undo' ? entry.command.revert() : entry.command.run());
      } catch (error) {
        this.history.putBack(entry, direction);
        this.failed(error);
        return false;
      }
      const values = this.watchedValues(entry.command);
      if (direction === 'undo') this.history.undone(entry, values);
      else this.history.redone(entry, values);
      return true;
    });
  }

  /** The watched fields as this browser last saw them. */
  private watchedValues(command: Command): WatchedValues | null {
    if (!command.watched) return null;
    const values: WatchedValues = new Map();
    for (const id of command.watched.taskIds) {
      const task = this.state.tasksById.get(id) as Record<string, unknown> | undefined;
      values.set(id, task ? Object.fromEntries(command.watched.fields.map((field) => [field, task[field]])) : null);
    }
    return values;
  }

  /**
   * Reads the watched tasks again from the server: the key of one someone else changed
   * since, if any. A few are read one by one; more (a bulk edit, a big paste) in one read
   * of the plan, rather than a request per task that would spend the session's budget.
   */
  private async changedSince(entry: HistoryEntry): Promise<string | null> {
    if (!entry.expected) return null;
    const watched = [...entry.expected];
    const currentOf: (taskId: string) => Promise<Record<string, unknown> | null> =
      watched.length > fewWatchedTasks
        ? await this.call('getProject', { params: { projectId: this.projectId } }).then(({ tasks }) => {
            const byId = new Map<string, Record<string, unknown>>(tasks.map((task) => [task.id, task]));
            return (taskId) => Promise.resolve(byId.get(taskId) ?? null);
          })
        : (taskId) =>
            this.call('getTask', { params: { projectId: this.projectId, taskId } }).then(
              ({ task }) => task as Record<string, unknown>,
              (error: unknown) => {
                if (error instanceof ApiError && error.status === 404) return null;
                throw error;
              },
            );
    const checks = watched.map(async ([taskId, expected]) => {
      const current = await currentOf(taskId);
      const same = expected === null ? current === null : current !== null && Object.entries(expected).every(([field, value]) => current[field] === value);
      return same ? null : ((current?.key as string | undefined) ?? this.state.tasksById.get(taskId)?.key ?? 'a task');
    });
    return (await Promise.all(checks)).find((key) => key !== null) ?? null;
  }

  // ——— The changes a planner makes ———

  private params(taskId: string) {
    return { projectId: this.projectId, taskId };
  }

  private patchCall(taskId: string, patch: TaskPatch) {
    return () => this.write(() => this.call('updateTask', { params: this.params(taskId), body: patch }));
  }

  private changeSet(body: ChangeSet) {
    return this.write(() => this.call('createTasks', { params: { projectId: this.projectId }, body }));
  }

  /** Edits fields of one task; undo puts back the values it had. */
  editTask(task: PlanTask, patch: TaskPatch, label = 'edit'): Promise<boolean> {
    return this.editTasks([task], patch, label);
  }

  /** The values these fields have now: the edit that puts them back. */
  private currentValues(taskId: string, fields: readonly string[]): Record<string, unknown> {
    const task = this.state.tasksById.get(taskId) as Record<string, unknown> | undefined;
    return Object.fromEntries(fields.map((field) => [field, task?.[field]]));
  }

  /** Edits the same fields of several tasks in one change set (the drawer's bulk edit). */
  editTasks(tasks: readonly PlanTask[], patch: TaskPatch, label = 'edit'): Promise<boolean> {
    const fields = Object.keys(patch);
    const taskIds = tasks.map((task) => task.id);
    return this.execute(() => {
      if (taskIds.length === 1) {
        const [id] = taskIds as [string];
        const inverse = this.currentValues(id, fields) as TaskPatch;
        return { label, run: this.patchCall(id, patch), revert: this.patchCall(id, inverse), watched: { taskIds, fields } };
      }
      const inverse = taskIds.map((id) => ({ id, ...this.currentValues(id, fields) }));
      return {
        label,
        run: () => this.changeSet({ updateTasks: taskIds.map((id) => ({ id, ...patch })) }),
        revert: () => this.changeSet({ updateTasks: inverse }),
        watched: { taskIds, fields },
      };
    });
  }

  /** Moves tasks as the outline planned (indent, outdent, move up or down): one change set, undone by putting each back. */
  private restructure(label: string, plan: (outline: Outline, ids: readonly string[]) => Move[]): Promise<boolean> {
    const ids = [...this.state.selection.ids];
    return this.execute(() => {
      const before = new Outline(this.state.plan.tasks);
      const moves = plan(new Outline(this.state.plan.tasks), ids);
      if (moves.length === 0) return null;
      const movedIds = [...new Set(moves.map((move) => move.id))];
      const back = before.restore(movedIds);
      return {
        label,
        run: () => this.changeSet({ updateTasks: moves }),
        revert: () => this.changeSet({ updateTasks: back }),
        watched: { taskIds: movedIds, fields: ['parentId'] },
      };
    });
  }

  indent = () => this.restructure('indent', (outline, ids) => outline.indent(ids));
  outdent = () => this.restructure('outdent', (outline, ids) => outline.outdent(ids));
  moveUp = () => this.restructure('move up', (outline, ids) => outline.moveUp(ids));
  moveDown = () => this.restructure('move down', (outline, ids) => outline.moveDown(ids));

  /** Drops a dragged row (with the rest of the selection, when it is selected) before, after or into another row. */
  dropTask(taskId: string, targetId: string, zone: DropZone): Promise<boolean> {
    const { selection } = this.state;
    const dragged = selection.ids.has(taskId) ? [...selection.ids] : [taskId];
    if (dragged.includes(targetId)) return Promise.resolve(false);
    return this.restructure('move', (outline) => outline.drop(dragged, targetId, zone));
  }

  /**
   * Adds a task after the focused row (at its level), above it (Insert), or as its last
   * subtask; at the end of the plan when nothing is selected. The new task is selected.
   */
  addTask(fields: { name: string; durationMin: number }, place: NewTaskPlace = 'after'): Promise<boolean> {
    const id = newId();
    const focus = this.state.selection.focusId;
    return this.execute(() => {
      const anchor = focus === null ? undefined : this.state.tasksById.get(focus);
      const placement = !anchor
        ? {}
        : place === 'under'
          ? { parentId: anchor.id }
          : place === 'above'
            ? { parentId: anchor.parentId, beforeTaskId: anchor.id }
            : { parentId: anchor.parentId, afterTaskId: anchor.id };
      const created = { id, ...fields, ...placement };
      return {
        label: 'new task',
        run: async () => {
          const result = await this.changeSet({ createTasks: [created] });
          if (anchor && place === 'under' && this.state.collapsed.has(anchor.id)) this.toggleCollapsed(anchor.id);
          this.selectAll([id]);
          return result;
        },
        revert: () => this.deleteNow([id]),
        watched: { taskIds: [id], fields: ['name'] },
      };
    });
  }

  /** Deletes tasks (each with its subtasks) at once, without asking: the page asks first. */
  private async deleteNow(taskIds: readonly string[]): Promise<void> {
    // One request per branch, sent together: the server takes them one after another, without a round trip between.
    const tops = new Outline(this.state.plan.tasks).tops(taskIds).flatMap((id) => this.state.tasksById.get(id) ?? []);
    await Promise.all(tops.map((task) => this.write(() => this.call('deleteTask', { params: this.params(task.id), query: { confirm: task.key } }))));
  }

  /** What deleting these tasks takes away: each selected branch, its subtasks counted. */
  deletionOf(taskIds: Iterable<string>): { tops: PlanTask[]; count: number } {
    const outline = new Outline(this.state.plan.tasks);
    const tops = outline.tops(taskIds);
    const within = new Set(outline.ordered().filter((id) => tops.some((top) => outline.isWithin(id, top))));
    return { tops: tops.map((id) => this.state.tasksById.get(id)!), count: within.size };
  }

  /**
   * Deletes the tasks (each with its subtasks and their links). Undo brings them back with
   * their ids, fields, places, links and people (their keys are new: numbers are never reused).
   */
  deleteTasks(taskIds: Iterable<string>): Promise<boolean> {
    const ids = [...taskIds];
    return this.execute(() => this.deletion(ids));
  }

  private deletion(taskIds: readonly string[]): Command | null {
    const { plan, tasksById } = this.state;
    const outline = new Outline(plan.tasks);
    const tops = outline.tops(taskIds);
    if (tops.length === 0) return null;
    const order = outline.ordered();
    const deleted = order.filter((id) => tops.some((top) => outline.isWithin(id, top)));
    const deletedSet = new Set(deleted);
    const neighbours = new Map(
      tops.map((id) => {
        const siblings = outline.childrenOf(outline.parentOf(id));
        const index = siblings.indexOf(id);
        return [id, { parentId: outline.parentOf(id), before: siblings.slice(0, index).reverse(), after: siblings.slice(index + 1) }];
      }),
    );
    const links = plan.dependencies.filter((link) => deletedSet.has(link.predecessorId) || deletedSet.has(link.successorId));
    const assignments = assignmentsOf(plan, deletedSet);
    const snapshots = deleted.map((id) => tasksById.get(id)!);
    const label = tops.length === 1 ? `delete ${tasksById.get(tops[0]!)?.key}` : `delete ${tops.length} tasks`;

    const restore = async () => {
      const present = (id: string) => this.state.tasksById.has(id) || deletedSet.has(id);
      const createTasks = snapshots.map((task) => {
        const fields = { ...pick(task, copiedFields), ...(task.type === 'summary' ? {} : pick(task, progressFields)) };
        const place = neighbours.get(task.id);
        const restored = { id: task.id, ...fields, assignments: assignments.get(task.id) ?? [] };
        if (!place) return { ...restored, parentId: task.parentId };
        // Beside the nearest sibling that is still there (or comes back in this same change set).
        const after = place.before.find(present);
        const before = after === undefined ? place.after.find((id) => this.state.tasksById.has(id)) : undefined;
        return { ...restored, parentId: place.parentId, ...(after ? { afterTaskId: after } : before ? { beforeTaskId: before } : {}) };
      });
      const createDependencies = links
        .filter((link) => present(link.predecessorId) && present(link.successorId))
        .map(({ predecessorId, successorId, type, lagMin }) => ({ predecessorId, successorId, type, lagMin }));
      const result = await this.changeSet({ createTasks, createDependencies });
      this.selectAll(tops);
      return result;
    };
    return { label, run: () => this.deleteNow(tops), revert: restore };
  }

  /** The selected tasks with their subtasks and the links among them, for the clipboard; null when nothing is selected. */
  copySelection(): CopiedTasks | null {
    const { plan, tasksById, selection } = this.state;
    const outline = new Outline(plan.tasks);
    const tops = outline.tops(selection.ids);
    if (tops.length === 0) return null;
    const copied = outline.ordered().filter((id) => tops.some((top) => outline.isWithin(id, top)));
    const ids = new Set(copied);
    const assignments = assignmentsOf(plan, ids);
    return {
      sourceProjectId: this.projectId,
      tasks: copied.map((id) => {
        const task = tasksById.get(id)!;
        return { id, parentId: task.parentId !== null && ids.has(task.parentId) ? task.parentId : null, ...pick(task, copiedFields), assignments: assignments.get(id) ?? [] };
      }),
      links: plan.dependencies
        .filter((link) => ids.has(link.predecessorId) && ids.has(link.successorId))
        .map(({ predecessorId, successorId, type, lagMin }) => ({ predecessorId, successorId, type, lagMin })),
    };
  }

  /**
   * Pastes copied tasks after the selection, at the level of its last row (at the end of the plan when
   * nothing is selected), with new ids, their subtasks and the links among them: one change
   * set, one step of undo. A calendar the plan does not have is left out (the task works on
   * the project's). The pasted tasks become the selection.
   */
  paste(copied: CopiedTasks): Promise<boolean> {
    const selected = [...this.state.selection.ids];
    return this.execute(() => {
      const last = new Outline(this.state.plan.tasks).tops(selected).at(-1);
      const anchor = last === undefined ? undefined : this.state.tasksById.get(last);
      const calendars = new Set(this.state.plan.calendars.map((calendar) => calendar.id));
      const newIds = new Map(copied.tasks.map((task) => [task.id, newId()]));
      const sameProject = copied.sourceProjectId === this.projectId;
      let previous: string | undefined = anchor?.id;
      const createTasks = copied.tasks.map((task) => {
        const fields = Object.fromEntries(copiedFields.flatMap((field) => (task[field] === undefined ? [] : [[field, task[field]]])));
        if (task.calendarId && !calendars.has(task.calendarId)) delete fields.calendarId;
        const id = newIds.get(task.id)!;
        const created = { ...fields, name: task.name, id, ...(sameProject && task.assignments?.length ? { assignments: task.assignments } : {}) };
        if (task.parentId !== null) return { ...created, parentId: newIds.get(task.parentId)! };
        const placement = previous === undefined ? {} : { parentId: anchor?.parentId ?? null, afterTaskId: previous };
        previous = id;
        return { ...created, ...placement };
      });
      const createDependencies = copied.links.map((link) => ({ ...link, predecessorId: newIds.get(link.predecessorId)!, successorId: newIds.get(link.successorId)! }));
      const tops = copied.tasks.filter((task) => task.parentId === null).map((task) => newIds.get(task.id)!);
      return {
        label: `paste of ${copied.tasks.length === 1 ? '1 task' : `${copied.tasks.length} tasks`}`,
        run: async () => {
          const result = await this.changeSet({ createTasks, createDependencies });
          this.selectAll(tops);
          return result;
        },
        revert: () => this.deleteNow(tops),
        watched: { taskIds: tops, fields: ['name'] },
      };
    });
  }

  /** Replaces who works on a task; the plan's assignments follow the answer (no reload). */
  private async assign(taskId: string, people: { userIds: string[]; resourceIds?: string[] }): Promise<void> {
    const result = await this.write(() => this.call('putAssignees', { params: this.params(taskId), body: people }));
    const { plan } = this.state;
    // A person's resource is made at their first assignment (at 100 %, as every new resource).
    const known = new Set(plan.resources.map((resource) => resource.id));
    const resources = [
      ...plan.resources,
      ...result.task.assignees.filter((assignee) => !known.has(assignee.resourceId)).map(({ resourceId: id, userId, name }) => ({ id, userId, name, maxUnitsPct: 100 })),
    ];
    this.update({ plan: { ...plan, resources } });
  }

  /** Assigns people and resources to a task; undo puts back who was assigned. */
  assignTask(taskId: string, people: { userIds: string[]; resourceIds?: string[] }): Promise<boolean> {
    const { plan } = this.state;
    const resources = new Map(plan.resources.map((resource) => [resource.id, resource]));
    const current = plan.assignments.filter((assignment) => assignment.taskId === taskId).map((assignment) => resources.get(assignment.resourceId));
    const previous = {
      userIds: current.flatMap((resource) => (resource?.userId ? [resource.userId] : [])),
      resourceIds: current.flatMap((resource) => (resource && !resource.userId ? [resource.id] : [])),
    };
    return this.execute({ label: 'assignment', run: () => this.assign(taskId, people), revert: () => this.assign(taskId, previous) });
  }

  /** The link from one task to another, as the plan has it now. */
  private linkBetween(predecessorId: string, successorId: string): Dependency | undefined {
    return this.state.plan.dependencies.find((link) => link.predecessorId === predecessorId && link.successorId === successorId);
  }

  private putLinks(links: readonly Pick<Dependency, 'predecessorId' | 'successorId' | 'type' | 'lagMin'>[]) {
    return this.write(() => this.call('createDependencies', { params: { projectId: this.projectId }, body: { dependencies: [...links] } }));
  }

  /** Removes links by their ends (their ids change when an undo brings them back). */
  private async removeLinks(ends: readonly Pick<Dependency, 'predecessorId' | 'successorId'>[]): Promise<void> {
    const ids = ends.flatMap((end) => this.linkBetween(end.predecessorId, end.successorId)?.id ?? []);
    if (ids.length > 0) await this.changeSet({ deleteDependencyIds: ids });
  }

  /** Links tasks in a chain, each to the next (finish-to-start unless told), skipping pairs already linked. */
  link(taskIds: readonly string[], type: Dependency['type'] = 'FS', lagMin = 0): Promise<boolean> {
    return this.execute(() => {
      const links = taskIds.slice(1).flatMap((successorId, index) => {
        const predecessorId = taskIds[index]!;
        return this.linkBetween(predecessorId, successorId) ? [] : [{ predecessorId, successorId, type, lagMin }];
      });
      if (links.length === 0) return null;
      return { label: links.length === 1 ? 'link' : 'links', run: () => this.putLinks(links), revert: () => this.removeLinks(links) };
    });
  }

  /** Links the selected tasks in outline order (Ctrl+F2). */
  linkSelection = () => this.link(this.selectedTasks().map((task) => task.id));

  /** Removes every link among the selected tasks, or, for one task, all of its links (Ctrl+Shift+F2). */
  unlinkSelection = (): Promise<boolean> => {
    const ids = this.state.selection.ids;
    return this.unlinkWhere((link) =>
      ids.size === 1 ? ids.has(link.predecessorId) || ids.has(link.successorId) : ids.has(link.predecessorId) && ids.has(link.successorId),
    );
  };

  /** Removes links; undo puts them back as they were. */
  unlink(links: readonly Dependency[]): Promise<boolean> {
    const ids = new Set(links.map((link) => link.id));
    return this.unlinkWhere((link) => ids.has(link.id));
  }

  private unlinkWhere(chosen: (link: Dependency) => boolean): Promise<boolean> {
    return this.execute(() => {
      const kept = this.state.plan.dependencies.filter(chosen).map(({ predecessorId, successorId, type, lagMin }) => ({ predecessorId, successorId, type, lagMin }));
      if (kept.length === 0) return null;
      return { label: kept.length === 1 ? 'remove link' : 'remove links', run: () => this.removeLinks(kept), revert: () => this.putLinks(kept) };
    });
  }

  /**
   * Replaces a task's predecessors (the grid's Predecessors column): links added, changed
   * and removed in one change set; undo puts back those it had.
   */
  setPredecessors(taskId: string, wanted: readonly Pick<Dependency, 'predecessorId' | 'type' | 'lagMin'>[]): Promise<boolean> {
    const ends = (links: readonly Pick<Dependency, 'predecessorId' | 'type' | 'lagMin'>[]) => links.map((link) => ({ ...link, successorId: taskId }));
    const replace = (links: readonly Pick<Dependency, 'predecessorId' | 'type' | 'lagMin'>[]) => {
      const kept = new Set(links.map((link) => link.predecessorId));
      const gone = this.state.plan.dependencies.filter((link) => link.successorId === taskId && !kept.has(link.predecessorId)).map((link) => link.id);
      return this.changeSet({ createDependencies: ends(links), deleteDependencyIds: gone });
    };
    return this.execute(() => {
      const current = this.state.plan.dependencies.filter((link) => link.successorId === taskId).map(({ predecessorId, type, lagMin }) => ({ predecessorId, type, lagMin }));
      const same = current.length === wanted.length && wanted.every((link) => current.some((each) => each.predecessorId === link.predecessorId && each.type === link.type && each.lagMin === link.lagMin));
      if (same) return null;
      return { label: 'predecessors', run: () => replace(wanted), revert: () => replace(current) };
    });
  }

  /** Says something went wrong outside a write (a value typed in a cell that cannot be read). */
  tell(notice: string): void {
    this.update({ notice });
  }

  /** Changes a link's type or lag; undo puts back what it was. */
  relink(link: Dependency, change: Pick<Dependency, 'type' | 'lagMin'>): Promise<boolean> {
    const { predecessorId, successorId, type, lagMin } = link;
    return this.execute({
      label: 'link change',
      run: () => this.putLinks([{ predecessorId, successorId, ...change }]),
      revert: () => this.putLinks([{ predecessorId, successorId, type, lagMin }]),
    });
  }

  /** Resource leveling, applied; undo puts back the delays it replaced. */
  level(): Promise<boolean> {
    let restore: { id: string; levelingDelayMin: number }[] = [];
    return this.execute({
      label: 'leveling',
      run: async () => {
        const result = await this.write(() => this.call('levelResources', { params: { projectId: this.projectId }, body: {} }));
        restore = result.leveling.tasks.map((task) => ({ id: task.taskId, levelingDelayMin: task.levelingDelayMin.from }));
        return result;
      },
      revert: () => (restore.length > 0 ? this.changeSet({ updateTasks: restore }) : Promise.resolve()),
    });
  }

  /** A preview of leveling (`?dryRun=true`): nothing changes. */
  previewLeveling(): Promise<CallResult<'levelResources'>> {
    return this.call('levelResources', { params: { projectId: this.projectId }, query: { dryRun: 'true' }, body: {} });
  }
}
