import fc from 'fast-check';
import { test } from '@fast-check/vitest';
import { afterEach, describe, expect, it } from 'vitest';
import { clockCalendar, compileCalendars, schedule, Scheduler, TimeZone, type ScheduleInput, type ScheduleResult } from '../../src/index.js';
import { fastPaths } from '../../src/internal.js';
import { arbPlan, CALENDARS } from './arbitraries.js';

// Differential test: the fast paths (weekly calendar tables, positions remembered by the
// passes, plain leaves) against the general code, on random plans. ENGINE_PROP_SEED / ENGINE_PROP_RUNS
// as in invariants.test.ts.
const SEED = process.env.ENGINE_PROP_SEED ? { seed: Number(process.env.ENGINE_PROP_SEED) } : {};
const RUNS = { numRuns: Number(process.env.ENGINE_PROP_RUNS ?? 150), ...SEED };

function setFastPaths(on: boolean): void {
  fastPaths.weeklyCalendar = on;
  fastPaths.rememberedPositions = on;
  fastPaths.plainLeaves = on;
}

function withFastPaths<T>(on: boolean, f: () => T): T {
  setFastPaths(on);
  try {
    return f();
  } finally {
    setFastPaths(true);
  }
}

function both(f: () => ScheduleResult): [ScheduleResult, ScheduleResult] {
  return [withFastPaths(true, f), withFastPaths(false, f)];
}

/** Every task (and the project) on one calendar; optionally some dates moved by whole years. */
const arbSingleCalendarPlan = fc
  .tuple(
    arbPlan(),
    fc.constantFrom(null, 'mornings', 'nights', 'ny', 'tueoff'),
    fc.array(fc.constantFrom(0, 0, 0, -450, -250, -3, 3, 120, 250, 450), { minLength: 14, maxLength: 14 }),
  )
  .map(([input, cal, years]): ScheduleInput => {
    const move = (iso: string | null | undefined, k: number): string | null | undefined =>
      iso && years[k] ? new Date(Date.parse(iso) + years[k]! * 365 * 86_400_000).toISOString() : iso;
    return {
      ...input,
      project: { ...input.project, calendarId: cal },
      tasks: input.tasks.map((t, k) => ({
        ...t,
        calendarId: cal,
        constraintDate: move(t.constraintDate, k),
        deadline: move(t.deadline, (k + 1) % 14),
      })),
    };
  });

describe('property: fast paths equal the general code', () => {
  afterEach(() => {
    setFastPaths(true);
  });

  it('the fast paths are really taken (the comparison is not vacuous)', () => {
    const tables = (on: boolean) =>
      withFastPaths(on, () => (compileCalendars(CALENDARS).get('standard') as unknown as { wkFin: Int32Array | null }).wkFin);
    expect(tables(true)).not.toBeNull();
    expect(tables(false)).toBeNull();
    expect((compileCalendars(CALENDARS).get('tueoff') as unknown as { wkFin: Int32Array | null }).wkFin).toBeNull();
    // The backward pass takes the plain-leaf path for leaves `Network.plain` marks when the
    // state says so (backwardNode): both leaves here are plain.
    const plainPasses = (on: boolean) =>
      withFastPaths(on, () => {
        const s = new Scheduler({
          project: { startAt: '2026-03-02T08:00:00.000Z' },
          tasks: [
            { id: 'a', name: 'A', durationMin: 480 },
            { id: 'b', name: 'B', durationMin: 480 },
          ],
          dependencies: [{ id: 'd', predecessorId: 'a', successorId: 'b', type: 'FS', lagMin: 0 }],
        });
        const st = (s as unknown as { st: { plainLeaves: boolean; remember: boolean; net: { plain: Uint8Array } } }).st;
        return [st.plainLeaves, st.remember, [...st.net.plain]];
      });
    expect(plainPasses(true)).toEqual([true, true, [1, 1]]);
    expect(plainPasses(false)).toEqual([false, false, [1, 1]]);
  });

  it('regression (CI seed 139796177): a late candidate capped at the project finish is not its successor\'s date', () => {
    const input: ScheduleInput = {
      project: { startAt: '2026-02-26T00:00:00.000Z', calendarId: null },
      calendars: CALENDARS,
      tasks: [
        { id: 't0', name: 'Task 0', durationMin: 60 },
        { id: 't1', name: 'Task 1', durationMin: 0, constraintKind: 'start_no_later_than', constraintDate: '2275-12-28T00:00:00.000Z' },
        { id: 't2', name: 'Task 2', parentId: 't1', durationMin: 1, constraintKind: 'must_finish_on', constraintDate: '1776-04-27T00:00:00.000Z', actualStartAt: '2026-02-26T00:00:00.000Z', progressPct: 40 },
        { id: 't3', name: 'Task 3', parentId: 't1', durationMin: 0 },
      ],
      dependencies: [{ id: 'd0', predecessorId: 't0', successorId: 't2', type: 'FF', lagMin: 0 }],
    };
    const [fast, general] = both(() => schedule(input));
    expect(fast).toEqual(general);
    // t0 finishes with t2 (FF), whose must-finish-on date lies 250 years back.
    const t2 = fast.tasks.find((t) => t.id === 't2')!;
    expect(t2.lateFinishAt).toBe('1776-04-26T17:00:00.000Z');
    expect(fast.tasks.find((t) => t.id === 't0')).toMatchObject({ lateFinishAt: t2.lateFinishAt, isCritical: true });
  });

  test.prop([arbSingleCalendarPlan], RUNS)('single-calendar plans: full schedule', (input) => {
    const [fast, general] = both(() => schedule(input));
    expect(fast).toEqual(general);
  });

  test.prop([arbPlan()], RUNS)('multi-calendar plans: full schedule', (input) => {
    const [fast, general] = both(() => schedule(input));
    expect(fast).toEqual(general);
  });

  test.prop([arbSingleCalendarPlan, fc.nat(), fc.integer({ min: 0, max: 3000 })], RUNS)(
    'single-calendar plans: incremental update after a duration edit',
    (input, pick, value) => {
      const i = pick % input.tasks.length;
      const tasks = input.tasks.slice();
      tasks[i] = { ...tasks[i]!, durationMin: value };
      const next = { ...input, tasks };
      const [fast, general] = both(() => {
        const s = new Scheduler(input);
        return s.update(next, { changedTaskIds: [tasks[i]!.id] });
      });
      expect(fast).toEqual(general);
    },
  );

  // The calendar primitives on their own, over instants up to ±600 years from the plan (a
  // calendar reads the years 1600 to 2400, so clamped readings are compared too), also on
  // the clocks elapsed time runs on.
  const arbSteps = fc.array(
    fc.record({
      op: fc.constantFrom('addWork', 'subWork', 'shift', 'nextWorkStart', 'nextMilestoneStart', 'normalizeFinish', 'workBetween'),
      years: fc.constantFrom(0, 0, 0, 0, -1, 1, -30, 30, -250, 250, -600, 600),
      minute: fc.integer({ min: 0, max: 60 * 24 * 21 }),
      amount: fc.oneof(fc.integer({ min: -3000, max: 3000 }), fc.integer({ min: -5_000_000, max: 5_000_000 })),
    }),
    { minLength: 1, maxLength: 40 },
  );
  test.prop([fc.constantFrom('standard', ...CALENDARS.map((c) => c.id), 'clock:UTC', 'clock:America/New_York'), arbSteps], RUNS)(
    'calendar primitives: weekly tables equal the day walk',
    (calId, steps) => {
      const run = (on: boolean): number[] =>
        withFastPaths(on, () => {
          const clockZone = /^clock:(.+)$/.exec(calId)?.[1];
          const cal = clockZone ? clockCalendar(TimeZone.named(clockZone)) : compileCalendars(CALENDARS).get(calId)!;
          const base = Date.UTC(2026, 1, 26) / 60_000;
          return steps.map(({ op, years, minute, amount }) => {
            const t = base + years * 525_600 + minute;
            switch (op) {
              case 'addWork':
                return cal.addWork(t, Math.abs(amount));
              case 'subWork':
                return cal.subWork(t, Math.abs(amount));
              case 'shift':
                return cal.shift(t, amount);
              case 'nextWorkStart':
                return cal.nextWorkStart(t);
              case 'nextMilestoneStart':
                return cal.nextMilestoneStart(t);
              case 'normalizeFinish':
                return cal.normalizeFinish(t);
              default:
                return cal.workBetween(t, t + amount);
            }
          });
        });
      expect(run(true)).toEqual(run(false));
    },
  );
});
