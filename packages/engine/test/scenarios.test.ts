import { describe, expect, it } from 'vitest';
import { at, plan, span } from './support/plan.js';

/**
 * Worked scenarios for the rules of docs/scheduling.md (Standard calendar, project start
 * Monday 2026-03-02 08:00), one test per scenario; the number in a title labels it.
 */
const STD_TUE_OFF = {
  id: 'tueoff',
  weekly: [[], [['08:00', '12:00'], ['13:00', '17:00']], [['08:00', '12:00'], ['13:00', '17:00']], [['08:00', '12:00'], ['13:00', '17:00']], [['08:00', '12:00'], ['13:00', '17:00']], [['08:00', '12:00'], ['13:00', '17:00']], []] as [string, string][][],
  exceptions: [{ from: '2026-03-03', to: '2026-03-03', intervals: [] }],
};
const MORNINGS = {
  id: 'mornings',
  weekly: [[], [['08:00', '12:00']], [['08:00', '12:00']], [['08:00', '12:00']], [['08:00', '12:00']], [['08:00', '12:00']], []] as [string, string][][],
};

describe('calendar and arithmetic', () => {
  it('1: one full day', () => {
    const p = plan([{ id: 'A' }]);
    expect(span(p.t('A'))).toEqual([at(2, '08:00'), at(2, '17:00')]);
    expect(p.t('A').totalFloatMin).toBe(0);
    expect(p.t('A').isCritical).toBe(true);
    expect(p.result.projectFinishAt).toBe(at(2, '17:00'));
  });
  it('2: FS successor of a full day starts next morning', () => {
    const p = plan([{ id: 'A' }, { id: 'B' }], [['A', 'B']]);
    expect(span(p.t('B'))).toEqual([at(3, '08:00'), at(3, '17:00')]);
  });
  it('3: half day then FS over lunch, with slack', () => {
    const p = plan(
      [{ id: 'A' }, { id: 'B' }, { id: 'C', durationMin: 240 }, { id: 'D', durationMin: 600 }],
      [['A', 'B'], ['C', 'D']],
    );
    expect(span(p.t('C'))).toEqual([at(2, '08:00'), at(2, '12:00')]);
    expect(span(p.t('D'))).toEqual([at(2, '13:00'), at(3, '15:00')]);
    expect(p.t('C').lateStartAt).toBe(at(2, '10:00'));
    expect(p.t('C').lateFinishAt).toBe(at(2, '15:00'));
    expect(p.t('C').totalFloatMin).toBe(120);
    expect(p.t('C').freeFloatMin).toBe(0);
    expect(p.t('D').totalFloatMin).toBe(120);
  });
  it('4: milestone after a full day stays at 17:00', () => {
    const p = plan([{ id: 'A' }, { id: 'M', type: 'milestone', durationMin: 0 }, { id: 'B' }], [['A', 'M'], ['M', 'B']]);
    const m = p.t('M');
    expect([m.earlyStartAt, m.earlyFinishAt, m.lateStartAt, m.lateFinishAt]).toEqual(Array(4).fill(at(2, '17:00')));
    expect(p.t('B').startAt).toBe(at(3, '08:00'));
  });
  it('5: holiday exception', () => {
    const cal = { ...STD_TUE_OFF, id: 'wedoff', exceptions: [{ from: '2026-03-04', to: '2026-03-04', intervals: [] }] };
    const p = plan([{ id: 'A', durationMin: 1440 }, { id: 'B', durationMin: 2400 }], [['A', 'B']], { calendars: [cal] });
    // The project calendar is the plan's calendarId; set it via the task calendars.
    const q = plan(
      [{ id: 'A', durationMin: 1440, calendarId: 'wedoff' }, { id: 'B', durationMin: 2400, calendarId: 'wedoff' }],
      [['A', 'B']],
      { calendars: [cal] },
    );
    expect(p.t('A').finishAt).toBe(at(4, '17:00'));
    expect(span(q.t('A'))).toEqual([at(2, '08:00'), at(5, '17:00')]);
    expect(span(q.t('B'))).toEqual([at(6, '08:00'), at(12, '17:00')]);
  });
  it('6: project start at a non-working instant; milestone keeps it', () => {
    const p = plan([{ id: 'A' }, { id: 'M', type: 'milestone', durationMin: 0 }], [], { startAt: at(6, '17:00') });
    expect(span(p.t('A'))).toEqual([at(9, '08:00'), at(9, '17:00')]);
    expect(p.t('M').startAt).toBe(at(6, '17:00'));
    expect(p.t('M').totalFloatMin).toBe(480);
  });
});

describe('lag calendars (successor calendar)', () => {
  it('8: lag counted on the successor calendar with Tue off', () => {
    const p = plan([{ id: 'A' }, { id: 'B', calendarId: 'tueoff' }], [['A', 'B', 'FS', 480]], { calendars: [STD_TUE_OFF] });
    expect(span(p.t('B'))).toEqual([at(5, '08:00'), at(5, '17:00')]);
  });
  it('9: predecessor on the Tue-off calendar, successor Std', () => {
    const p = plan([{ id: 'C', calendarId: 'tueoff' }, { id: 'D' }], [['C', 'D', 'FS', 480]], { calendars: [STD_TUE_OFF] });
    expect(span(p.t('D'))).toEqual([at(4, '08:00'), at(4, '17:00')]);
  });
  it('10: mornings-only successor; free float capped at total float', () => {
    const p = plan(
      [{ id: 'B', durationMin: 1200 }, { id: 'C', calendarId: 'mornings', durationMin: 480 }],
      [['B', 'C', 'FS', 240]],
      { calendars: [MORNINGS] },
    );
    expect(p.t('B').finishAt).toBe(at(4, '12:00'));
    expect(span(p.t('C'))).toEqual([at(6, '08:00'), at(9, '12:00')]);
    expect(p.t('B').totalFloatMin).toBe(240);
    expect(p.t('B').freeFloatMin).toBe(240);
  });
});

describe('links and lags', () => {
  const base = [{ id: 'A', durationMin: 960 }];
  it('11: FS +480', () => {
    const p = plan([...base, { id: 'B' }], [['A', 'B', 'FS', 480]]);
    expect(span(p.t('B'))).toEqual([at(5, '08:00'), at(5, '17:00')]);
  });
  it('12: FS −240 (lead)', () => {
    const p = plan([...base, { id: 'B' }, { id: 'C' }], [['A', 'B', 'FS', 480], ['A', 'C', 'FS', -240]]);
    expect(span(p.t('C'))).toEqual([at(3, '13:00'), at(4, '12:00')]);
    expect(p.t('C').totalFloatMin).toBe(720);
  });
  it('13: a lead never pulls a task before the project start', () => {
    const p = plan([...base, { id: 'D' }], [['A', 'D', 'FS', -1440]]);
    expect(span(p.t('D'))).toEqual([at(2, '08:00'), at(2, '17:00')]);
  });
  it('14–16: SS +240, FF 0, FF +240', () => {
    const p = plan(
      [...base, { id: 'B' }, { id: 'C', durationMin: 1440 }, { id: 'D', durationMin: 240 }],
      [['A', 'B', 'SS', 240], ['A', 'C', 'FF', 0], ['A', 'D', 'FF', 240]],
    );
    expect(span(p.t('B'))).toEqual([at(2, '13:00'), at(3, '12:00')]);
    expect(span(p.t('C'))).toEqual([at(2, '08:00'), at(4, '17:00')]);
    expect(p.t('C').isCritical).toBe(true);
    expect(p.t('A').lateFinishAt).toBe(at(4, '12:00'));
    expect(p.t('A').totalFloatMin).toBe(240);
    expect(span(p.t('D'))).toEqual([at(4, '08:00'), at(4, '12:00')]);
  });
  it('17–18: SF from an SNET task', () => {
    const p = plan(
      [{ id: 'A', constraintKind: 'start_no_earlier_than', constraintDate: at(4, '08:00') }, { id: 'B' }, { id: 'D' }],
      [['A', 'B', 'SF', 0], ['A', 'D', 'SF', 240]],
    );
    // MS Project keeps an SF-driven finish as computed: Wed 08:00 (≡ Tue 17:00).
    expect(p.t('B').startAt).toBe(at(3, '08:00'));
    expect(p.t('B').finishAt).toBe(at(4, '08:00'));
    expect(p.t('B').totalFloatMin).toBe(480);
    expect(span(p.t('D'))).toEqual([at(3, '13:00'), at(4, '12:00')]);
  });
  it('19: SS +480 then FS', () => {
    const p = plan([{ id: 'A', durationMin: 2400 }, { id: 'B' }, { id: 'C' }], [['A', 'B', 'SS', 480], ['B', 'C']]);
    expect(p.t('B').startAt).toBe(at(3, '08:00'));
    expect(p.t('C').startAt).toBe(at(4, '08:00'));
    expect(p.t('B').totalFloatMin).toBe(960);
    expect(p.t('B').freeFloatMin).toBe(0);
  });
  it('20: SF onto a predecessor at the project start is raised to the project start', () => {
    const p = plan([{ id: 'A' }, { id: 'B' }], [['A', 'B', 'SF', 0]]);
    expect(p.t('B').startAt).toBe(at(2, '08:00'));
  });
});

describe('constraints', () => {
  it('21: SNET later than the link', () => {
    const p = plan(
      [{ id: 'A' }, { id: 'B', constraintKind: 'start_no_earlier_than', constraintDate: at(4, '08:00') }, { id: 'C' }],
      [['A', 'B'], ['A', 'C']],
    );
    expect(p.t('B').startAt).toBe(at(4, '08:00'));
    expect(p.t('C').startAt).toBe(at(3, '08:00'));
    expect(p.t('A').totalFloatMin).toBe(480);
    expect(p.t('A').freeFloatMin).toBe(0);
  });
  it('22: SNET on a Saturday is snapped to Monday even with a predecessor', () => {
    const p = plan([{ id: 'A' }, { id: 'B', constraintKind: 'start_no_earlier_than', constraintDate: at(7, '08:00') }], [['A', 'B']]);
    expect(span(p.t('B'))).toEqual([at(9, '08:00'), at(9, '17:00')]);
  });
  it('23: SNET before the project start, no links', () => {
    const p = plan([{ id: 'A', constraintKind: 'start_no_earlier_than', constraintDate: at(27, '08:00', 2) }]);
    expect(span(p.t('A'))).toEqual([at(27, '08:00', 2), at(27, '17:00', 2)]);
    expect(p.result.projectStartAt).toBe(at(27, '08:00', 2));
    expect(p.result.conflicts.map((c) => c.kind)).toContain('before_project_start');
  });
  it('24: FNET without links finishes exactly at the date', () => {
    const p = plan([{ id: 'C', constraintKind: 'finish_no_earlier_than', constraintDate: at(4, '12:00') }]);
    expect(span(p.t('C'))).toEqual([at(3, '13:00'), at(4, '12:00')]);
  });
  for (const [n, kind, date] of [
    [25, 'start_no_later_than', at(3, '08:00')],
    [26, 'finish_no_later_than', at(3, '17:00')],
    [27, 'must_start_on', at(3, '08:00')],
  ] as const) {
    it(`${n}: ${kind} beats the link, conflict, negative slack upstream`, () => {
      const p = plan(
        [{ id: 'A', durationMin: 1440 }, { id: 'B', constraintKind: kind, constraintDate: date }, { id: 'C' }],
        [['A', 'B'], ['B', 'C']],
      );
      expect(span(p.t('B'))).toEqual([at(3, '08:00'), at(3, '17:00')]);
      expect(p.t('C').startAt).toBe(at(4, '08:00'));
      expect(p.t('A').lateFinishAt).toBe(at(2, '17:00'));
      expect(p.t('A').lateStartAt).toBe(at(26, '08:00', 2));
      expect(p.t('A').totalFloatMin).toBe(-960);
      expect(p.t('A').isCritical).toBe(true);
      expect(p.t('B').totalFloatMin).toBe(0);
      expect(p.t('C').totalFloatMin).toBe(0);
      const c = p.result.conflicts.filter((x) => x.kind === 'constraint_vs_link');
      expect(c).toHaveLength(1);
      expect(c[0]!.taskId).toBe('B');
      expect(c[0]!.dependencyId).toBe('d0');
    });
  }
  it('28: MSO later than the link', () => {
    const p = plan([{ id: 'A' }, { id: 'B', constraintKind: 'must_start_on', constraintDate: at(5, '08:00') }], [['A', 'B']]);
    expect(p.t('B').startAt).toBe(at(5, '08:00'));
    expect(p.t('A').totalFloatMin).toBe(960);
    expect(p.t('A').freeFloatMin).toBe(960);
    expect(p.result.conflicts).toEqual([]);
  });
  it('29: MFO', () => {
    const p = plan(
      [{ id: 'A' }, { id: 'B', constraintKind: 'must_finish_on', constraintDate: at(6, '12:00') }, { id: 'C', durationMin: 2400 }],
      [['A', 'B']],
    );
    expect(span(p.t('B'))).toEqual([at(5, '13:00'), at(6, '12:00')]);
    expect(p.t('B').totalFloatMin).toBe(0);
    expect(p.t('A').totalFloatMin).toBe(1200);
  });
  it('30: FNLT gives late finish and slack', () => {
    const p = plan(
      [{ id: 'A' }, { id: 'B', constraintKind: 'finish_no_later_than', constraintDate: at(4, '17:00') }, { id: 'C', durationMin: 2400 }],
      [['A', 'B']],
    );
    expect(p.t('B').lateFinishAt).toBe(at(4, '17:00'));
    expect(p.t('B').totalFloatMin).toBe(480);
    expect(p.t('A').totalFloatMin).toBe(480);
  });
  it('31: FNLT after the project finish is ignored (min rule)', () => {
    const p = plan(
      [{ id: 'A' }, { id: 'B' }, { id: 'C', constraintKind: 'finish_no_later_than', constraintDate: at(13, '17:00') }],
      [['A', 'B']],
    );
    expect(p.t('C').lateFinishAt).toBe(at(3, '17:00'));
    expect(p.t('C').totalFloatMin).toBe(480);
  });
});

describe('ALAP and deadlines', () => {
  it('32: ALAP tasks sit at their late dates and are critical', () => {
    const p = plan(
      [{ id: 'A', constraintKind: 'alap' }, { id: 'B', durationMin: 1440 }, { id: 'C' }, { id: 'D', constraintKind: 'alap' }],
      [['A', 'C'], ['B', 'C']],
    );
    expect(span(p.t('A'))).toEqual([at(4, '08:00'), at(4, '17:00')]);
    expect(p.t('A').earlyStartAt).toBe(at(2, '08:00'));
    expect(p.t('A').lateStartAt).toBe(at(4, '08:00'));
    expect(p.t('A').totalFloatMin).toBe(0);
    expect(p.t('A').isCritical).toBe(true);
    expect(p.t('C').startAt).toBe(at(5, '08:00'));
    expect(span(p.t('D'))).toEqual([at(5, '08:00'), at(5, '17:00')]);
    expect(p.t('D').totalFloatMin).toBe(0);
  });
  it('33: an ASAP successor follows its ALAP predecessor', () => {
    const p = plan([{ id: 'A', constraintKind: 'alap' }, { id: 'B' }, { id: 'C', durationMin: 2400 }], [['A', 'B']]);
    expect(p.t('A').startAt).toBe(at(5, '08:00'));
    expect(p.t('B').startAt).toBe(at(6, '08:00'));
    expect(p.t('B').totalFloatMin).toBe(0);
  });
  it('34: an ALAP task finishes on its deadline', () => {
    const p = plan([{ id: 'A', constraintKind: 'alap', deadline: at(3, '17:00') }, { id: 'C', durationMin: 2400 }]);
    expect(span(p.t('A'))).toEqual([at(3, '08:00'), at(3, '17:00')]);
  });
  it('35: a met deadline only adds a late-finish limit', () => {
    const p = plan([{ id: 'A' }, { id: 'B', deadline: at(4, '17:00') }, { id: 'C', durationMin: 2400 }], [['A', 'B']]);
    expect(p.t('B').startAt).toBe(at(3, '08:00'));
    expect(p.t('B').totalFloatMin).toBe(480);
    expect(p.t('A').totalFloatMin).toBe(480);
    expect(p.result.conflicts).toEqual([]);
  });
  it('36: a missed deadline gives negative slack and a conflict', () => {
    const p = plan([{ id: 'A', durationMin: 960 }, { id: 'B', durationMin: 960, deadline: at(4, '17:00') }], [['A', 'B']]);
    expect(span(p.t('B'))).toEqual([at(4, '08:00'), at(5, '17:00')]);
    expect(p.t('B').lateFinishAt).toBe(at(4, '17:00'));
    expect(p.t('B').totalFloatMin).toBe(-480);
    expect(p.t('B').isCritical).toBe(true);
    expect(p.t('A').totalFloatMin).toBe(-480);
    expect(p.result.conflicts.map((c) => [c.kind, c.taskId])).toEqual([['deadline_missed', 'B']]);
  });
  it('37: a deadline after the project finish changes nothing', () => {
    const p = plan([{ id: 'A' }, { id: 'B', deadline: at(13, '17:00') }], [['A', 'B']]);
    expect(p.t('B').totalFloatMin).toBe(0);
  });
});

describe('summaries', () => {
  it('38: summary to summary FS', () => {
    const p = plan(
      [
        { id: 'S1', type: 'summary' },
        { id: 'A', parentId: 'S1' },
        { id: 'B', parentId: 'S1', durationMin: 960 },
        { id: 'S2', type: 'summary' },
        { id: 'C', parentId: 'S2' },
        { id: 'D', parentId: 'S2' },
      ],
      [['S1', 'S2'], ['C', 'D']],
    );
    expect(p.t('C').startAt).toBe(at(4, '08:00'));
    expect(p.t('D').startAt).toBe(at(5, '08:00'));
    expect(span(p.t('S1'))).toEqual([at(2, '08:00'), at(3, '17:00')]);
    expect(span(p.t('S2'))).toEqual([at(4, '08:00'), at(5, '17:00')]);
    expect(p.t('S1').durationMin).toBe(960);
    expect(p.t('A').totalFloatMin).toBe(480);
    expect(p.t('A').freeFloatMin).toBe(480);
  });
  it('39: SS from a summary uses its earliest child; FS waits for all', () => {
    const p = plan(
      [{ id: 'S1', type: 'summary' }, { id: 'A', parentId: 'S1' }, { id: 'B', parentId: 'S1', durationMin: 960 }, { id: 'C' }, { id: 'D' }],
      [['S1', 'C', 'SS', 240], ['S1', 'D']],
    );
    expect(span(p.t('C'))).toEqual([at(2, '13:00'), at(3, '12:00')]);
    expect(p.t('D').startAt).toBe(at(4, '08:00'));
  });
  it('40: FS into a summary applies to its children', () => {
    const p = plan(
      [{ id: 'A', durationMin: 960 }, { id: 'S1', type: 'summary' }, { id: 'B', parentId: 'S1' }, { id: 'C', parentId: 'S1' }],
      [['A', 'S1'], ['B', 'C']],
    );
    expect(p.t('B').startAt).toBe(at(4, '08:00'));
    expect(p.t('C').startAt).toBe(at(5, '08:00'));
    expect(span(p.t('S1'))).toEqual([at(4, '08:00'), at(5, '17:00')]);
  });
  it('41: summary progress; linking a summary to its own child is a cycle', () => {
    const p = plan(
      [{ id: 'S', type: 'summary' }, { id: 'A', parentId: 'S', durationMin: 960, progressPct: 50, actualStartAt: at(2, '08:00') }, { id: 'B', parentId: 'S', durationMin: 960 }],
      [],
    );
    expect(p.t('S').progressPct).toBe(25);
    const q = plan([{ id: 'S', type: 'summary', key: 'P-1' }, { id: 'A', parentId: 'S', key: 'P-2' }], [['S', 'A']]);
    expect(q.result.cycles).toHaveLength(1);
    expect(q.result.cycles[0]!.taskIds.sort()).toEqual(['A', 'S']);
    expect(q.result.cycles[0]!.path).toBe('P-2 → P-1 → P-2');
  });
  it('only a finished task or phase shows 100 %: 99.99 % of 240 minutes is 240 whole actual minutes', () => {
    const p = plan(
      [
        { id: 'S', type: 'summary' },
        { id: 'A', parentId: 'S', durationMin: 240, progressPct: 100, actualStartAt: at(2, '08:00') },
        { id: 'B', parentId: 'S', durationMin: 240, progressPct: 99.99, actualStartAt: at(2, '08:00') },
      ],
      [],
    );
    expect(p.t('B').progressPct).toBe(99.99);
    expect(p.t('S').progressPct).toBe(99.99);
    expect(p.t('A').progressPct).toBe(100);
  });
});

describe('progress', () => {
  it('42: in progress, TS = finish slack', () => {
    const p = plan(
      [{ id: 'A', durationMin: 960, actualStartAt: at(2, '08:00'), progressPct: 50 }, { id: 'B' }, { id: 'C', durationMin: 2400 }],
      [['A', 'B']],
    );
    expect(span(p.t('A'))).toEqual([at(2, '08:00'), at(3, '17:00')]);
    expect(p.t('A').lateFinishAt).toBe(at(5, '17:00'));
    expect(p.t('A').totalFloatMin).toBe(960);
    expect(p.t('A').isCritical).toBe(false);
    expect(p.t('B').startAt).toBe(at(4, '08:00'));
  });
  it('43: complete tasks are never critical', () => {
    const p = plan(
      [{ id: 'A', durationMin: 960, actualStartAt: at(2, '08:00'), actualFinishAt: at(3, '17:00'), progressPct: 100 }, { id: 'B' }],
      [['A', 'B']],
    );
    expect(p.t('B').startAt).toBe(at(4, '08:00'));
    expect(p.t('B').isCritical).toBe(true);
    expect(p.t('A').isCritical).toBe(false);
    expect(p.t('A').freeFloatMin).toBe(0);
  });
  it('44: started late', () => {
    const p = plan([{ id: 'A', durationMin: 960, actualStartAt: at(4, '08:00'), progressPct: 25 }, { id: 'B' }], [['A', 'B']]);
    expect(span(p.t('A'))).toEqual([at(4, '08:00'), at(5, '17:00')]);
    expect(p.t('B').startAt).toBe(at(6, '08:00'));
  });
  it('45: an actual finish sets the duration', () => {
    const p = plan(
      [{ id: 'A', durationMin: 960, actualStartAt: at(2, '08:00'), actualFinishAt: at(4, '12:00'), progressPct: 100 }, { id: 'B' }],
      [['A', 'B']],
    );
    expect(p.t('A').durationMin).toBe(1200);
    expect(span(p.t('B'))).toEqual([at(4, '13:00'), at(5, '12:00')]);
  });
  it('46: SS out of a started task', () => {
    const p = plan(
      [{ id: 'A', durationMin: 960, actualStartAt: at(2, '08:00'), progressPct: 50 }, { id: 'B' }, { id: 'C', durationMin: 2400 }],
      [['A', 'B', 'SS']],
    );
    expect(p.t('B').startAt).toBe(at(2, '08:00'));
    expect(p.t('A').lateFinishAt).toBe(at(6, '17:00'));
    expect(p.t('A').totalFloatMin).toBe(1440);
  });
  it('47: FNET stretches a started task', () => {
    const p = plan([
      { id: 'A', durationMin: 960, actualStartAt: at(2, '08:00'), progressPct: 50, constraintKind: 'finish_no_earlier_than', constraintDate: at(5, '17:00') },
    ]);
    expect(p.t('A').finishAt).toBe(at(5, '17:00'));
  });
});

describe('manual, leveling, backward', () => {
  it('49: a manual task stays put and still drives its successor', () => {
    const p = plan(
      [{ id: 'A', manuallyScheduled: true, manualStartAt: at(4, '08:00'), manualFinishAt: at(4, '17:00') }, { id: 'B' }],
      [['A', 'B']],
    );
    expect(span(p.t('A'))).toEqual([at(4, '08:00'), at(4, '17:00')]);
    expect(p.t('B').startAt).toBe(at(5, '08:00'));
  });
  it('a manual task without links is critical at zero slack, unless its duration is an estimate ("1 day?")', () => {
    const manual = { manuallyScheduled: true, manualStartAt: at(4, '08:00'), manualFinishAt: at(4, '17:00') };
    const p = plan([{ id: 'Real', ...manual }, { id: 'Estimate', ...manual, durationEstimated: true }, { id: 'Short', ...manual, durationMin: 240, manualFinishAt: at(4, '12:00') }]);
    // Its slack runs to the project finish like any task's.
    expect([p.t('Real').isCritical, p.t('Estimate').isCritical, p.t('Short').isCritical]).toEqual([true, false, false]);
    expect([p.t('Estimate').totalFloatMin, p.t('Short').totalFloatMin]).toEqual([0, 240]);
    // Linked, an estimate counts like any other task.
    const linked = plan([{ id: 'Estimate', ...manual, durationEstimated: true }, { id: 'B' }], [['Estimate', 'B']]);
    expect(linked.t('Estimate').isCritical).toBe(true);
  });
  it('manual task before its predecessor is a manual_vs_link conflict', () => {
    const p = plan([{ id: 'P' }, { id: 'A', manuallyScheduled: true, manualStartAt: at(2, '08:00'), manualFinishAt: at(2, '17:00') }], [['P', 'A']]);
    expect(p.result.conflicts.map((c) => c.kind)).toEqual(['manual_vs_link']);
  });
  it('50: leveling delay in working minutes after links', () => {
    const p = plan([{ id: 'A', levelingDelayMin: 480 }]);
    expect(span(p.t('A'))).toEqual([at(3, '08:00'), at(3, '17:00')]);
  });
  it('55: backward scheduling from the deadline', () => {
    const p = plan(
      [
        { id: 'A', constraintKind: 'alap' },
        { id: 'B', durationMin: 960, constraintKind: 'alap' },
        { id: 'C', constraintKind: 'alap' },
        { id: 'D', constraintKind: 'asap' },
      ],
      [['A', 'B']],
      { scheduleFrom: 'backward', finishAt: at(6, '10:00') },
    );
    expect(span(p.t('A'))).toEqual([at(4, '08:00'), at(4, '17:00')]);
    expect(span(p.t('B'))).toEqual([at(5, '08:00'), at(6, '17:00')]);
    expect(span(p.t('C'))).toEqual([at(6, '08:00'), at(6, '17:00')]);
    expect(p.t('C').totalFloatMin).toBe(960);
    expect(span(p.t('D'))).toEqual([at(4, '08:00'), at(4, '17:00')]);
    expect(p.t('D').totalFloatMin).toBe(0);
    expect(p.t('D').isCritical).toBe(true);
    expect(p.result.projectStartAt).toBe(at(4, '08:00'));
  });
  it('56: two independent chains', () => {
    const p = plan(
      [{ id: 'A' }, { id: 'B', durationMin: 960 }, { id: 'C' }, { id: 'D' }],
      [['A', 'B'], ['C', 'D']],
    );
    expect(p.t('A').isCritical && p.t('B').isCritical).toBe(true);
    expect(p.t('C').totalFloatMin).toBe(480);
    expect(p.t('D').totalFloatMin).toBe(480);
    expect(p.t('C').freeFloatMin).toBe(0);
    expect(p.t('D').freeFloatMin).toBe(480);
  });
  it('57: a closing dependency is reported as a cycle with its path', () => {
    const p = plan([{ id: 'a', key: 'WEB-3' }, { id: 'b', key: 'WEB-7' }], [['a', 'b'], ['b', 'a']]);
    expect(p.result.cycles).toEqual([{ path: 'WEB-3 → WEB-7 → WEB-3', taskIds: ['a', 'b'], taskNames: ['a', 'b'] }]);
  });
});

describe('summary constraints and deadlines', () => {
  it('a summary SNET bounds its leaves; a summary FNLT limits their late finish', () => {
    const p = plan(
      [
        { id: 'S', type: 'summary', constraintKind: 'start_no_earlier_than', constraintDate: at(3, '08:00') },
        { id: 'A', parentId: 'S' },
        { id: 'T', type: 'summary', constraintKind: 'finish_no_later_than', constraintDate: at(4, '17:00') },
        { id: 'B', parentId: 'T', durationMin: 960 },
        { id: 'C', durationMin: 2400 },
      ],
      [],
    );
    expect(p.t('A').startAt).toBe(at(3, '08:00'));
    expect(p.t('B').lateFinishAt).toBe(at(4, '17:00'));
    expect(p.t('B').totalFloatMin).toBe(480);
  });
  it('a missed summary deadline is reported', () => {
    const p = plan([{ id: 'S', type: 'summary', deadline: at(2, '17:00') }, { id: 'A', parentId: 'S', durationMin: 960 }]);
    expect(p.result.conflicts.map((c) => [c.kind, c.taskId])).toEqual([['deadline_missed', 'S']]);
    expect(p.t('A').totalFloatMin).toBe(-480);
  });
});

describe('worked link examples', () => {
  it('FF −240 and FF +960', () => {
    const p = plan(
      [{ id: 'P', durationMin: 960 }, { id: 'S' }, { id: 'Q' }, { id: 'R' }],
      [['P', 'S', 'FF', -240], ['Q', 'R', 'FF', 960]],
    );
    expect(span(p.t('S'))).toEqual([at(2, '13:00'), at(3, '12:00')]);
    expect(span(p.t('R'))).toEqual([at(4, '08:00'), at(4, '17:00')]);
  });
  it('SF 0 onto a 960-minute successor; SNET at 12:30 snaps to 13:00', () => {
    const p = plan(
      [{ id: 'A', constraintKind: 'start_no_earlier_than', constraintDate: at(4, '08:00') }, { id: 'B', durationMin: 960 }, { id: 'C', constraintKind: 'start_no_earlier_than', constraintDate: at(2, '12:30') }],
      [['A', 'B', 'SF', 0]],
    );
    expect(p.t('B').startAt).toBe(at(2, '08:00'));
    expect(p.t('B').finishAt).toBe(at(4, '08:00')); // ≡ Tue 17:00, kept as MS Project stores it
    expect(p.t('C').startAt).toBe(at(2, '13:00'));
  });
  it('lag in free float: FS +240 with a parallel long task', () => {
    // A's total float of 720 needs a project finish of Thu 17:00, hence a 1920-minute parallel task.
    const p = plan([{ id: 'A' }, { id: 'B' }, { id: 'C', durationMin: 1920 }], [['A', 'B', 'FS', 240]]);
    expect(p.t('B').startAt).toBe(at(3, '13:00'));
    expect(p.t('A').freeFloatMin).toBe(0);
    expect(p.t('A').totalFloatMin).toBe(720);
  });
  it('worked network: two chains into one task', () => {
    const p = plan(
      [{ id: 'A', durationMin: 960 }, { id: 'B' }, { id: 'C' }, { id: 'D', durationMin: 240 }],
      [['A', 'C'], ['B', 'C'], ['B', 'D']],
    );
    expect([p.t('B').lateStartAt, p.t('B').totalFloatMin, p.t('B').freeFloatMin]).toEqual([at(3, '08:00'), 480, 0]);
    expect([p.t('D').lateStartAt, p.t('D').lateFinishAt, p.t('D').totalFloatMin, p.t('D').freeFloatMin]).toEqual([at(4, '13:00'), at(4, '17:00'), 720, 720]);
    expect(p.t('C').isCritical && p.t('A').isCritical).toBe(true);
  });
});

describe('elapsed durations and lags (on the clock, 24 × 7)', () => {
  it('an elapsed task runs over the weekend; its floats are clock minutes', () => {
    const p = plan(
      [{ id: 'A', durationMin: 2400 }, { id: 'B', durationMin: 3 * 1440, durationElapsed: true }, { id: 'C' }, { id: 'D', durationMin: 4800 }],
      [['A', 'B'], ['B', 'C']],
    );
    // B starts when A finishes, Friday 17:00, without waiting for working time.
    expect(span(p.t('B'))).toEqual([at(6, '17:00'), at(9, '17:00')]);
    expect(span(p.t('C'))).toEqual([at(10, '08:00'), at(10, '17:00')]);
    // B's late finish is C's late start as it is (Friday 08:00, not Thursday 17:00).
    expect([p.t('B').lateStartAt, p.t('B').lateFinishAt]).toEqual([at(10, '08:00'), at(13, '08:00')]);
    expect([p.t('B').totalFloatMin, p.t('B').freeFloatMin]).toEqual([87 * 60, 15 * 60]);
    expect([p.t('A').lateFinishAt, p.t('A').totalFloatMin, p.t('A').freeFloatMin]).toEqual([at(9, '17:00'), 480, 0]);
    expect(p.t('C').totalFloatMin).toBe(1440);
    expect(p.result.tasks.filter((t) => t.isCritical).map((t) => t.id)).toEqual(['D']);
  });

  it('an elapsed lag FS +3 ed runs over the weekend; free float is measured from its end', () => {
    const p = plan(
      [{ id: 'A', durationMin: 2400 }, { id: 'B' }, { id: 'C' }],
      [['A', 'B', 'FS', 3 * 1440, 'elapsed'], ['A', 'C', 'FS', 3 * 480]],
    );
    // Friday 17:00 + 72 hours is Monday 17:00: B starts on Tuesday morning; three working days reach Wednesday 17:00.
    expect(span(p.t('B'))).toEqual([at(10, '08:00'), at(10, '17:00')]);
    expect(span(p.t('C'))).toEqual([at(12, '08:00'), at(12, '17:00')]);
    expect([p.t('B').lateStartAt, p.t('B').totalFloatMin]).toEqual([at(12, '08:00'), 960]);
    expect([p.t('A').lateFinishAt, p.t('A').totalFloatMin, p.t('A').freeFloatMin, p.t('A').isCritical]).toEqual([at(6, '17:00'), 0, 0, true]);

    // E's successor F waits for G until Thursday: E keeps Wednesday, after the end of its lag (Tuesday 17:00).
    const q = plan([{ id: 'E' }, { id: 'F' }, { id: 'G', durationMin: 1440 }], [['E', 'F', 'FS', 1440, 'elapsed'], ['G', 'F']]);
    expect(q.t('F').startAt).toBe(at(5, '08:00'));
    expect([q.t('E').totalFloatMin, q.t('E').freeFloatMin]).toEqual([480, 480]);
  });

  it('an elapsed task without predecessors starts at the first working minute of the project start', () => {
    const p = plan([{ id: 'A', durationMin: 1440, durationElapsed: true }], [], { startAt: at(2, '00:00') });
    expect(span(p.t('A'))).toEqual([at(2, '08:00'), at(3, '08:00')]);
  });

  it('across a DST change, elapsed time keeps the wall clock of the calendar zone', () => {
    const ny = { id: 'ny', timeZone: 'America/New_York', weekly: STD_TUE_OFF.weekly };
    // New York moves to summer time on Sunday 8 March 2026 (02:00 EST → 03:00 EDT): 08:00 is 13:00 UTC before, 12:00 UTC after.
    const p = plan(
      [
        { id: 'E', calendarId: 'ny', durationMin: 1440, durationElapsed: true, constraintKind: 'start_no_earlier_than', constraintDate: '2026-03-07T13:00:00.000Z' },
        { id: 'F', calendarId: 'ny' },
        { id: 'G', calendarId: 'ny', constraintKind: 'start_no_earlier_than', constraintDate: '2026-03-06T13:00:00.000Z' },
        { id: 'H', calendarId: 'ny', durationMin: 60, durationElapsed: true },
      ],
      [['E', 'F'], ['G', 'H', 'FS', 3 * 1440, 'elapsed']],
      { calendars: [ny] },
    );
    // One elapsed day from Saturday 08:00 EST ends on Sunday at 08:00 EDT: 23 hours later.
    expect(span(p.t('E'))).toEqual(['2026-03-07T13:00:00.000Z', '2026-03-08T12:00:00.000Z']);
    expect(span(p.t('F'))).toEqual(['2026-03-09T12:00:00.000Z', '2026-03-09T21:00:00.000Z']);
    // Three elapsed days after Friday 17:00 EST is Monday 17:00 EDT.
    expect(span(p.t('H'))).toEqual(['2026-03-09T21:00:00.000Z', '2026-03-09T22:00:00.000Z']);
    // E may start a day later (Sunday 08:00 EDT): 1,440 minutes on the wall clock, 1,380 real ones.
    expect([p.t('E').lateStartAt, p.t('E').lateFinishAt, p.t('E').totalFloatMin]).toEqual(['2026-03-08T12:00:00.000Z', '2026-03-09T12:00:00.000Z', 1440]);
    expect([p.t('G').lateFinishAt, p.t('G').isCritical, p.t('H').isCritical]).toEqual(['2026-03-06T22:00:00.000Z', true, true]);
  });
});
