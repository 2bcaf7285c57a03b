import fc from 'fast-check';
import { test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { at, plan, type L, type T } from './support/plan.js';
import { arbPlan, CALENDARS } from './properties/arbitraries.js';
import { levelResources, schedule, toEpochMinutes, type LevelingResult, type ScheduleInput, type TaskInput } from '../src/index.js';

// docs/scheduling.md › Resource leveling.

const SEED = process.env.ENGINE_PROP_SEED ? { seed: Number(process.env.ENGINE_PROP_SEED) } : {};
const RUNS = { numRuns: Number(process.env.ENGINE_PROP_RUNS ?? 100), ...SEED };

/** A task using resources: `on('ana')` is 100 % of ana, `on('ana', 50, 'bob')` 50 % of ana and 100 % of bob. */
function on(...spec: (string | number)[]): TaskInput['assignments'] {
  const out: { resourceId: string; unitsPct: number }[] = [];
  for (const item of spec) {
    if (typeof item === 'number') out[out.length - 1]!.unitsPct = item;
    else out.push({ resourceId: item, unitsPct: 100 });
  }
  return out;
}

/** Levels a plan of `plan` (Standard calendar, one-day tasks) and reads the leveled dates and delays. */
function level(tasks: T[], links: L[] = [], options: Parameters<typeof levelResources>[1] = {}, planOptions: Parameters<typeof plan>[2] = {}) {
  const { input } = plan(tasks, links, planOptions);
  const result = levelResources(input, options);
  const rows = new Map(result.schedule.tasks.map((t) => [t.id, t]));
  return {
    input,
    result,
    span: (id: string) => [rows.get(id)!.startAt, rows.get(id)!.finishAt],
    delay: (id: string) => result.delays.find((d) => d.taskId === id)?.toMin,
  };
}

/** The input with the leveling delays of a result applied. */
function applied(input: ScheduleInput, result: LevelingResult): ScheduleInput {
  const delays = new Map(result.delays.map((d) => [d.taskId, d.toMin]));
  return { ...input, tasks: input.tasks.map((t) => (delays.has(t.id) ? { ...t, levelingDelayMin: delays.get(t.id)! } : t)) };
}

describe('levelResources', () => {
  it('delays the later of two parallel tasks on one resource to right after the first, across the weekend', () => {
    // Friday 6 March: a and b both want ana all day; b (id order) waits for Monday.
    const { result, span, delay } = level([{ id: 'a', assignments: on('ana') }, { id: 'b', assignments: on('ana') }], [], {}, { startAt: at(6, '08:00') });
    expect(span('a')).toEqual([at(6, '08:00'), at(6, '17:00')]);
    expect(span('b')).toEqual([at(9, '08:00'), at(9, '17:00')]);
    // One working day of delay, not three calendar days.
    expect(delay('b')).toBe(480);
    expect(result.delays).toEqual([{ taskId: 'b', fromMin: 0, toMin: 480 }]);
    expect(result.overallocations).toEqual([]);
    // The tie goes the other way when the plan's order says so (Microsoft Project's ID).
    expect(level([{ id: 'a', assignments: on('ana') }, { id: 'b', assignments: on('ana') }], [], { tieOrder: ['b', 'a'] }).result.delays).toEqual([
      { taskId: 'a', fromMin: 0, toMin: 480 },
    ]);
  });

  it('counts an elapsed task’s delay in clock minutes: it waits until 17:00, not for the next morning', () => {
    // a and b (an elapsed day) both want ana from Monday 08:00; a goes first (id order).
    const { span, delay } = level([{ id: 'a', assignments: on('ana') }, { id: 'b', durationMin: 1440, durationElapsed: true, assignments: on('ana') }]);
    expect(span('a')).toEqual([at(2, '08:00'), at(2, '17:00')]);
    expect([span('b'), delay('b')]).toEqual([[at(2, '17:00'), at(3, '17:00')], 540]);
  });

  it('counts the delay in working minutes of the task’s own hours', () => {
    // d (a day) ends the plan, so it is critical and goes first; m (a morning) waits a day.
    const { span, delay } = level([
      { id: 'd', assignments: on('ana') },
      { id: 'm', durationMin: 240, assignments: on('ana') },
    ]);
    expect(span('d')).toEqual([at(2, '08:00'), at(2, '17:00')]);
    expect(span('m')).toEqual([at(3, '08:00'), at(3, '12:00')]);
    expect(delay('m')).toBe(480);
    // d on a mornings-only calendar takes Monday and Tuesday morning: m (Standard hours) gets
    // Tuesday afternoon, 12 working hours after Monday 08:00.
    const mornings = level(
      [
        { id: 'd', calendarId: 'mornings', assignments: on('ana') },
        { id: 'm', durationMin: 240, assignments: on('ana') },
      ],
      [],
      {},
      { calendars: CALENDARS },
    );
    expect(mornings.span('d')).toEqual([at(2, '08:00'), at(3, '12:00')]);
    expect(mornings.span('m')).toEqual([at(3, '13:00'), at(3, '17:00')]);
    expect(mornings.result.delays).toEqual([{ taskId: 'm', fromMin: 0, toMin: 720 }]);
  });

  it('moves the successors of a delayed task with it, through the scheduler', () => {
    // a leads the critical path (into e, three days); b, c and d have float, so b waits for ana.
    const { span, result } = level(
      [{ id: 'a', assignments: on('ana') }, { id: 'e', durationMin: 1440 }, { id: 'b', assignments: on('ana') }, { id: 'c' }, { id: 'd', assignments: on('ana') }],
      [
        ['a', 'e'],
        ['b', 'c'],
        ['c', 'd', 'SS', 240],
      ],
    );
    expect(span('b')).toEqual([at(3, '08:00'), at(3, '17:00')]);
    expect(span('c')).toEqual([at(4, '08:00'), at(4, '17:00')]);
    // d may start half a day into c, and ana is free then.
    expect(span('d')).toEqual([at(4, '13:00'), at(5, '12:00')]);
    expect(result.delays.map((d) => d.taskId)).toEqual(['b']);
  });

  it('leaves tasks that fit together alone: 50 % and 50 %', () => {
    const { result } = level([
      { id: 'a', assignments: on('ana', 50) },
      { id: 'b', assignments: on('ana', 50) },
      { id: 'c', assignments: on('bob') },
    ]);
    expect(result).toMatchObject({ delays: [], overallocations: [] });
  });

  it('keeps a critical task in its place and delays the one with float', () => {
    // a → b is the critical chain; c has a day of float and shares ana with a.
    const { span, result } = level([{ id: 'a', assignments: on('ana') }, { id: 'b' }, { id: 'c', assignments: on('ana') }], [['a', 'b']], { tieOrder: ['c', 'a', 'b'] });
    expect(span('a')).toEqual([at(2, '08:00'), at(2, '17:00')]);
    expect(span('c')).toEqual([at(3, '08:00'), at(3, '17:00')]);
    expect(result.delays.map((d) => d.taskId)).toEqual(['c']);
  });

  it('never moves manually scheduled or started tasks, and reports what they leave over-allocated', () => {
    const { span, result } = level([
      { id: 'manual', manuallyScheduled: true, manualStartAt: at(2, '08:00'), manualFinishAt: at(2, '17:00'), levelingDelayMin: 60, assignments: on('ana') },
      { id: 'started', actualStartAt: at(2, '08:00'), progressPct: 10, assignments: on('ana') },
      { id: 'free', assignments: on('ana') },
    ]);
    expect(span('manual')).toEqual([at(2, '08:00'), at(2, '17:00')]);
    expect(span('started')).toEqual([at(2, '08:00'), at(2, '17:00')]);
    expect(span('free')).toEqual([at(3, '08:00'), at(3, '17:00')]);
    // The manual task's own delay is not leveling's to clear.
    expect(result.delays).toEqual([{ taskId: 'free', fromMin: 0, toMin: 480 }]);
    expect(result.overallocations).toEqual([
      { resourceId: 'ana', startAt: at(2, '08:00'), finishAt: at(2, '17:00'), peakUnitsPct: 200, capacityPct: 100, taskIds: ['manual', 'started'], reason: 'fixed_tasks' },
    ]);
  });

  it('reports a task that needs more of a resource than it has, and keeps the others off its span', () => {
    const { span, result } = level([{ id: 'big', durationMin: 960, assignments: on('ana', 200) }, { id: 'small', assignments: on('ana') }]);
    // big is critical (two days), so it goes first; small waits for the whole of ana.
    expect(span('big')).toEqual([at(2, '08:00'), at(3, '17:00')]);
    expect(span('small')).toEqual([at(4, '08:00'), at(4, '17:00')]);
    expect(result.overallocations).toEqual([
      { resourceId: 'ana', startAt: at(2, '08:00'), finishAt: at(3, '17:00'), peakUnitsPct: 200, capacityPct: 100, taskIds: ['big'], reason: 'demand_exceeds_capacity' },
    ]);
    // With capacity for it, nothing is left.
    expect(level([{ id: 'big', assignments: on('ana', 200) }], [], { capacityPct: { ana: 200 } }).result.overallocations).toEqual([]);
  });

  it('levels only the resources named, and clears the delays only of the tasks it may move', () => {
    const { result } = level(
      [
        { id: 'a', assignments: on('ana') },
        { id: 'b', assignments: on('ana') },
        { id: 'c', assignments: on('bob'), levelingDelayMin: 30 },
        { id: 'd', assignments: on('bob') },
      ],
      [],
      { resourceIds: ['ana'] },
    );
    expect(result.delays).toEqual([{ taskId: 'b', fromMin: 0, toMin: 480 }]);
    expect(result.overallocations).toEqual([]);
  });

  it('is idempotent: leveling the leveled plan changes nothing, and earlier delays are cleared first', () => {
    const tasks: T[] = [
      { id: 'a', assignments: on('ana') },
      { id: 'b', assignments: on('ana', 'bob') },
      { id: 'c', assignments: on('bob'), levelingDelayMin: 2400 },
      { id: 'd', durationMin: 960, assignments: on('ana', 60) },
    ];
    const first = level(tasks, [['a', 'c']]);
    const again = levelResources(applied(first.input, first.result));
    expect(again.delays).toEqual([]);
    expect(again.schedule.tasks).toEqual(first.result.schedule.tasks);
    // c's 2,400 minutes were the user's: leveling does not need them.
    expect(first.delay('c')).toBe(0);
    expect(first.result.overallocations).toEqual([]);
  });

  it('moves no ALAP task, milestone or task with a "must" date, and settles plans with ALAP tasks', () => {
    const { result, span } = level(
      [
        { id: 'alap', constraintKind: 'alap', assignments: on('ana') },
        { id: 'long', durationMin: 1440 },
        { id: 'pinned', constraintKind: 'must_start_on', constraintDate: at(3, '08:00'), assignments: on('ana') },
        { id: 'mile', type: 'milestone', durationMin: 0, assignments: on('ana') },
        { id: 'free', assignments: on('ana') },
      ],
      [['alap', 'long']],
    );
    expect(span('pinned')).toEqual([at(3, '08:00'), at(3, '17:00')]);
    expect(result.delays.map((d) => d.taskId)).toEqual(['free']);
    expect(span('free')).not.toEqual(span('pinned'));
    expect(result.rounds).toBeLessThanOrEqual(4);
  });

  it('levels 10,000 tasks wanting one resource at once, its costliest case, in bounded time', () => {
    // Every task starts at the project start: each walks the whole load profile built so far.
    const tasks: T[] = Array.from({ length: 10_000 }, (_, i) => ({ id: `t${String(i).padStart(5, '0')}`, durationMin: 60 * (1 + ((i * 7) % 16)), assignments: on('ana') }));
    const started = performance.now();
    const { result } = level(tasks);
    const elapsedMs = performance.now() - started;
    expect(result.overallocations).toEqual([]);
    expect(result.delays).toHaveLength(9_999);
    // About 0.6 s on the 2-core development machine; the bound leaves room for a busy one.
    expect(elapsedMs).toBeLessThan(15_000);
  });
});

/** Every instant a task starts at, per resource, where more than 100 % is assigned, outside the reported spans. */
function unreportedOverloads(input: ScheduleInput, result: LevelingResult): string[] {
  const rows = new Map(result.schedule.tasks.map((t) => [t.id, t]));
  const parents = new Set(input.tasks.map((t) => t.parentId));
  const spans: { resource: string; from: number; to: number; units: number }[] = [];
  for (const task of input.tasks) {
    if (parents.has(task.id)) continue;
    const row = rows.get(task.id)!;
    for (const a of task.assignments ?? []) spans.push({ resource: a.resourceId, from: toEpochMinutes(row.startAt)!, to: toEpochMinutes(row.finishAt)!, units: a.unitsPct });
  }
  const problems: string[] = [];
  for (const { resource, from: instant } of spans) {
    const load = spans.filter((s) => s.resource === resource && s.from <= instant && instant < s.to).reduce((sum, s) => sum + s.units, 0);
    const reported = result.overallocations.some((o) => o.resourceId === resource && toEpochMinutes(o.startAt)! <= instant && instant < toEpochMinutes(o.finishAt)!);
    if (load > 100 && !reported) problems.push(`${resource} at ${new Date(instant * 60_000).toISOString()}: ${load} %`);
  }
  return problems;
}

const RESOURCES = ['ana', 'bob', 'cy'];
const arbAssignments = fc.array(
  fc.array(fc.record({ resourceId: fc.constantFrom(...RESOURCES), unitsPct: fc.constantFrom(25, 50, 100) }), { maxLength: 2 }),
  { minLength: 14, maxLength: 14 },
);
const withAssignments = (input: ScheduleInput, assignments: { resourceId: string; unitsPct: number }[][]): ScheduleInput => ({
  ...input,
  tasks: input.tasks.map((t, k) => ({ ...t, assignments: assignments[k]!.filter((a, j, all) => all.findIndex((b) => b.resourceId === a.resourceId) === j) })),
});

describe('property: leveling', () => {
  // Plans whose every assigned task may move (no progress, manual dates, ALAP or date
  // constraints but "no earlier than") and needs at most the resource's capacity.
  const resolvable = fc.tuple(arbPlan({ simple: true }), arbAssignments).map(([input, assignments]) => {
    const leveled = withAssignments(input, assignments);
    return {
      ...leveled,
      project: { startAt: leveled.project.startAt },
      tasks: leveled.tasks.map((t) => ({ ...t, constraintKind: t.constraintKind === 'start_no_earlier_than' ? t.constraintKind : 'asap', ...(t.constraintKind === 'start_no_earlier_than' ? {} : { constraintDate: null }) })),
    } satisfies ScheduleInput;
  });

  test.prop([resolvable], RUNS)('no resource is over capacity at any instant a task starts, once the delays are applied', (input) => {
    fc.pre(schedule(input).cycles.length === 0);
    const result = levelResources(input);
    expect(result.overallocations).toEqual([]);
    const rescheduled = schedule(applied(input, result));
    expect(rescheduled.tasks).toEqual(result.schedule.tasks);
    expect(unreportedOverloads(input, { ...result, schedule: rescheduled })).toEqual([]);
  });

  test.prop([arbPlan(), arbAssignments], RUNS)('on any plan: what stays over capacity is reported, fixed tasks keep their delays, and leveling again changes nothing', (plain, assignments) => {
    const input = withAssignments(plain, assignments);
    fc.pre(schedule(input).cycles.length === 0);
    const result = levelResources(input);
    expect(unreportedOverloads(input, result)).toEqual([]);
    expect(schedule(applied(input, result)).tasks).toEqual(result.schedule.tasks);
    // Only tasks leveling may move change their delays.
    const byId = new Map(input.tasks.map((t) => [t.id, t]));
    const parents = new Set(input.tasks.map((t) => t.parentId));
    for (const { taskId } of result.delays) {
      const task = byId.get(taskId)!;
      expect(parents.has(taskId) || task.manuallyScheduled || task.actualStartAt || (task.progressPct ?? 0) > 0, taskId).toBeFalsy();
      expect(['asap', 'start_no_earlier_than', 'finish_no_earlier_than', undefined, null], taskId).toContain(task.constraintKind);
    }
    expect(levelResources(applied(input, result)).delays).toEqual([]);
  });
});
