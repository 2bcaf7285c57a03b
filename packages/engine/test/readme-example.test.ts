import { expect, it } from 'vitest';
import { schedule } from '../src/index.js';

it('the README example computes what the README says', () => {
  const result = schedule({
    project: { startAt: '2026-03-02T08:00:00Z', scheduleFrom: 'forward', calendarId: null },
    calendars: [],
    tasks: [
      { id: 'a', key: 'WEB-1', name: 'Design', durationMin: 960 },
      { id: 'b', key: 'WEB-2', name: 'Build', durationMin: 480, deadline: '2026-03-04T17:00:00Z' },
    ],
    dependencies: [{ id: 'd1', predecessorId: 'a', successorId: 'b', type: 'FS', lagMin: 0 }],
  });
  expect(result.tasks[1]).toMatchObject({
    id: 'b',
    startAt: '2026-03-04T08:00:00.000Z',
    finishAt: '2026-03-04T17:00:00.000Z',
    totalFloatMin: 0,
    freeFloatMin: 0,
    isCritical: true,
    durationMin: 480,
    isSummary: false,
    isMilestone: false,
    pertDurationMin: null,
    progressPct: 0,
  });
  expect(result.conflicts).toEqual([]);
});
