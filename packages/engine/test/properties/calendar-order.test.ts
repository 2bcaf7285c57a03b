import fc from 'fast-check';
import { test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { createCalendar, STANDARD_CALENDAR, type CalendarInput, type WorkCalendar } from '../../src/index.js';

// A calendar reading must be a function of the calendar and its arguments alone: the day
// table a calendar grows while it is read is a cache, so what was read before (and in which
// order) must not change any result. ENGINE_PROP_SEED / ENGINE_PROP_RUNS as in invariants.test.ts.
const SEED = process.env.ENGINE_PROP_SEED ? { seed: Number(process.env.ENGINE_PROP_SEED) } : {};
const RUNS = { numRuns: Number(process.env.ENGINE_PROP_RUNS ?? 100), ...SEED };

const DAY = [['08:00', '12:00'], ['13:00', '17:00']] as [string, string][];
const INPUTS: Record<string, CalendarInput> = {
  utc: STANDARD_CALENDAR,
  dst: { ...STANDARD_CALENDAR, id: 'dst', timeZone: 'America/New_York' },
  exceptions: {
    id: 'exceptions',
    weekly: [[], DAY, DAY, DAY, DAY, DAY, []],
    exceptions: [
      { from: '2026-03-03', to: '2026-03-03', intervals: [] },
      { from: '2026-03-01', to: '2026-03-10', intervals: [['09:00', '11:00']] },
      { from: '2026-12-24', to: '2027-01-01', intervals: [] },
      { from: '1830-06-01', to: '1830-06-30', intervals: [['00:00', '24:00']] },
      { from: '2200-01-03', to: '2200-01-03', intervals: [] },
    ],
  },
};

type Reading = { op: string; t: number; amount: number };

/** One reading (`exact`: `exactPosition` of a position near t's). */
function read(cal: WorkCalendar, { op, t, amount }: Reading): number | boolean {
  switch (op) {
    case 'position':
      return cal.position(t);
    case 'exact':
      return cal.exactPosition(cal.position(t) + amount);
    case 'finishAtPosition':
      return cal.finishAtPosition(cal.position(t) + amount);
    case 'startAtPosition':
      return cal.startAtPosition(cal.position(t) + amount);
    case 'addWork':
      return cal.addWork(t, Math.abs(amount));
    case 'subWork':
      return cal.subWork(t, Math.abs(amount));
    case 'nextMilestoneStart':
      return cal.nextMilestoneStart(t);
    default:
      return cal.workBetween(t, t + amount);
  }
}

// Instants from 600 years before to 600 years after 2026 (beyond the span a calendar reads,
// 1600–2400), amounts up to about 40 years of work.
const arbReading = fc.record({
  op: fc.constantFrom('position', 'exact', 'finishAtPosition', 'startAtPosition', 'addWork', 'subWork', 'nextMilestoneStart', 'workBetween'),
  t: fc
    .tuple(fc.constantFrom(0, 0, 0, 0, -1, 1, -30, 30, -200, 200, -420, 380, -600, 600), fc.integer({ min: 0, max: 60 * 24 * 21 }))
    .map(([years, minute]) => Date.UTC(2026, 1, 26) / 60_000 + years * 525_600 + minute),
  amount: fc.oneof(fc.integer({ min: -3000, max: 3000 }), fc.integer({ min: -5_000_000, max: 5_000_000 })),
});

describe('property: calendar readings do not depend on earlier look-ups', () => {
  test.prop(
    [fc.constantFrom(...Object.keys(INPUTS)), fc.array(arbReading, { minLength: 1, maxLength: 30 }), fc.array(fc.nat(), { minLength: 30, maxLength: 30 })],
    RUNS,
  )('the same readings in another order, on a warmed-up calendar and each on a fresh calendar', (name, readings, keys) => {
    const fresh = (): WorkCalendar => createCalendar(INPUTS[name]!);
    const inOrder = ((cal) => readings.map((r) => read(cal, r)))(fresh());
    // Shuffled: read in another order, then put back in the original order to compare.
    const order = readings.map((_, k) => k).sort((a, b) => keys[a]! - keys[b]! || b - a);
    const shuffled: (number | boolean)[] = [];
    const cal = fresh();
    for (const k of order) shuffled[k] = read(cal, readings[k]!);
    expect(shuffled).toEqual(inOrder);
    // Warmed up: the table first grown far into the past and the future.
    const warm = fresh();
    for (const years of [-380, 360, -500, 500]) warm.addWork(Date.UTC(2026 + years, 0, 1) / 60_000, 1);
    expect(readings.map((r) => read(warm, r))).toEqual(inOrder);
    // Alone: every reading on a calendar that has read nothing else.
    expect(readings.map((r) => read(fresh(), r))).toEqual(inOrder);
  });
});
