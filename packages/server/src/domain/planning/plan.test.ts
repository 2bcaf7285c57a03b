import { describe, expect, it } from 'vitest';
import type { AssignmentInput, ScheduleInput, TaskInput } from '@gantry/engine';
import { inputChanges } from './plan.js';

/** A task input with every field set: typed over all of them, so a field the engine gains must be added here (and is then tested below). */
const task: Required<TaskInput> = {
  id: 't1',
  key: 'PRJ-1',
  name: 'Design',
  parentId: null,
  sortKey: 'a0',
  type: 'task',
  durationMin: 480,
  workMin: 0,
  progressPct: 0,
  constraintKind: 'asap',
  constraintDate: null,
  deadline: null,
  calendarId: null,
  manuallyScheduled: false,
  manualStartAt: null,
  manualFinishAt: null,
  levelingDelayMin: 0,
  taskType: 'fixed_units',
  effortDriven: false,
  durationEstimated: false,
  durationElapsed: false,
  actualStartAt: null,
  actualFinishAt: null,
  actualDurationMin: null,
  remainingDurationMin: null,
  durationOptimisticMin: null,
  durationPessimisticMin: null,
  assignments: [{ resourceId: 'r1', unitsPct: 100 }],
};

/** Another value of the same kind (the comparison does not look at what a value means). */
function another(value: unknown): unknown {
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'string') return `${value}2`;
  if (Array.isArray(value)) return value.map((a: AssignmentInput) => ({ ...a, unitsPct: a.unitsPct / 2 }));
  return '2026-03-03T08:00:00.000Z';
}

function input(tasks: TaskInput[], dependencies: ScheduleInput['dependencies'] = []): ScheduleInput {
  return { project: { startAt: '2026-03-02T00:00:00.000Z', scheduleFrom: 'forward', deadline: null, calendarId: null }, tasks, dependencies };
}

const link = { id: 'd1', predecessorId: 't1', successorId: 't2', type: 'FS' as const, lagMin: 0 };

describe('inputChanges', () => {
  const first = task;
  const second = { ...task, id: 't2', key: 'PRJ-2', assignments: [] };
  const before = input([first, second], [link]);

  it('reports a change of any field of a task input', () => {
    for (const field of Object.keys(first) as (keyof TaskInput)[]) {
      const after = input([{ ...first, [field]: another(first[field]) }, second], [link]);
      if (field === 'id') expect(inputChanges(before, after), field).toBeUndefined();
      else expect(inputChanges(before, after), field).toEqual({ changedTaskIds: ['t1'], changedDependencyIds: [] });
    }
  });

  it('compares fresh copies by value, in any order', () => {
    const copies = input([{ ...second }, { ...first, assignments: first.assignments?.map((a) => ({ ...a })) ?? null }], [{ ...link }]);
    expect(inputChanges(before, copies)).toEqual({ changedTaskIds: [], changedDependencyIds: [] });
  });

  it('reports dependencies whose type, lag or ends changed', () => {
    for (const change of [{ type: 'SS' as const }, { lagMin: -60 }, { successorId: 't1', predecessorId: 't2' }]) {
      expect(inputChanges(before, input([first, second], [{ ...link, ...change }]))).toEqual({ changedTaskIds: [], changedDependencyIds: ['d1'] });
    }
  });

  it('asks for a full run when tasks or dependencies come or go, or the project changed', () => {
    expect(inputChanges(before, input([first], [link]))).toBeUndefined();
    expect(inputChanges(before, input([first, { ...second, id: 't3' }], [link]))).toBeUndefined();
    expect(inputChanges(before, input([first, second]))).toBeUndefined();
    expect(inputChanges(before, input([first, second], [{ ...link, id: 'd2' }]))).toBeUndefined();
    expect(inputChanges(before, { ...before, project: { ...before.project, startAt: '2026-03-03T00:00:00.000Z' } })).toBeUndefined();
    expect(inputChanges(before, { ...before, calendars: [{ id: 'c1' }] })).toBeUndefined();
  });
});
