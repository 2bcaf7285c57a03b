import type { AssignmentInput, TaskType } from './types.js';

/** The effort-related fields of one task (API names). */
export interface EffortState {
  taskType: TaskType;
  effortDriven: boolean;
  /** Working minutes. */
  durationMin: number;
  /** Working minutes of effort, summed over assignments. */
  workMin: number;
  assignments: readonly AssignmentInput[];
}

/** One user edit of the duration/work/units triangle, or a new assignee list. */
export type TaskEdit =
  | { kind: 'duration'; durationMin: number }
  | { kind: 'work'; workMin: number }
  /** New units for every assignment (resource id → percent); unlisted ones keep theirs. */
  | { kind: 'units'; unitsPct: Readonly<Record<string, number>> }
  /** Assignees added/removed (`PUT …/assignees`): the full new list. */
  | { kind: 'assignments'; assignments: readonly AssignmentInput[] };

function unitsSum(a: readonly AssignmentInput[]): number {
  let u = 0;
  for (const x of a) if (Number.isFinite(x.unitsPct) && x.unitsPct > 0) u += x.unitsPct / 100;
  return u;
}

function scaleUnits(a: readonly AssignmentInput[], targetSum: number): AssignmentInput[] {
  const u = unitsSum(a);
  if (u <= 0 || !Number.isFinite(targetSum)) return a.map((x) => ({ ...x }));
  const f = targetSum / u;
  return a.map((x) => ({ ...x, unitsPct: Math.round(x.unitsPct * f) }));
}

const round = (x: number) => (Number.isFinite(x) ? Math.max(0, Math.round(x)) : 0);

/**
 * Applies one edit with Microsoft Project's Work = Duration × Units relation for the task's
 * type and effort-driven rules for assignee changes (docs/scheduling.md › Task types and effort,
 * decision 10). Pure: returns a new state. Minutes are rounded to integers and units to
 * whole percent. Without assignees the duration drives the dates and work is kept as
 * entered. `fixed_work` is always effort-driven. Never throws; zero units or zero duration
 * leave the dependent value unchanged rather than dividing by zero.
 */
export function applyTaskEdit(state: EffortState, edit: TaskEdit): EffortState {
  const type = state.taskType;
  const effortDriven = state.effortDriven || type === 'fixed_work';
  const next: EffortState = { ...state, assignments: state.assignments.map((a) => ({ ...a })) };
  const U = unitsSum(state.assignments);
  switch (edit.kind) {
    case 'duration': {
      const d = round(edit.durationMin);
      next.durationMin = d;
      if (U <= 0) return next;
      if (type === 'fixed_work' || type === 'fixed_duration_and_units') {
        if (d > 0) next.assignments = scaleUnits(state.assignments, state.workMin / d);
      } else next.workMin = round(d * U);
      return next;
    }
    case 'work': {
      const w = round(edit.workMin);
      next.workMin = w;
      if (U <= 0) return next;
      if (type === 'fixed_duration' || type === 'fixed_duration_and_units') {
        if (state.durationMin > 0) next.assignments = scaleUnits(state.assignments, w / state.durationMin);
      } else next.durationMin = round(w / U);
      return next;
    }
    case 'units': {
      next.assignments = state.assignments.map((a) => ({
        ...a,
        unitsPct: edit.unitsPct[a.resourceId] ?? a.unitsPct,
      }));
      const U2 = unitsSum(next.assignments);
      if (U2 <= 0) return next;
      if (type === 'fixed_duration' || type === 'fixed_duration_and_units') next.workMin = round(state.durationMin * U2);
      else next.durationMin = round(state.workMin / U2);
      return next;
    }
    case 'assignments': {
      next.assignments = edit.assignments.map((a) => ({ ...a }));
      const U2 = unitsSum(next.assignments);
      if (U2 <= 0) return next;
      if (U <= 0) {
        // First assignment(s): effort-driven does not fire (decision 10).
        if (type === 'fixed_work' && state.workMin > 0) next.durationMin = round(state.workMin / U2);
        else next.workMin = round(state.durationMin * U2);
        return next;
      }
      if (!effortDriven || type === 'fixed_duration_and_units') {
        next.workMin = round(state.durationMin * U2);
        return next;
      }
      if (type === 'fixed_duration') {
        if (state.durationMin > 0) next.assignments = scaleUnits(next.assignments, state.workMin / state.durationMin);
        return next;
      }
      next.durationMin = round(state.workMin / U2);
      return next;
    }
  }
  return next;
}
