import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { STANDARD_CALENDAR, TimeZone, createCalendar, toEpochMinutes, toIsoString } from '../src/index.js';
import { at } from './support/plan.js';

const std = createCalendar(STANDARD_CALENDAR);
const m = (iso: string) => toEpochMinutes(iso)!;
const s = (min: number) => toIsoString(min);

describe('working-time primitives (scenario 7)', () => {
  it('addWork lands on an interval end, not the next start', () => {
    expect(s(std.addWork(m(at(2, '08:00')), 480))).toBe(at(2, '17:00'));
    expect(s(std.addWork(m(at(2, '13:00')), 480))).toBe(at(3, '12:00'));
    expect(s(std.addWork(m(at(6, '13:00')), 480))).toBe(at(9, '12:00'));
    expect(s(std.addWork(m(at(7, '10:00')), 0))).toBe(at(7, '10:00'));
  });
  it('subWork lands on an interval start', () => {
    expect(s(std.subWork(m(at(3, '17:00')), 480))).toBe(at(3, '08:00'));
    expect(s(std.subWork(m(at(2, '13:00')), 60))).toBe(at(2, '11:00'));
    expect(s(std.subWork(m(at(2, '08:00')), 480))).toBe(at(27, '08:00', 2));
  });
  it('nextWorkStart and normalizeFinish', () => {
    expect(s(std.nextWorkStart(m(at(2, '12:00'))))).toBe(at(2, '13:00'));
    expect(s(std.nextWorkStart(m(at(2, '17:00'))))).toBe(at(3, '08:00'));
    expect(s(std.nextWorkStart(m(at(2, '09:30'))))).toBe(at(2, '09:30'));
    expect(s(std.normalizeFinish(m(at(3, '08:00'))))).toBe(at(2, '17:00'));
    expect(s(std.normalizeFinish(m(at(2, '13:00'))))).toBe(at(2, '12:00'));
    expect(s(std.normalizeFinish(m(at(2, '14:00'))))).toBe(at(2, '14:00'));
    expect(s(std.normalizeFinish(m(at(2, '17:00'))))).toBe(at(2, '17:00'));
    expect(s(std.normalizeFinish(m(at(9, '08:00'))))).toBe(at(6, '17:00'));
  });
  it('workBetween is signed', () => {
    expect(std.workBetween(m(at(2, '08:00')), m(at(9, '08:00')))).toBe(2400);
    expect(std.workBetween(m(at(9, '08:00')), m(at(2, '08:00')))).toBe(-2400);
    expect(std.workBetween(m(at(2, '11:00')), m(at(2, '14:00')))).toBe(120);
  });
  it('exceptions: a holiday and a changed working day', () => {
    const cal = createCalendar({
      id: 'x',
      weekly: STANDARD_CALENDAR.weekly,
      exceptions: [
        { from: '2026-03-04', to: '2026-03-04', intervals: [] },
        { from: '2026-03-07', to: '2026-03-07', intervals: [['09:00', '11:00']] },
      ],
    });
    expect(s(cal.addWork(m(at(2, '08:00')), 1440))).toBe(at(5, '17:00'));
    expect(s(cal.addWork(m(at(6, '17:00')), 60))).toBe(at(7, '10:00'));
    expect(cal.workBetween(m(at(2, '08:00')), m(at(9, '08:00')))).toBe(2400 - 480 + 120);
  });
  // Day n of March 2026 as a date, and the work of each of those days read one by one.
  const march = (day: number) => `2026-03-${String(day).padStart(2, '0')}`;
  const patterns: [string, string][][] = [[], [['09:00', '11:00']], [['06:00', '18:00']]];
  test.prop([fc.array(fc.record({ from: fc.integer({ min: 1, max: 28 }), length: fc.integer({ min: 0, max: 6 }), pattern: fc.integer({ min: 0, max: 2 }) }), { maxLength: 12 })])(
    'overlapping exceptions: on each day the first one listed that holds it wins',
    (drawn) => {
      const exceptions = drawn.map(({ from, length, pattern }) => ({ from: march(from), to: march(Math.min(31, from + length)), intervals: patterns[pattern]! }));
      const cal = createCalendar({ id: 'x', weekly: STANDARD_CALENDAR.weekly, exceptions });
      for (let day = 1; day <= 31; day++) {
        const winner = drawn.find(({ from, length }) => from <= day && day <= Math.min(31, from + length));
        const weekday = new Date(`${march(day)}T00:00:00Z`).getUTCDay();
        const expected = winner ? [0, 120, 720][winner.pattern]! : weekday === 0 || weekday === 6 ? 0 : 480;
        expect(cal.workBetween(m(`${march(day)}T00:00:00Z`), m(`${march(day)}T23:59:00Z`) + 1)).toBe(expected);
      }
    },
  );
  it('derived calendar inherits its base', () => {
    const base = { id: 'b', weekly: STANDARD_CALENDAR.weekly, exceptions: [{ from: '2026-03-03', to: '2026-03-03', intervals: [] }] };
    const d = createCalendar({ id: 'd', baseCalendarId: 'b', weekly: [null, null, null, null, null, null, [['08:00', '12:00']]] }, [base]);
    expect(s(d.addWork(m(at(2, '17:00')), 240))).toBe(at(4, '12:00'));
    expect(s(d.addWork(m(at(6, '17:00')), 240))).toBe(at(7, '12:00'));
  });
  it('a calendar without working time runs around the clock instead of looping', () => {
    const c = createCalendar({ id: 'none', weekly: [[], [], [], [], [], [], []] });
    expect(c.isAroundTheClock).toBe(true);
    expect(s(c.addWork(m(at(7, '10:00')), 60))).toBe(at(7, '11:00'));
  });
});

describe('time zones and DST (product decision 1)', () => {
  const ny = createCalendar({ ...STANDARD_CALENDAR, id: 'ny', timeZone: 'America/New_York' });
  it('makes each zone once: calendars of one zone share it, from one recalculation to the next', () => {
    expect(createCalendar({ ...STANDARD_CALENDAR, id: 'again', timeZone: 'America/New_York' }).zone).toBe(ny.zone);
    expect(TimeZone.named('America/New_York')).toBe(ny.zone);
    expect(TimeZone.named('Not/AZone').name).toBe('UTC');
  });
  it('counts wall-clock working minutes across the spring-forward weekend', () => {
    // DST starts Sun 2026-03-08 in New York: 08:00 local is 13:00Z before, 12:00Z after.
    const fri = m('2026-03-06T13:00:00Z'); // Fri 08:00 EST
    const mon = ny.addWork(fri, 480);
    expect(s(mon)).toBe('2026-03-06T22:00:00.000Z'); // Fri 17:00 EST
    expect(s(ny.nextWorkStart(mon))).toBe('2026-03-09T12:00:00.000Z'); // Mon 08:00 EDT
    expect(ny.workBetween(fri, m('2026-03-09T21:00:00Z'))).toBe(960); // through Mon 17:00 EDT
  });
  it('falls back to UTC for an unknown zone', () => {
    const bad = createCalendar({ ...STANDARD_CALENDAR, id: 'bad', timeZone: 'Not/AZone' });
    expect(bad.zone.name).toBe('UTC');
  });
});

describe('toIsoString', () => {
  it('formats like Date#toISOString, also after its cache has been emptied and refilled', () => {
    const base = m('2026-03-02T08:00:00.000Z');
    // 70,000 distinct instants overflow the 65,536-slot cache (emptied at half load) twice.
    for (let k = 0; k < 70_000; k++) {
      const t = base + k * 37;
      expect(toIsoString(t)).toBe(new Date(t * 60_000).toISOString());
    }
    for (const t of [base, base + 0.5, -1, -2147483648, 2147483647, m('1900-01-01T00:00:00Z'), m('2999-12-31T23:59:00Z')]) {
      expect(toIsoString(t)).toBe(new Date(t * 60_000).toISOString());
    }
  });
});
