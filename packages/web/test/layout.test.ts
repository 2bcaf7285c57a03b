import { describe, expect, it } from 'vitest';
import { barSpan, chartLayout, geometry, linksByTask } from '../src/gantt/layout';
import { varianceLabel } from '../src/gantt/task-drawer';
import { drag, gestureOf, grab, idle, release } from '../src/gantt/pointer';
import { timeScale } from '../src/gantt/time-scale';
import { outlineRows } from '../src/plan/outline';
import type { Dependency, PlanTask } from '../src/types';

const day = 86_400_000;
const monday = Date.UTC(2027, 0, 4, 8);
const iso = (ms: number) => new Date(ms).toISOString();

function task(id: string, startDay: number, days: number, fields: Partial<PlanTask> = {}): PlanTask {
  return {
    id,
    key: `T-${id}`,
    name: id,
    parentId: null,
    sortKey: id,
    type: days === 0 ? 'milestone' : 'task',
    durationMin: days * 480,
    progressPct: 0,
    isCritical: false,
    startAt: iso(monday + startDay * day),
    finishAt: iso(monday + startDay * day + (days === 0 ? 0 : (days - 1) * day + 9 * 3_600_000)),
    ...fields,
  } as PlanTask;
}
const link = (id: string, predecessorId: string, successorId: string): Dependency => ({ id, predecessorId, successorId, type: 'FS', lagMin: 0 });

describe('the chart layout', () => {
  const scale = timeScale('day', monday, monday + 40 * day);
  const tasks = [task('a', 0, 2), task('b', 2, 1, { isCritical: true }), task('m', 3, 0), task('c', 5, 1, { parentId: 'b' })];
  const rows = outlineRows(tasks, new Set());
  const rowIndex = new Map(rows.map((row, index) => [row.task.id, index]));
  const input = {
    rows,
    rowIndex,
    linksByTask: linksByTask([link('ab', 'a', 'b'), link('bc', 'b', 'c'), link('am', 'a', 'm')]),
    scale,
    preview: null,
    gesture: null,
    visibleRows: [0, 1],
    viewport: { fromX: 0, toX: 400 },
  };

  it('places bars by their dates, a milestone as a point and a short task at least a grabbable width', () => {
    expect(barSpan(tasks[0]!, scale, null, null)).toEqual({ x0: scale.x(tasks[0]!.startAt!), x1: scale.x(tasks[0]!.finishAt!) });
    const milestone = barSpan(tasks[2]!, scale, null, null);
    expect(milestone.x1).toBe(milestone.x0);
    const instant = barSpan({ ...tasks[0]!, finishAt: tasks[0]!.startAt }, scale, null, null);
    expect(instant.x1 - instant.x0).toBe(geometry.minBarWidth);
  });

  it('follows a gesture by whole days, unless the engine previewed where the task goes', () => {
    const at = barSpan(tasks[0]!, scale, null, null);
    expect(barSpan(tasks[0]!, scale, null, { taskId: 'a', kind: 'move', days: 2 })).toEqual({ x0: at.x0 + 72, x1: at.x1 + 72 });
    expect(barSpan(tasks[0]!, scale, null, { taskId: 'a', kind: 'resize', days: -1 })).toEqual({ x0: at.x0, x1: at.x1 - 36 });
    const previewed = new Map([['a', { startAt: iso(monday + 10 * day), finishAt: iso(monday + 11 * day) }]]);
    expect(barSpan(tasks[0]!, scale, previewed, { taskId: 'a', kind: 'move', days: 2 }).x0).toBe(scale.x(monday + 10 * day));
  });

  it('lays out only the rows on screen and the links touching them, each once; never a header past the timeline', () => {
    const layout = chartLayout(input);
    expect([...layout.bars.keys()]).toEqual(['a', 'b']);
    expect(layout.links.map((each) => each.id).sort()).toEqual(['ab', 'am', 'bc']);
    expect(layout.links.find((each) => each.id === 'ab')?.critical).toBe(false);
    expect(layout.height).toBe(rows.length * geometry.rowHeight);
    const wide = chartLayout({ ...input, viewport: { fromX: -500, toX: scale.width + 5000 } });
    expect(Math.max(...wide.ticks.map((tick) => tick.x))).toBeLessThan(scale.width);
    expect(Math.min(...wide.ticks.map((tick) => tick.x))).toBeGreaterThanOrEqual(0);
  });

  it('leaves out a link to a row folded away', () => {
    const folded = outlineRows(tasks, new Set(['b']));
    const layout = chartLayout({ ...input, rows: folded, rowIndex: new Map(folded.map((row, index) => [row.task.id, index])), visibleRows: folded.map((_, index) => index) });
    expect(layout.links.map((each) => each.id).sort()).toEqual(['ab', 'am']);
  });
});

describe('the pointer on the chart', () => {
  const a = task('a', 0, 2);
  const bar = { x0: 100, x1: 200 };

  it('moves a bar by whole days and asks for a "start no earlier than" constraint; back where it began, for nothing', () => {
    let state = grab('move', a, 500, 10, bar);
    state = drag(state, 500 + 2 * 36 + 10, 10, 'day');
    expect(gestureOf(state)).toEqual({ taskId: 'a', kind: 'move', days: 2 });
    expect(release(state, undefined)).toEqual({ kind: 'edit', task: a, label: 'move', patch: { constraintKind: 'start_no_earlier_than', constraintDate: iso(Date.parse(a.startAt!) + 2 * day) } });
    expect(release(drag(state, 505, 10, 'day'), undefined)).toBeNull();
  });

  it('resizes by working days at the finish', () => {
    const state = drag(grab('resize', a, 0, 0, bar), 36, 0, 'day');
    expect(release(state, undefined)).toMatchObject({ kind: 'edit', label: 'resize', patch: { durationMin: 3 * 480 } });
  });

  it('drags progress to a whole percent of the bar, between 0 and 100', () => {
    let state = grab('progress', a, 100, 0, bar);
    state = drag(state, 137.4, 0, 'day');
    expect(release(state, undefined)).toMatchObject({ kind: 'edit', label: 'progress', patch: { progressPct: 37 } });
    expect(release(drag(state, 900, 0, 'day'), undefined)).toMatchObject({ patch: { progressPct: 100 } });
    expect(release(drag(state, -900, 0, 'day'), undefined)).toBeNull();
  });

  it('links from a handle to the task it is released over, never to itself', () => {
    const state = drag(grab('link', a, 0, 0, bar), 300, 40, 'day');
    expect(release(state, 'b')).toEqual({ kind: 'link', predecessorId: 'a', successorId: 'b' });
    expect(release(state, 'a')).toBeNull();
    expect(release(state, undefined)).toBeNull();
    expect(release(idle, 'b')).toBeNull();
  });
});

describe("the drawer's finish variance", () => {
  it('says which way in words, without a sign to double it', () => {
    expect(varianceLabel(2)).toBe('2 d late');
    expect(varianceLabel(-5)).toBe('5 d early');
    expect(varianceLabel(0)).toBe('on time');
  });
});
