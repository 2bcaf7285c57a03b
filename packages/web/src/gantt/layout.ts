import type { Row } from '../plan/outline';
import type { Dependency, PlanTask } from '../types';
import type { Span } from './preview';
import { pixelsPerDay, ticks, type Tick, type TimeScale } from './time-scale';

/** Every size of the chart, in pixels, in one place. */
export const geometry = {
  rowHeight: 32,
  headerHeight: 40,
  /** Space above and below a bar within its row. */
  barInset: 8,
  /** How far a link's line leaves a bar before it turns. */
  linkStub: 8,
  /** Where the link handle sits after a bar's end. */
  linkHandleGap: 4,
  /** Where a bar's label (who works on it) starts after its end, past the link handle. */
  barLabelGap: 20,
  /** Half the width of a milestone's diamond. */
  milestoneHalf: 7,
  /** The narrowest a bar is drawn, to stay visible and grabbable. */
  minBarWidth: 2,
  /** Columns of the grid, and the narrowest it may be dragged to. */
  gridWidth: 540,
  minGridWidth: 160,
} as const;

/** A bar's ends on the timeline. */
export interface BarSpan {
  x0: number;
  x1: number;
}

/** How the pointer is moving a bar now: by whole days, or its progress to a share. */
export type BarGesture = { taskId: string; kind: 'move' | 'resize'; days: number } | { taskId: string; kind: 'progress'; progressPct: number };

/** Where a task's bar is: its scheduled (or previewed) dates, shifted by a gesture the engine has not previewed. */
export function barSpan(task: PlanTask, scale: TimeScale, preview: ReadonlyMap<string, Span> | null, gesture: BarGesture | null): BarSpan {
  const { startAt, finishAt } = preview?.get(task.id) ?? task;
  const x0 = startAt ? scale.x(startAt) : 0;
  const x1 = Math.max(finishAt ? scale.x(finishAt) : x0, x0 + (task.type === 'milestone' ? 0 : geometry.minBarWidth));
  // With the engine's preview the bar is where the schedule puts it; without, it follows the pointer.
  if (!gesture || gesture.taskId !== task.id || gesture.kind === 'progress' || preview?.has(task.id)) return { x0, x1 };
  const dx = gesture.days * pixelsPerDay[scale.zoom];
  return gesture.kind === 'move' ? { x0: x0 + dx, x1: x1 + dx } : { x0, x1: Math.max(x0 + geometry.minBarWidth, x1 + dx) };
}

/** The SVG path of a link's arrow, from its predecessor's end (or start) to its successor's start (or end). */
export function linkPath(type: Dependency['type'], from: BarSpan & { y: number }, to: BarSpan & { y: number }): string {
  const startAtFinish = type === 'FS' || type === 'FF';
  const endAtStart = type === 'FS' || type === 'SS';
  const sx = startAtFinish ? from.x1 : from.x0;
  const ex = endAtStart ? to.x0 : to.x1;
  const out = startAtFinish ? geometry.linkStub : -geometry.linkStub;
  const into = endAtStart ? -geometry.linkStub : geometry.linkStub;
  const midY = to.y > from.y ? to.y - geometry.rowHeight / 2 + 4 : to.y + geometry.rowHeight / 2 - 4;
  const tip = endAtStart ? -5 : 5;
  return `M${sx},${from.y} h${out} V${midY} H${ex + into} V${to.y} H${ex} m${tip},-4 l${-tip},4 l${tip},4`;
}

export interface ChartInput {
  rows: readonly Row[];
  rowIndex: ReadonlyMap<string, number>;
  linksByTask: ReadonlyMap<string, readonly Dependency[]>;
  scale: TimeScale;
  preview: ReadonlyMap<string, Span> | null;
  gesture: BarGesture | null;
  /** The rows on screen (the virtualizer's), and the timeline's part on screen in pixels from its start. */
  visibleRows: readonly number[];
  viewport: { fromX: number; toX: number };
}

export interface LinkLayout {
  id: string;
  d: string;
  critical: boolean;
}

export interface ChartLayout {
  /** Each visible row's bar. */
  bars: Map<string, BarSpan>;
  /** Links touching a visible row, each once. */
  links: LinkLayout[];
  /** The header's cells on screen, never past the timeline's end. */
  ticks: Tick[];
  width: number;
  height: number;
}

/** The y of a row's middle. */
export const rowMiddle = (index: number) => index * geometry.rowHeight + geometry.rowHeight / 2;

/**
 * What the chart draws for the rows and the part of the timeline on screen: a pure function
 * of the plan's rows, the scale, a preview or gesture and the viewport, so only what is seen
 * is computed, and it is tested without a browser.
 */
export function chartLayout(input: ChartInput): ChartLayout {
  const { rows, rowIndex, scale } = input;
  const spanOf = (task: PlanTask) => barSpan(task, scale, input.preview, input.gesture);
  const bars = new Map<string, BarSpan>();
  for (const index of input.visibleRows) {
    const task = rows[index]!.task;
    bars.set(task.id, spanOf(task));
  }
  const links: LinkLayout[] = [];
  const drawn = new Set<string>();
  for (const taskId of bars.keys()) {
    for (const link of input.linksByTask.get(taskId) ?? []) {
      if (drawn.has(link.id)) continue;
      drawn.add(link.id);
      const fromIndex = rowIndex.get(link.predecessorId);
      const toIndex = rowIndex.get(link.successorId);
      // A link to a row folded away is not drawn.
      if (fromIndex === undefined || toIndex === undefined) continue;
      const from = rows[fromIndex]!.task;
      const to = rows[toIndex]!.task;
      links.push({
        id: link.id,
        d: linkPath(link.type, { ...(bars.get(from.id) ?? spanOf(from)), y: rowMiddle(fromIndex) }, { ...(bars.get(to.id) ?? spanOf(to)), y: rowMiddle(toIndex) }),
        critical: from.isCritical && to.isCritical,
      });
    }
  }
  return {
    bars,
    links,
    ticks: ticks(scale, Math.max(0, input.viewport.fromX), Math.min(scale.width, input.viewport.toX)),
    width: scale.width,
    height: rows.length * geometry.rowHeight,
  };
}

/** Links by the tasks they touch, for drawing only those of the rows on screen. */
export function linksByTask(dependencies: readonly Dependency[]): Map<string, Dependency[]> {
  const byTask = new Map<string, Dependency[]>();
  for (const link of dependencies) {
    for (const id of [link.predecessorId, link.successorId]) {
      const list = byTask.get(id);
      if (list) list.push(link);
      else byTask.set(id, [link]);
    }
  }
  return byTask;
}
