import type { ConstraintKind, TaskType } from '@gantry/contract';
import type { DocumentDependency, DocumentInterval } from '../plan-document.js';

/** The codes Microsoft Project XML (MSPDI) stores, shared by the reader and the writer. */
export const MSPDI_NAMESPACE = 'http://schemas.microsoft.com/project';

/** `ConstraintType` 0..7. */
export const CONSTRAINT_KINDS: readonly ConstraintKind[] = [
  'asap',
  'alap',
  'must_start_on',
  'must_finish_on',
  'start_no_earlier_than',
  'start_no_later_than',
  'finish_no_earlier_than',
  'finish_no_later_than',
];

/** `PredecessorLink/Type` 0..3. */
export const LINK_TYPES: readonly DocumentDependency['type'][] = ['FF', 'FS', 'SF', 'SS'];

/** Task `Type` 0..2 (Gantry's `fixed_duration_and_units` is written as fixed duration). */
export const TASK_TYPES: readonly TaskType[] = ['fixed_units', 'fixed_duration', 'fixed_work'];

/** Duration and lag formats counted in elapsed time (every day 24 hours), estimated (`?`) ones included. */
export const ELAPSED_FORMATS: ReadonlySet<number> = new Set([4, 6, 8, 10, 12, 20, 36, 38, 40, 42, 44, 52]);
/** Lag formats whose `LinkLag` is a percentage of the predecessor's duration. */
export const PERCENT_FORMATS: ReadonlySet<number> = new Set([19, 20, 51, 52]);
/** `DurationFormat`/`LagFormat` 7: days. */
export const DAYS_FORMAT = 7;
/** `DurationFormat` 39: estimated days (`3 days?`). */
export const ESTIMATED_DAYS_FORMAT = 39;

/** The working day of Microsoft Project's Standard calendar (and of Gantry's). */
export const STANDARD_DAY: DocumentInterval[] = [
  ['08:00', '12:00'],
  ['13:00', '17:00'],
];
/** Standard week, Sunday..Saturday. */
export const STANDARD_WEEK: DocumentInterval[][] = [[], STANDARD_DAY, STANDARD_DAY, STANDARD_DAY, STANDARD_DAY, STANDARD_DAY, []];

/** `ResourceUID` of the assignments Microsoft Project keeps for tasks without any resource. */
export const UNASSIGNED_RESOURCE_UID = '-65535';
