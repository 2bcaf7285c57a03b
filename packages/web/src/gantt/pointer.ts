import type { PlanTask, TaskPatch } from '../types';
import type { BarGesture, BarSpan } from './layout';
import { dragEdit } from './preview';
import { pixelsPerDay, type Zoom } from './time-scale';

/**
 * What the pointer is doing on the chart: nothing, or a gesture begun on a bar (move it,
 * drag its end, drag its progress, draw a link from its handle). Pure: the chart feeds it
 * pointer positions and acts on what `release` answers.
 */
export type PointerState =
  | { kind: 'idle' }
  | { kind: 'move' | 'resize'; task: PlanTask; fromX: number; days: number }
  | { kind: 'progress'; task: PlanTask; bar: BarSpan; fromX: number; startPct: number; progressPct: number }
  | { kind: 'link'; task: PlanTask; x: number; y: number };

export type Grab = 'move' | 'resize' | 'progress' | 'link';

/** What a finished gesture asks for. */
export type Release = { kind: 'edit'; task: PlanTask; patch: TaskPatch; label: 'move' | 'resize' | 'progress' } | { kind: 'link'; predecessorId: string; successorId: string } | null;

export const idle: PointerState = { kind: 'idle' };

/** A gesture begins on a bar (`bar`: where it is drawn, for progress). */
export function grab(kind: Grab, task: PlanTask, x: number, y: number, bar: BarSpan): PointerState {
  if (kind === 'link') return { kind, task, x, y };
  if (kind === 'progress') return { kind, task, bar, fromX: x, startPct: task.progressPct, progressPct: task.progressPct };
  return { kind, task, fromX: x, days: 0 };
}

/** The pointer moved: moves and resizes snap to whole days, progress to whole percents. */
export function drag(state: PointerState, x: number, y: number, zoom: Zoom): PointerState {
  switch (state.kind) {
    case 'idle':
      return state;
    case 'link':
      return { ...state, x, y };
    case 'progress': {
      const width = Math.max(1, state.bar.x1 - state.bar.x0);
      const progressPct = Math.round(Math.min(100, Math.max(0, state.startPct + ((x - state.fromX) / width) * 100)));
      return progressPct === state.progressPct ? state : { ...state, progressPct };
    }
    default: {
      const days = Math.round((x - state.fromX) / pixelsPerDay[zoom]);
      return days === state.days ? state : { ...state, days };
    }
  }
}

/** The bar shift the chart shows while dragging (null when nothing moves). */
export function gestureOf(state: PointerState): BarGesture | null {
  if (state.kind === 'move' || state.kind === 'resize') return state.days === 0 ? null : { taskId: state.task.id, kind: state.kind, days: state.days };
  if (state.kind === 'progress') return { taskId: state.task.id, kind: 'progress', progressPct: state.progressPct };
  return null;
}

/**
 * The pointer is released (over the task `overTaskId`, for a link): the change to make, or
 * null when the gesture ends where it began. A move becomes a "start no earlier than"
 * constraint and a resize a new duration, as Microsoft Project does; a task without dates
 * cannot be dragged.
 */
export function release(state: PointerState, overTaskId: string | undefined): Release {
  switch (state.kind) {
    case 'idle':
      return null;
    case 'link':
      return overTaskId && overTaskId !== state.task.id ? { kind: 'link', predecessorId: state.task.id, successorId: overTaskId } : null;
    case 'progress':
      return state.progressPct === state.startPct ? null : { kind: 'edit', task: state.task, patch: { progressPct: state.progressPct }, label: 'progress' };
    default:
      if (state.days === 0 || !state.task.startAt || !state.task.finishAt) return null;
      return { kind: 'edit', task: state.task, patch: dragEdit(state.task, state.kind, state.days), label: state.kind };
  }
}
