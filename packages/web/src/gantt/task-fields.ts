import { minutesPerDay, planDate, planInstant } from '../format';
import type { Calendar, PlanTask, TaskPatch } from '../types';

/** How one editable task field is shown in a form and sent back to the API. */
export interface TaskField {
  field: keyof TaskPatch & keyof PlanTask;
  label: string;
  input: 'text' | 'textarea' | 'number' | 'date' | 'checkbox' | 'select';
  /** Select options: value → label (the drawer adds the project's calendars to `calendarId`'s). */
  options?: Record<string, string>;
  /** Working minutes shown in this unit (a day is 8 working hours). */
  unit?: 'days' | 'hours';
  /** The time of day a date means (start-like fields 08:00, finish-like 17:00, on the plan's wall clock). */
  time?: '08:00' | '17:00';
  /** Rolled up from subtasks: not editable on a summary with subtasks. */
  rolledUp?: boolean;
}

export const constraintLabels = {
  asap: 'As soon as possible',
  alap: 'As late as possible',
  start_no_earlier_than: 'Start no earlier than',
  start_no_later_than: 'Start no later than',
  finish_no_earlier_than: 'Finish no earlier than',
  finish_no_later_than: 'Finish no later than',
  must_start_on: 'Must start on',
  must_finish_on: 'Must finish on',
} as const;

/** Every field of a task a person edits, in the order the drawer shows them. */
export const taskFields: TaskField[] = [
  { field: 'name', label: 'Name', input: 'text' },
  { field: 'type', label: 'Type', input: 'select', options: { task: 'Task', milestone: 'Milestone', summary: 'Summary (phase)' }, rolledUp: true },
  { field: 'durationMin', label: 'Duration (working days)', input: 'number', unit: 'days', rolledUp: true },
  { field: 'workMin', label: 'Work (hours)', input: 'number', unit: 'hours', rolledUp: true },
  { field: 'progressPct', label: 'Progress (%)', input: 'number', rolledUp: true },
  { field: 'constraintKind', label: 'Constraint', input: 'select', options: constraintLabels },
  { field: 'constraintDate', label: 'Constraint date', input: 'date', time: '08:00' },
  { field: 'deadline', label: 'Deadline', input: 'date', time: '17:00' },
  { field: 'calendarId', label: 'Calendar', input: 'select', options: { '': "The project's calendar" } },
  { field: 'manuallyScheduled', label: 'Scheduled by hand (keeps its dates)', input: 'checkbox' },
  { field: 'durationEstimated', label: 'Duration is an estimate (?)', input: 'checkbox' },
  { field: 'taskType', label: 'Task type', input: 'select', options: { fixed_units: 'Fixed units', fixed_duration: 'Fixed duration', fixed_work: 'Fixed work', fixed_duration_and_units: 'Fixed duration and units' } },
  { field: 'effortDriven', label: 'Effort driven', input: 'checkbox' },
  { field: 'actualStartAt', label: 'Actual start', input: 'date', time: '08:00', rolledUp: true },
  { field: 'actualFinishAt', label: 'Actual finish', input: 'date', time: '17:00', rolledUp: true },
  { field: 'durationOptimisticMin', label: 'Optimistic duration (days, PERT)', input: 'number', unit: 'days' },
  { field: 'durationPessimisticMin', label: 'Pessimistic duration (days, PERT)', input: 'number', unit: 'days' },
  { field: 'levelingDelayMin', label: 'Leveling delay (working days)', input: 'number', unit: 'days' },
  { field: 'costFixed', label: 'Fixed cost', input: 'number' },
  { field: 'wbs', label: 'WBS code', input: 'text' },
  { field: 'externalId', label: 'External id', input: 'text' },
  { field: 'color', label: 'Color', input: 'text' },
  { field: 'notes', label: 'Notes', input: 'textarea' },
];

export type Draft = Record<string, string | boolean>;

/** A field whose values differ among the tasks edited together: left as it is unless the person sets it. */
export const mixed = '(mixed)';

const minutesPer = { days: minutesPerDay, hours: 60 };

/** A task's values as a form holds them (text, or a flag for checkboxes). */
export function draftOf(task: PlanTask): Draft {
  const draft: Draft = {};
  for (const { field, input, unit } of taskFields) {
    const value = task[field];
    if (input === 'checkbox') draft[field] = value === true;
    else if (value === null || value === undefined) draft[field] = '';
    else if (input === 'date') draft[field] = planDate(String(value));
    else if (unit) draft[field] = String(Number(value) / minutesPer[unit]);
    else draft[field] = String(value);
  }
  return draft;
}

/** The form's value of one field as the API takes it. */
function valueOf(spec: TaskField, value: string | boolean): unknown {
  if (spec.input === 'checkbox') return value === true;
  const text = String(value);
  if (spec.input === 'date') return text === '' ? null : planInstant(text, spec.time ?? '08:00');
  if (spec.input === 'number') return text === '' ? null : spec.unit ? Math.round(Number(text) * minutesPer[spec.unit]) : Number(text);
  return text === '' && spec.field !== 'name' ? null : text;
}

/**
 * Only the fields the person changed, as the API takes them. A constraint is sent with
 * its date (the API validates them together); its date means the end of the day for the
 * finish-like kinds.
 */
export function patchOf(task: PlanTask, draft: Draft): TaskPatch {
  return patchBetween(draftOf(task), draft);
}

/** The fields of `draft` that differ from `before`, as the API takes them (a constraint with its date). */
export function patchBetween(before: Draft, draft: Draft): TaskPatch {
  const patch: Record<string, unknown> = {};
  for (const spec of taskFields) {
    const value = draft[spec.field];
    // A field the tasks differ in, emptied again, is left as each task has it.
    const unchanged = value === before[spec.field] || (before[spec.field] === mixed && value === '');
    if (value !== undefined && !unchanged) patch[spec.field] = valueOf(spec, value);
  }
  if ('constraintKind' in patch || 'constraintDate' in patch) {
    const kind = String(draft.constraintKind);
    const date = String(draft.constraintDate);
    patch.constraintKind = kind;
    patch.constraintDate = kind === 'asap' || kind === 'alap' || date === '' || date === mixed ? null : planInstant(date, kind.startsWith('finish') || kind === 'must_finish_on' ? '17:00' : '08:00');
  }
  return patch as TaskPatch;
}

/** The fields one edit may set on many tasks at once: not what names or identifies one task, nor its actual dates. */
export const bulkFields: TaskField[] = taskFields.filter((spec) => !['name', 'type', 'wbs', 'externalId', 'notes', 'actualStartAt', 'actualFinishAt'].includes(spec.field));


/** What several tasks have in common, as a form holds it; a field whose values differ holds {@link mixed}. */
export function commonDraft(tasks: readonly PlanTask[]): Draft {
  const drafts = tasks.map(draftOf);
  return Object.fromEntries(
    bulkFields.map(({ field }) => {
      const values = new Set(drafts.map((one) => one[field]));
      return [field, values.size === 1 ? [...values][0]! : mixed];
    }),
  );
}

/** A field as a form shows it: the calendar field offers the project's calendars too. */
export function withCalendars(spec: TaskField, calendars: readonly Calendar[]): TaskField {
  if (spec.field !== 'calendarId') return spec;
  return { ...spec, options: { ...spec.options, ...Object.fromEntries(calendars.map((calendar) => [calendar.id, `${calendar.name} (${calendar.timeZone})`])) } };
}
