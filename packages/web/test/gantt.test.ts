import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { counted, formatDate, planDate, planInstant, setPlanZone } from '../src/format';
import { commonDraft, draftOf, mixed, patchBetween, patchOf } from '../src/gantt/task-fields';
import { mergeWrite, outlineRows } from '../src/plan/outline';
import { ticks, timeScale, workingDaysBetween } from '../src/gantt/time-scale';
import type { PlanTask } from '../src/types';

function task(id: string, parentId: string | null, sortKey: string): PlanTask {
  return { id, parentId, sortKey, name: id } as PlanTask;
}

describe('outline rows', () => {
  // Given out of order on purpose: the rows follow parents and sortKeys, not the array.
  const tasks = [task('b', null, 'a1'), task('a2', 'a', 'a1'), task('a', null, 'a0'), task('a1', 'a', 'a0'), task('a1x', 'a1', 'a0')];

  it('puts parents before their subtasks and siblings by sortKey (plain string order), with depths', () => {
    expect(outlineRows(tasks, new Set()).map((row) => [row.task.id, row.depth, row.hasChildren])).toEqual([
      ['a', 0, true],
      ['a1', 1, true],
      ['a1x', 2, false],
      ['a2', 1, false],
      ['b', 0, false],
    ]);
    // Fractional-index keys compare by code unit: 'Z' sorts before 'a', whatever the locale says.
    expect(outlineRows([task('x', null, 'a'), task('y', null, 'Z')], new Set()).map((row) => row.task.id)).toEqual(['y', 'x']);
  });

  it('leaves out the subtasks of a collapsed summary, which keeps its row', () => {
    expect(outlineRows(tasks, new Set(['a'])).map((row) => row.task.id)).toEqual(['a', 'b']);
  });
});

describe('merging a write into the plan', () => {
  it('replaces what changed in place, appends what is new and drops what was deleted', () => {
    const current = [{ id: '1', v: 1 }, { id: '2', v: 1 }, { id: '3', v: 1 }];
    expect(mergeWrite(current, [{ id: '2', v: 2 }, { id: '4', v: 1 }], ['3'])).toEqual([{ id: '1', v: 1 }, { id: '2', v: 2 }, { id: '4', v: 1 }]);
    expect(mergeWrite(current, [], [])).toBe(current);
  });
});

describe('the time scale', () => {
  const from = Date.UTC(2027, 0, 4, 8); // a Monday, 08:00
  const to = Date.UTC(2027, 0, 29, 17);

  it('maps instants to pixels and back, with a margin before the first day', () => {
    const scale = timeScale('day', from, to);
    expect(scale.x(scale.originMs)).toBe(0);
    expect(scale.originMs).toBe(Date.UTC(2026, 11, 28));
    expect(scale.x(Date.UTC(2027, 0, 5)) - scale.x(Date.UTC(2027, 0, 4))).toBe(36);
    expect(scale.at(scale.x(from))).toBe(from);
    expect(scale.x(new Date(to).toISOString())).toBeLessThan(scale.width);
  });

  it('builds only the header cells on screen: days with weekends marked, weeks from Monday, months from the 1st', () => {
    const days = timeScale('day', from, to);
    const shown = ticks(days, days.x(Date.UTC(2027, 0, 8)), days.x(Date.UTC(2027, 0, 11)));
    expect(shown.map((tick) => [new Date(days.at(tick.x)).getUTCDate(), tick.weekend])).toEqual([
      [8, false],
      [9, true],
      [10, true],
    ]);
    const weeks = timeScale('week', from, to);
    for (const tick of ticks(weeks, 0, weeks.width)) expect(new Date(Math.round(weeks.at(tick.x))).getUTCDay()).toBe(1);
    const months = timeScale('month', from, to);
    for (const tick of ticks(months, 0, months.width)) expect(new Date(Math.round(months.at(tick.x))).getUTCDate()).toBe(1);
  });

  it('counts the working days a resize adds or takes away (Monday to Friday)', () => {
    const friday = Date.UTC(2027, 0, 8, 17);
    expect(workingDaysBetween(friday, friday + 3 * 86_400_000)).toBe(1);
    expect(workingDaysBetween(friday, friday + 7 * 86_400_000)).toBe(5);
    expect(workingDaysBetween(friday, friday - 86_400_000)).toBe(-1);
    expect(workingDaysBetween(friday, friday)).toBe(0);
  });
});

describe("a plan whose calendar works in another time zone (Tokyo, UTC+9)", () => {
  beforeEach(() => setPlanZone('Asia/Tokyo'));
  afterEach(() => setPlanZone(null));
  // 08:00 on Monday 1 March 2027 in Tokyo is 23:00 UTC on the Sunday.
  const mondayMorning = '2027-02-28T23:00:00.000Z';

  it('shows and reads dates on the plan wall clock', () => {
    expect(planDate(mondayMorning)).toBe('2027-03-01');
    expect(planInstant('2027-03-01', '08:00')).toBe(mondayMorning);
    expect(formatDate(mondayMorning)).toBe(new Intl.DateTimeFormat(undefined, { timeZone: 'Asia/Tokyo', year: 'numeric', month: 'short', day: 'numeric' }).format(new Date(mondayMorning)));
  });

  it('puts a task on its own day in the timeline, and sends the dates a person types as that zone means them', () => {
    const scale = timeScale('day', Date.parse(mondayMorning), Date.parse(mondayMorning) + 5 * 86_400_000);
    const monday = ticks(scale, 0, scale.width).find((tick) => !tick.weekend && scale.x(mondayMorning) >= tick.x && scale.x(mondayMorning) < tick.x + tick.width)!;
    expect(new Date(scale.at(monday.x)).toISOString().slice(0, 10)).toBe('2027-03-01');
    expect(scale.x(mondayMorning) - monday.x).toBeCloseTo((8 / 24) * 36);
    const task = { constraintKind: 'asap', constraintDate: null, deadline: mondayMorning } as unknown as PlanTask;
    const draft = draftOf(task);
    expect(draft.deadline).toBe('2027-03-01');
    expect(patchOf(task, { ...draft, constraintKind: 'must_start_on', constraintDate: '2027-03-02', deadline: '2027-03-05' })).toMatchObject({
      constraintKind: 'must_start_on',
      constraintDate: '2027-03-01T23:00:00.000Z',
      deadline: '2027-03-05T08:00:00.000Z',
    });
  });
});

describe('counts in words', () => {
  it('says one task, and tasks otherwise', () => {
    expect([0, 1, 2].map((count) => counted(count, 'task'))).toEqual(['0 tasks', '1 task', '2 tasks']);
  });
});

describe('several tasks edited in one form', () => {
  const pour = { ...task('a', null, 'a'), durationMin: 480, progressPct: 0, effortDriven: true, constraintKind: 'asap', constraintDate: null } as PlanTask;
  const strip = { ...pour, id: 'b', durationMin: 960, effortDriven: false } as PlanTask;

  it('shows what they share and marks what differs', () => {
    const draft = commonDraft([pour, strip]);
    expect(draft).toMatchObject({ durationMin: mixed, progressPct: '0', effortDriven: mixed, constraintKind: 'asap' });
    expect(draft).not.toHaveProperty('name');
  });

  it('sends only the fields set: a differing field left or emptied again is left as each task has it', () => {
    const before = commonDraft([pour, strip]);
    expect(patchBetween(before, { ...before, progressPct: '40', durationMin: '' })).toEqual({ progressPct: 40 });
    expect(patchBetween(before, { ...before, effortDriven: false })).toEqual({ effortDriven: false });
    expect(patchBetween(before, before)).toEqual({});
  });
});
