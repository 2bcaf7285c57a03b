import { describe, expect, it } from 'vitest';
import { writeCsv } from '../../src/domain/exchange/csv.js';
import { documentTask, type PlanDocument } from '../../src/domain/exchange/plan-document.js';

const plan: PlanDocument = {
  name: 'Launch',
  description: null,
  startDate: '2024-01-01',
  scheduleFrom: 'forward',
  deadline: null,
  currency: 'EUR',
  calendarRef: null,
  calendars: [],
  resources: [
    { ref: 'ada', name: 'Ada', userId: null },
    { ref: 'bob', name: 'Bob, Jr.', userId: null },
  ],
  tasks: [
    documentTask({ ref: 'phase', name: 'Phase "one", part 1', type: 'summary', durationMin: 1440 }),
    documentTask({ ref: 'design', parentRef: 'phase', name: '=HYPERLINK("http://evil")', durationMin: 960, notes: 'line one\nline two' }),
    documentTask({ ref: 'build', parentRef: 'phase', name: 'Build', durationMin: 240, progressPct: 50, constraintKind: 'start_no_earlier_than', constraintDate: '2024-01-03T08:00:00Z' }),
    documentTask({ ref: 'ship', name: '@ship', type: 'milestone', deadline: '2024-01-10T17:00:00Z', notes: '-1+1' }),
  ],
  dependencies: [
    { predecessorRef: 'design', successorRef: 'build', type: 'FS', lagMin: 960 },
    { predecessorRef: 'design', successorRef: 'ship', type: 'FS', lagMin: 0 },
    { predecessorRef: 'build', successorRef: 'ship', type: 'SS', lagMin: -240 },
  ],
  assignments: [
    { taskRef: 'build', resourceRef: 'ada', unitsPct: 100 },
    { taskRef: 'build', resourceRef: 'bob', unitsPct: 50 },
  ],
  baselines: [],
};

describe('writeCsv', () => {
  it('writes one RFC 4180 row per task in outline order, with predecessors in Microsoft Project notation', () => {
    const schedule = new Map([['build', { startAt: '2024-01-03T08:00:00Z', finishAt: '2024-01-03T12:00:00Z' }]]);
    expect(writeCsv(plan, schedule).split('\r\n')).toEqual([
      'Outline,Name,Type,Duration,Start,Finish,Predecessors,Progress,Constraint,Constraint date,Deadline,Resources,Notes',
      '1,"Phase ""one"", part 1",summary,3,,,,0,asap,,,,',
      `1.1,"'=HYPERLINK(""http://evil"")",task,2,,,,0,asap,,,,"line one\nline two"`,
      '1.2,Build,task,0.5,2024-01-03T08:00:00Z,2024-01-03T12:00:00Z,1.1FS+2d,50,start_no_earlier_than,2024-01-03T08:00:00Z,,"Ada; Bob, Jr.",',
      "2,'@ship,milestone,0,,,1.1;1.2SS-0.5d,0,asap,,2024-01-10T17:00:00Z,,'-1+1",
      '',
    ]);
  });

  it('guards every cell a spreadsheet would run as a formula', () => {
    const names = ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', 'plain = text'];
    const csv = writeCsv({ ...plan, dependencies: [], assignments: [], tasks: names.map((name, index) => documentTask({ ref: String(index), name })) });
    const cells = csv.split('\r\n').slice(1, -1).map((row) => row.split(',')[1]);
    expect(cells).toEqual(["'=1+1", "'+1", "'-1", "'@SUM(A1)", "'\tx", `"'\rx"`, 'plain = text']);
  });
});
