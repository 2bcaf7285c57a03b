/**
 * A change the person made, as a command that can be taken back and made again. `run` makes
 * it (the first time and at every redo), `revert` takes it back; both answer what the
 * server's write answered, which the store merges into the plan.
 */
export interface Command<Result = unknown> {
  /** What the change was, for the Undo and Redo buttons (`move`, `indent`, `delete WEB-3`). */
  label: string;
  run(): Promise<Result>;
  revert(): Promise<Result>;
  /**
   * The tasks and fields the change set: before taking it back (or making it again), these
   * must still be what it left, or someone else changed them since and the undo says so
   * instead of overwriting their change.
   */
  watched?: { taskIds: readonly string[]; fields: readonly string[] };
}

/** The values of the watched fields of each watched task; null for a task that is not there. */
export type WatchedValues = Map<string, Record<string, unknown> | null>;

interface Entry {
  command: Command;
  /** What the watched fields were when the command was last run or reverted. */
  expected: WatchedValues | null;
}

/** At least 50 steps per plan and session, as issue 28 asks; more costs nothing but memory. */
export const historyLimit = 100;

/**
 * The undo and redo stacks of one plan. Commands are kept with what they left, so that an
 * undo can tell when another person has changed the same task since.
 */
export class History {
  private readonly undoStack: Entry[] = [];
  private readonly redoStack: Entry[] = [];

  get undoLabel(): string | null {
    return this.undoStack.at(-1)?.command.label ?? null;
  }

  get redoLabel(): string | null {
    return this.redoStack.at(-1)?.command.label ?? null;
  }

  get depth(): { undo: number; redo: number } {
    return { undo: this.undoStack.length, redo: this.redoStack.length };
  }

  /** A new change: it can be undone, and what was undone before can no longer be redone. */
  done(command: Command, expected: WatchedValues | null): void {
    this.undoStack.push({ command, expected });
    if (this.undoStack.length > historyLimit) this.undoStack.shift();
    this.redoStack.length = 0;
  }

  takeUndo(): Entry | undefined {
    return this.undoStack.pop();
  }

  takeRedo(): Entry | undefined {
    return this.redoStack.pop();
  }

  undone(entry: Entry, expected: WatchedValues | null): void {
    this.redoStack.push({ command: entry.command, expected });
  }

  redone(entry: Entry, expected: WatchedValues | null): void {
    this.undoStack.push({ command: entry.command, expected });
  }

  /** A step that failed or was refused goes back where it was, so nothing is lost from either stack. */
  putBack(entry: Entry, stack: 'undo' | 'redo'): void {
    (stack === 'undo' ? this.undoStack : this.redoStack).push(entry);
  }
}

export type { Entry as HistoryEntry };
