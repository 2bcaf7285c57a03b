import { describe, expect, it } from 'vitest';
import { findCycles, schedule, Scheduler, type ScheduleInput } from '../src/index.js';
import { at } from './support/plan.js';

function chain(n: number): ScheduleInput {
  return {
    project: { startAt: at(2, '08:00') },
    tasks: Array.from({ length: n }, (_, i) => ({ id: `t${String(i).padStart(3, '0')}`, name: `T${i}`, durationMin: 480 })),
    dependencies: Array.from({ length: n - 1 }, (_, i) => ({
      id: `d${i}`,
      predecessorId: `t${String(i).padStart(3, '0')}`,
      successorId: `t${String(i + 1).padStart(3, '0')}`,
      type: 'FS' as const,
      lagMin: 0,
    })),
  };
}

describe('incremental recalculation', () => {
  it('recomputes only the affected part and reports what changed', () => {
    const input = chain(50);
    // A parallel task with plenty of float: editing it moves nothing else.
    input.tasks = [...input.tasks, { id: 'x', name: 'X', durationMin: 480 }];
    const s = new Scheduler(input);
    expect(s.current.stats).toEqual({ taskCount: 51, recomputedCount: 51 });
    const tasks = input.tasks.map((t) => (t.id === 'x' ? { ...t, durationMin: 960 } : t));
    const r = s.update({ ...input, tasks }, { changedTaskIds: ['x'] });
    expect(r.changedTaskIds).toEqual(['x']);
    expect(r.stats.recomputedCount).toBeLessThan(5);
    expect(r).toEqual({ ...schedule({ ...input, tasks }, { previous: s.current }), changedTaskIds: ['x'], stats: r.stats });
  });
  it('a change that moves the project finish updates every late date', () => {
    const input = chain(10);
    const s = new Scheduler(input);
    const tasks = input.tasks.map((t, i) => (i === 9 ? { ...t, durationMin: 960 } : t));
    const r = s.update({ ...input, tasks }, { changedTaskIds: ['t009'] });
    const full = schedule({ ...input, tasks });
    expect(r.tasks).toEqual(full.tasks);
    expect(r.projectFinishAt).toBe(at(16, '17:00'));
    expect(r.changedTaskIds).toEqual(['t009']);
  });
  it('a lag turned elapsed is picked up incrementally; a duration turned elapsed runs everything again', () => {
    const input = chain(10);
    const s = new Scheduler(input);
    // t004 → t005 waits 2 elapsed days (Friday 17:00 + 48 hours: Sunday 17:00), not 6 working days.
    const elapsedLag = (input.dependencies ?? []).map((d) => (d.id === 'd4' ? { ...d, lagMin: 2880, lagElapsed: true } : d));
    const lagged = s.update({ ...input, dependencies: elapsedLag }, { changedDependencyIds: ['d4'] });
    expect(lagged.tasks.find((t) => t.id === 't005')!.startAt).toBe(at(9, '08:00'));
    expect(lagged.stats.recomputedCount).toBeLessThan(10);
    expect(lagged.tasks).toEqual(schedule({ ...input, dependencies: elapsedLag }).tasks);
    const workingLag = elapsedLag.map((d) => (d.id === 'd4' ? { ...d, lagElapsed: false } : d));
    expect(s.update({ ...input, dependencies: workingLag }, { changedDependencyIds: ['d4'] }).tasks.find((t) => t.id === 't005')!.startAt).toBe(at(17, '08:00'));

    const tasks = input.tasks.map((t) => (t.id === 't004' ? { ...t, durationMin: 1440, durationElapsed: true } : t));
    const elapsed = s.update({ ...input, dependencies: workingLag, tasks }, { changedTaskIds: ['t004'] });
    expect(elapsed.stats.recomputedCount).toBe(10);
    expect(elapsed.tasks).toEqual(schedule({ ...input, dependencies: workingLag, tasks }).tasks);
  });
  it('a shape change (new link) falls back to a full run', () => {
    const input = chain(5);
    const s = new Scheduler(input);
    const deps = [...(input.dependencies ?? []), { id: 'z', predecessorId: 't004', successorId: 't000' }];
    const r = s.update({ ...input, dependencies: deps }, { changedDependencyIds: ['z'] });
    expect(r.cycles).toHaveLength(1);
    expect(r.stats.recomputedCount).toBe(5);
  });
  it('a shape change reports the same changed tasks as schedule() with the previous result', () => {
    const input = chain(5);
    const s = new Scheduler(input);
    const prev = s.current;
    // A new task sorted before the others shifts every index; a new link moves its successor.
    const tasks = [{ id: 'a', name: 'A', durationMin: 2400 }, ...input.tasks];
    const deps = [...(input.dependencies ?? []), { id: 'z', predecessorId: 'a', successorId: 't002' }];
    const next = { ...input, tasks, dependencies: deps };
    const r = s.update(next, { changedTaskIds: ['a'] });
    expect(r.changedTaskIds).toEqual(schedule(next, { previous: prev }).changedTaskIds);
    expect(r.changedTaskIds).toEqual(expect.arrayContaining(['a', 't002', 't003', 't004']));
    // Same shape again, nothing moves.
    expect(s.update({ ...next, tasks: [...tasks] }).changedTaskIds).toEqual([]);
  });
  it('finds edited tasks in unsorted input and, with duplicate ids, takes the earliest as a full run does', () => {
    const input: ScheduleInput = {
      project: { startAt: at(2, '08:00') },
      tasks: [
        { id: 'C', name: 'C first', durationMin: 240 },
        { id: 'C', name: 'C again', durationMin: 1440 },
        { id: 'A', name: 'A', durationMin: 480 },
      ],
      dependencies: [],
    };
    const s = new Scheduler(input);
    const next = { ...input, tasks: [{ ...input.tasks[0]!, durationMin: 480 }, input.tasks[1]!, input.tasks[2]!] };
    const r = s.update(next, { changedTaskIds: ['C'] });
    expect(r.tasks.find((t) => t.id === 'C')?.durationMin).toBe(480);
    expect(r).toEqual({ ...schedule(next, { previous: input && new Scheduler(input).current }), stats: r.stats });
    // The same tasks in another order: found through the id map.
    const shuffled = { ...next, tasks: [next.tasks[2]!, { ...next.tasks[0]!, durationMin: 960 }, next.tasks[1]!] };
    expect(s.update(shuffled, { changedTaskIds: ['C'] }).tasks.find((t) => t.id === 'C')?.durationMin).toBe(960);
  });
  it('schedule() with a previous result lists only changed tasks', () => {
    const input = chain(5);
    const first = schedule(input);
    expect(first.changedTaskIds).toHaveLength(5);
    const again = schedule(input, { previous: first });
    expect(again.changedTaskIds).toEqual([]);
  });
});

describe('incremental regressions (property-test counterexamples)', () => {
  it('backward plan: a deadline on a summary with a completed zero-span child (CI seed 599885793)', () => {
    // Shrunk counterexample: the first backward pass of an incremental run saw the early
    // dates of the previous run and picked another "earliest" child of the summary.
    const durations = [0, 60, 0, 1, 1, 0, 0, 0, 60, 1];
    const input: ScheduleInput = {
      project: { startAt: '2026-02-26T00:00:00.000Z', scheduleFrom: 'backward', finishAt: '2026-03-28T00:00:00.000Z' },
      calendars: [],
      tasks: durations.map((durationMin, i) => ({
        id: `t${i}`,
        name: `Task ${i}`,
        parentId: i === 0 ? null : 't0',
        type: 'task' as const,
        durationMin,
        ...(i === 9 ? { actualStartAt: '2026-02-27T17:15:00.000Z', actualFinishAt: '2026-02-27T17:15:00.000Z', progressPct: 100 } : {}),
      })),
      dependencies: [],
    };
    const s = new Scheduler(input);
    const next = { ...input, tasks: input.tasks.map((t) => (t.id === 't0' ? { ...t, deadline: '2026-03-02T00:00:00.000Z' } : t)) };
    const inc = s.update(next, { changedTaskIds: ['t0'] });
    const full = schedule(next);
    expect(inc.tasks).toEqual(full.tasks);
    expect(inc.conflicts).toEqual(full.conflicts);
    expect(inc.projectStartAt).toBe(full.projectStartAt);
  });
});

describe('incremental regressions (server write-path property test counterexamples)', () => {
  it('a successor that becomes complete without moving frees its predecessor\'s late dates', () => {
    // Shrunk counterexample: B's progress reaches 100 % but its dates stay. The backward pass
    // skips complete successors, yet A was revisited only when B's late dates moved.
    const input: ScheduleInput = {
      project: { startAt: '2026-03-02T00:00:00.000Z' },
      tasks: [
        { id: 'a', name: 'A', durationMin: 480, constraintKind: 'start_no_earlier_than', constraintDate: '2026-02-26T00:00:00.000Z' },
        { id: 'b', name: 'B', durationMin: 480 },
      ],
      dependencies: [{ id: 'd', predecessorId: 'a', successorId: 'b', type: 'FS', lagMin: 0 }],
    };
    const s = new Scheduler(input);
    const next = { ...input, tasks: [input.tasks[0]!, { ...input.tasks[1]!, progressPct: 100 }] };
    const inc = s.update(next, { changedTaskIds: ['b'] });
    const full = schedule(next);
    expect(inc.tasks).toEqual(full.tasks);
    expect(inc.tasks[0]!.lateFinishAt).toBe('2026-03-02T17:00:00.000Z');
  });
  it('a child that becomes complete without moving frees its summary\'s late dates', () => {
    const input: ScheduleInput = {
      project: { startAt: '2026-03-02T00:00:00.000Z' },
      tasks: [
        { id: 'p', name: 'P', durationMin: 480 },
        { id: 's', name: 'S', type: 'summary' },
        { id: 's1', name: 'S1', parentId: 's', durationMin: 2400 },
        { id: 's2', name: 'S2', parentId: 's', durationMin: 480 },
      ],
      dependencies: [{ id: 'd', predecessorId: 'p', successorId: 's', type: 'FS', lagMin: 0 }],
    };
    const s = new Scheduler(input);
    const next = { ...input, tasks: input.tasks.map((t) => (t.id === 's1' ? { ...t, progressPct: 100 } : t)) };
    const inc = s.update(next, { changedTaskIds: ['s1'] });
    expect(inc.tasks).toEqual(schedule(next).tasks);
    expect(inc.tasks.find((t) => t.id === 'p')!.totalFloatMin).toBe(1920);
  });
});

describe('findCycles before saving', () => {
  it('reports every independent cycle with its path', () => {
    const tasks = ['a', 'b', 'c', 'd', 'e'].map((id, i) => ({ id, key: `WEB-${i + 1}`, name: id.toUpperCase() }));
    const deps = [
      { id: '1', predecessorId: 'a', successorId: 'b' },
      { id: '2', predecessorId: 'b', successorId: 'a' },
      { id: '3', predecessorId: 'c', successorId: 'd' },
      { id: '4', predecessorId: 'd', successorId: 'e' },
      { id: '5', predecessorId: 'e', successorId: 'c' },
    ];
    expect(findCycles(tasks, deps)).toEqual([
      { path: 'WEB-1 → WEB-2 → WEB-1', taskIds: ['a', 'b'], taskNames: ['A', 'B'] },
      { path: 'WEB-3 → WEB-4 → WEB-5 → WEB-3', taskIds: ['c', 'd', 'e'], taskNames: ['C', 'D', 'E'] },
    ]);
    expect(findCycles(tasks, deps.slice(2, 4))).toEqual([]);
  });
  it('a cycle through a summary (child linked to its parent)', () => {
    const tasks = [{ id: 's', name: 'Phase', type: 'summary' as const }, { id: 'c', name: 'Child', parentId: 's' }];
    const cyc = findCycles(tasks, [{ id: '1', predecessorId: 'c', successorId: 's' }]);
    expect(cyc).toEqual([{ path: 'Child → Phase → Child', taskIds: ['c', 's'], taskNames: ['Child', 'Phase'] }]);
  });
});
