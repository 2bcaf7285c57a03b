import type { ConstraintKind, TaskType } from '@gantry/contract';

/**
 * A whole plan as data, independent of where it comes from or goes to: what a template
 * instantiates, an MSPDI file imports, a duplicate copies and a saved version stores —
 * and what exports are written from. Rows refer to each other by `ref`, strings unique
 * within the document (a file's UIDs, a template's slugs, a plan's ids); the project made
 * from a document gets ids of its own.
 *
 * Times are ISO-8601 instants (UTC, `…Z`); dates are `YYYY-MM-DD`; durations, work and
 * lags are integer working minutes.
 */
export interface PlanDocument {
  name: string;
  description: string | null;
  /** Project start (forward scheduling). */
  startDate: string;
  scheduleFrom: 'forward' | 'backward';
  deadline: string | null;
  currency: string;
  /** The project calendar; null = the built-in Standard calendar in UTC. */
  calendarRef: string | null;
  calendars: DocumentCalendar[];
  resources: DocumentResource[];
  /** Outline order: a parent before its subtasks, siblings in their order. */
  tasks: DocumentTask[];
  dependencies: DocumentDependency[];
  assignments: DocumentAssignment[];
  baselines: DocumentBaseline[];
}

/** A working interval of one day, `["HH:MM", "HH:MM"]`, end exclusive (`"24:00"` allowed). */
export type DocumentInterval = [string, string];

export interface DocumentCalendar {
  ref: string;
  name: string;
  /** IANA time zone of the working times. */
  timeZone: string;
  /** 7 entries, Sunday..Saturday: the working intervals (`[]` = not working), or null to inherit from the base calendar. */
  weekly: (DocumentInterval[] | null)[];
  exceptions: { name: string | null; from: string; to: string; intervals: DocumentInterval[] }[];
  baseRef: string | null;
}

/** Someone who can be assigned; `userId` null for people without an account (imported ones). */
export interface DocumentResource {
  ref: string;
  name: string;
  userId: string | null;
  /** Max. Units in percent; absent (100) in versions saved before resources had them. */
  maxUnitsPct?: number;
}

export interface DocumentTask {
  ref: string;
  parentRef: string | null;
  name: string;
  type: 'task' | 'milestone' | 'summary';
  durationMin: number;
  workMin: number | null;
  progressPct: number;
  constraintKind: ConstraintKind;
  constraintDate: string | null;
  deadline: string | null;
  calendarRef: string | null;
  costFixed: number;
  notes: string | null;
  color: string | null;
  wbs: string | null;
  externalId: string | null;
  manuallyScheduled: boolean;
  /** Where a manually scheduled task stays; null for automatically scheduled ones. */
  manualStartAt: string | null;
  manualFinishAt: string | null;
  levelingDelayMin: number;
  taskType: TaskType;
  effortDriven: boolean;
  /** Absent from documents saved before it existed: false. */
  durationEstimated?: boolean;
  durationOptimisticMin: number | null;
  durationPessimisticMin: number | null;
  actualStartAt: string | null;
  actualFinishAt: string | null;
}

export interface DocumentDependency {
  predecessorRef: string;
  successorRef: string;
  type: 'FS' | 'SS' | 'FF' | 'SF';
  lagMin: number;
}

export interface DocumentAssignment {
  taskRef: string;
  resourceRef: string;
  unitsPct: number;
}

export interface DocumentBaseline {
  name: string | null;
  /** Microsoft Project's baseline number (0 = "Baseline", 1..10 = "Baseline 1".."Baseline 10"); null when it has none. */
  slot: number | null;
  tasks: { taskRef: string; startAt: string | null; finishAt: string | null; durationMin: number; workMin: number; costFixed: number }[];
}

/** A task of a document with every optional field at its default: what templates and tests start from. */
export function documentTask(fields: Pick<DocumentTask, 'ref' | 'name'> & Partial<DocumentTask>): DocumentTask {
  return {
    parentRef: null,
    type: 'task',
    durationMin: 0,
    workMin: null,
    progressPct: 0,
    constraintKind: 'asap',
    constraintDate: null,
    deadline: null,
    calendarRef: null,
    costFixed: 0,
    notes: null,
    color: null,
    wbs: null,
    externalId: null,
    manuallyScheduled: false,
    manualStartAt: null,
    manualFinishAt: null,
    levelingDelayMin: 0,
    taskType: 'fixed_units',
    effortDriven: false,
    durationEstimated: false,
    durationOptimisticMin: null,
    durationPessimisticMin: null,
    actualStartAt: null,
    actualFinishAt: null,
    ...fields,
  };
}
