import type { Dependency, PlanTask } from '../types';

/** The fields of a task that a copy takes along: what a person set, not what the scheduler computed or what happened (progress). */
export const copiedFields = [
  'name',
  'type',
  'durationMin',
  'workMin',
  'constraintKind',
  'constraintDate',
  'deadline',
  'calendarId',
  'costFixed',
  'notes',
  'color',
  'wbs',
  'externalId',
  'manuallyScheduled',
  'levelingDelayMin',
  'taskType',
  'effortDriven',
  'durationEstimated',
  'durationOptimisticMin',
  'durationPessimisticMin',
] as const;

export type CopiedTask = Pick<PlanTask, (typeof copiedFields)[number]> & {
  id: string;
  /** Its parent among the copied tasks; null for a task copied without its parent. */
  parentId: string | null;
  /** Who works on it, with their units: pasted along into the same project (another project has other resources). */
  assignments?: { resourceId: string; unitsPct: number }[];
};

/** Tasks copied with their subtasks and the links among them, in outline order. */
export interface CopiedTasks {
  sourceProjectId: string;
  tasks: CopiedTask[];
  links: Pick<Dependency, 'predecessorId' | 'successorId' | 'type' | 'lagMin'>[];
}

/** The clipboard format of copied tasks, beside plain text for spreadsheets. */
export const tasksMediaType = 'application/x-gantry-tasks+json';

/** What a copy puts on the clipboard as plain text: a row per task, its name and duration in days, tab-separated (a spreadsheet's paste). */
export function asText(copied: CopiedTasks, minutesPerDay: number): string {
  return copied.tasks.map((task) => `${task.name}\t${task.durationMin / minutesPerDay}`).join('\n');
}

/** Reads copied tasks back from the clipboard's JSON; null for anything else. */
export function parseCopied(json: string): CopiedTasks | null {
  try {
    const value = JSON.parse(json) as Partial<CopiedTasks>;
    return typeof value.sourceProjectId === 'string' && Array.isArray(value.tasks) && Array.isArray(value.links) ? (value as CopiedTasks) : null;
  } catch {
    return null;
  }
}

/**
 * Tasks from plain text (lines pasted from a spreadsheet or a list): a task per non-empty
 * line, named by its first column; a second column that is a number is its duration in days.
 */
export function tasksFromText(text: string, minutesPerDay: number): CopiedTasks | null {
  const tasks = text
    .split(/\r?\n/)
    .map((line) => line.split('\t'))
    .filter(([name]) => name !== undefined && name.trim() !== '')
    .map(([name, days], index): CopiedTask => {
      const duration = Number(days);
      return {
        id: `line-${index}`,
        parentId: null,
        name: name!.trim().slice(0, 200),
        durationMin: Number.isFinite(duration) && duration >= 0 && days?.trim() ? Math.round(duration * minutesPerDay) : minutesPerDay,
      } as CopiedTask;
    });
  return tasks.length > 0 ? { sourceProjectId: '', tasks, links: [] } : null;
}
