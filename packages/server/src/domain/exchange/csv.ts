import { stringify } from 'csv-stringify/sync';
import type { TaskSchedule } from './mspdi/write.js';
import { outlineNumbers } from './outline.js';
import type { PlanDocument } from './plan-document.js';

const MINUTES_PER_DAY = 480;
const COLUMNS = ['Outline', 'Name', 'Type', 'Duration', 'Start', 'Finish', 'Predecessors', 'Progress', 'Constraint', 'Constraint date', 'Deadline', 'Resources', 'Notes'];

/** Working minutes as days of 8 hours, up to two decimals (`2`, `0.5`). */
function days(minutes: number): string {
  return String(Math.round((minutes / MINUTES_PER_DAY) * 100) / 100);
}

/** A spreadsheet runs a cell starting with one of these as a formula: such a cell gets a leading apostrophe. */
function guarded(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/**
 * Writes a plan document as CSV (RFC 4180, CRLF): one row per task in outline order,
 * durations in days of 480 working minutes, predecessors in Microsoft Project's notation
 * by outline number (`1.2FS+2d;1.3SS`; a plain finish-to-start link is just `1.2`).
 */
export function writeCsv(document: PlanDocument, schedule?: TaskSchedule): string {
  const outline = outlineNumbers(document.tasks);
  const predecessors = new Map<string, string[]>();
  for (const dependency of document.dependencies) {
    const lag = dependency.lagMin === 0 ? '' : `${dependency.lagMin > 0 ? '+' : ''}${days(dependency.lagMin)}d`;
    const notation = `${outline.get(dependency.predecessorRef)}${dependency.type === 'FS' && lag === '' ? '' : dependency.type}${lag}`;
    predecessors.set(dependency.successorRef, [...(predecessors.get(dependency.successorRef) ?? []), notation]);
  }
  const resourceNames = new Map(document.resources.map((resource) => [resource.ref, resource.name]));
  const resources = new Map<string, string[]>();
  for (const assignment of document.assignments) {
    resources.set(assignment.taskRef, [...(resources.get(assignment.taskRef) ?? []), resourceNames.get(assignment.resourceRef) ?? '']);
  }
  const rows = document.tasks.map((task) => {
    const dates = schedule?.get(task.ref);
    return [
      outline.get(task.ref)!,
      task.name,
      task.type,
      days(task.durationMin),
      dates?.startAt ?? task.manualStartAt ?? '',
      dates?.finishAt ?? task.manualFinishAt ?? '',
      (predecessors.get(task.ref) ?? []).join(';'),
      String(task.progressPct),
      task.constraintKind,
      task.constraintDate ?? '',
      task.deadline ?? '',
      (resources.get(task.ref) ?? []).join('; '),
      task.notes ?? '',
    ].map(guarded);
  });
  // The library quotes a cell holding the record delimiter (CRLF) only: a lone CR or LF must be quoted too.
  return stringify([COLUMNS, ...rows], { record_delimiter: 'windows', quoted_match: /[\r\n]/ });
}
