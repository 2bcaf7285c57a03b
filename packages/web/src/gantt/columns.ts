import { formatDay, formatDays, minutesPerDay, planDate, planInstant } from '../format';
import type { Dependency, PlanTask, TaskPatch } from '../types';
import { draftOf, patchOf, taskFields, constraintLabels } from './task-fields';
import { workingDaysBetween } from './time-scale';

/** What a cell needs beyond its task: the plan's links, people and baseline. */
export interface CellContext {
  predecessorsOf(taskId: string): readonly Dependency[];
  taskById(taskId: string): PlanTask | undefined;
  /** A task by its number in the project (`12` for `WEB-12`), as predecessors are typed. */
  taskByNumber(number: number): PlanTask | undefined;
  assigneeNames(taskId: string): string;
  baseline(taskId: string): { startAt: string | null; finishAt: string | null } | undefined;
}

/** A link as the predecessors column writes it: the predecessor's number, its type, its lag. */
export type LinkSpec = Pick<Dependency, 'predecessorId' | 'type' | 'lagMin'>;

/** What typing into a cell changes: fields of the task, or its predecessors. */
export type CellEdit = { patch: TaskPatch } | { predecessors: LinkSpec[] } | { error: string };

export interface Column {
  id: ColumnId;
  label: string;
  /** Starting width in pixels; the person may drag it wider or narrower. */
  width: number;
  align?: 'end';
  text(task: PlanTask, context: CellContext): string;
  /** Editable in place: the text the field starts with, and what the typed text changes. Summaries do not edit what they roll up. */
  edit?: {
    input: 'text' | 'number' | 'date';
    initial(task: PlanTask, context: CellContext): string;
    parse(text: string, task: PlanTask, context: CellContext): CellEdit;
    rolledUp?: boolean;
  };
}

export const columnIds = [
  'key',
  'name',
  'duration',
  'start',
  'finish',
  'progress',
  'work',
  'predecessors',
  'wbs',
  'resources',
  'constraint',
  'deadline',
  'totalFloat',
  'baselineStart',
  'baselineFinish',
  'finishVariance',
  'cost',
] as const;
export type ColumnId = (typeof columnIds)[number];

/** A field of the drawer edited in a cell: the drawer's conversions (days, hours, dates at 08:00 or 17:00) apply. */
function fieldEdit(field: keyof PlanTask, input: 'text' | 'number' | 'date'): NonNullable<Column['edit']> {
  const spec = taskFields.find((each) => each.field === field)!;
  return {
    input,
    rolledUp: spec.rolledUp,
    initial: (task) => String(draftOf(task)[field] ?? ''),
    parse: (text, task) => {
      if (input === 'number' && text.trim() !== '' && !Number.isFinite(Number(text))) return { error: `${spec.label}: a number` };
      return { patch: patchOf(task, { ...draftOf(task), [field]: text.trim() }) };
    },
  };
}

/** A date typed for the start or finish: pinned there with a constraint, as Microsoft Project does. */
function pinnedDate(end: 'start' | 'finish'): NonNullable<Column['edit']> {
  return {
    input: 'date',
    rolledUp: true,
    initial: (task) => (task[`${end}At`] ? planDate(task[`${end}At`]!) : ''),
    parse: (text) =>
      /^\d{4}-\d{2}-\d{2}$/.test(text.trim())
        ? {
            patch:
              end === 'start'
                ? { constraintKind: 'start_no_earlier_than', constraintDate: planInstant(text.trim(), '08:00') }
                : { constraintKind: 'finish_no_earlier_than', constraintDate: planInstant(text.trim(), '17:00') },
          }
        : { error: `${end === 'start' ? 'Start' : 'Finish'}: a date (YYYY-MM-DD)` },
  };
}

const lagUnits: Record<string, number> = { m: 1, h: 60, d: minutesPerDay, w: 5 * minutesPerDay };

/** Predecessors as Microsoft Project writes them: `3FS+2d;5SS` (finish-to-start and no lag are left out). */
export function formatPredecessors(links: readonly Dependency[], context: Pick<CellContext, 'taskById'>): string {
  return links
    .map((link) => {
      const number = context.taskById(link.predecessorId)?.number ?? '?';
      const lag = link.lagMin === 0 ? '' : `${link.lagMin > 0 ? '+' : '-'}${Math.abs(link.lagMin) % minutesPerDay === 0 ? `${Math.abs(link.lagMin) / minutesPerDay}d` : `${Math.abs(link.lagMin) / 60}h`}`;
      return `${number}${link.type === 'FS' && !lag ? '' : link.type}${lag}`;
    })
    .join(';');
}

/** Reads predecessors typed as Microsoft Project takes them: numbers, each with an optional type and lag (`3`, `3SS`, `5FS+2d`, `7FF-4h`). */
export function parsePredecessors(text: string, task: PlanTask, context: Pick<CellContext, 'taskByNumber'>): CellEdit {
  const links: LinkSpec[] = [];
  for (const part of text.split(/[;,]/).map((each) => each.trim()).filter(Boolean)) {
    const match = /^(\d+)\s*(FS|SS|FF|SF)?\s*(?:([+-])\s*(\d+(?:\.\d+)?)\s*(m|h|d|w)?)?$/i.exec(part);
    if (!match) return { error: `Predecessors: "${part}" is not a task number with an optional type and lag, such as 3FS+2d` };
    const predecessor = context.taskByNumber(Number(match[1]));
    if (!predecessor) return { error: `Predecessors: there is no task ${match[1]} in this project` };
    if (predecessor.id === task.id) return { error: 'Predecessors: a task cannot follow itself' };
    const lag = match[4] === undefined ? 0 : Math.round(Number(match[4]) * lagUnits[(match[5] ?? 'd').toLowerCase()]!) * (match[3] === '-' ? -1 : 1);
    links.push({ predecessorId: predecessor.id, type: (match[2]?.toUpperCase() ?? 'FS') as Dependency['type'], lagMin: lag });
  }
  return { predecessors: links };
}

const formatPercent = (value: number) => `${Math.round(value)} %`;
const formatHours = (minutes: number) => `${Math.round((minutes / 60) * 100) / 100} h`;

/** Every column the grid offers, in their default order. */
export const columns: Record<ColumnId, Column> = {
  key: { id: 'key', label: 'Key', width: 78, text: (task) => task.key },
  name: { id: 'name', label: 'Task', width: 220, text: (task) => task.name, edit: fieldEdit('name', 'text') },
  duration: { id: 'duration', label: 'Duration', width: 80, align: 'end', text: (task) => `${formatDays(task.durationMin)}${task.durationEstimated ? '?' : ''}`, edit: fieldEdit('durationMin', 'number') },
  start: { id: 'start', label: 'Start', width: 84, text: (task) => formatDay(task.startAt), edit: pinnedDate('start') },
  finish: { id: 'finish', label: 'Finish', width: 84, text: (task) => formatDay(task.finishAt), edit: pinnedDate('finish') },
  progress: { id: 'progress', label: '% complete', width: 90, align: 'end', text: (task) => formatPercent(task.progressPct), edit: fieldEdit('progressPct', 'number') },
  work: { id: 'work', label: 'Work', width: 80, align: 'end', text: (task) => formatHours(task.workMin), edit: fieldEdit('workMin', 'number') },
  predecessors: {
    id: 'predecessors',
    label: 'Predecessors',
    width: 110,
    text: (task, context) => formatPredecessors(context.predecessorsOf(task.id), context),
    edit: { input: 'text', initial: (task, context) => formatPredecessors(context.predecessorsOf(task.id), context), parse: parsePredecessors },
  },
  wbs: { id: 'wbs', label: 'WBS', width: 70, text: (task) => task.wbs ?? '', edit: fieldEdit('wbs', 'text') },
  resources: { id: 'resources', label: 'Resources', width: 140, text: (task, context) => context.assigneeNames(task.id) },
  constraint: {
    id: 'constraint',
    label: 'Constraint',
    width: 170,
    text: (task) => (task.constraintKind === 'asap' ? '' : `${constraintLabels[task.constraintKind]}${task.constraintDate ? ` ${formatDay(task.constraintDate)}` : ''}`),
  },
  deadline: { id: 'deadline', label: 'Deadline', width: 84, text: (task) => (task.deadline ? formatDay(task.deadline) : ''), edit: fieldEdit('deadline', 'date') },
  totalFloat: { id: 'totalFloat', label: 'Total float', width: 84, align: 'end', text: (task) => formatDays(task.totalFloatMin) },
  baselineStart: { id: 'baselineStart', label: 'Baseline start', width: 100, text: (task, context) => formatDay(context.baseline(task.id)?.startAt) },
  baselineFinish: { id: 'baselineFinish', label: 'Baseline finish', width: 100, text: (task, context) => formatDay(context.baseline(task.id)?.finishAt) },
  finishVariance: {
    id: 'finishVariance',
    label: 'Finish variance',
    width: 100,
    align: 'end',
    text: (task, context) => {
      const planned = context.baseline(task.id)?.finishAt;
      if (!planned || !task.finishAt) return '';
      const days = workingDaysBetween(Date.parse(planned), Date.parse(task.finishAt));
      return days === 0 ? '0 d' : `${days > 0 ? '+' : '−'}${Math.abs(days)} d`;
    },
  },
  cost: { id: 'cost', label: 'Fixed cost', width: 90, align: 'end', text: (task) => (task.costFixed ? String(task.costFixed) : ''), edit: fieldEdit('costFixed', 'number') },
};

/** The columns a grid shows before the person chooses: Microsoft Project's Entry table, less what the chart already shows. */
export const defaultColumns: readonly ColumnId[] = ['key', 'name', 'duration', 'start', 'finish'];
