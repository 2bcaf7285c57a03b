import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { formatDate, formatDay, formatDays, minutesPerDay } from '../format';
import { usePlan, usePlanStore } from '../plan/use-plan';
import type { Dependency, PlanTask, TaskPatch } from '../types';
import { LinkEditor } from './link-editor';
import { dragEdit, type SchedulePreview, type Span } from './preview';
import { pixelsPerDay, ticks, type TimeScale } from './time-scale';

export const rowHeight = 32;
const headerHeight = 40;
const gridWidth = 540;
const barInset = 8;

export interface GanttProps {
  scale: TimeScale;
  nowMs: number;
  baseline: ReadonlyMap<string, Span> | null;
  /** Computes, in the browser, where a drag would move every task (the engine's own answer, before the server's). */
  preview: SchedulePreview | null;
  /** Whether the person may edit (drags, links, keys that change the plan). */
  editable: boolean;
  onOpen(taskId: string): void;
  /** Delete pressed: the page asks before deleting these tasks. */
  onDelete(taskIds: string[]): void;
  /** Insert pressed with nothing selected: the page's new-task form takes the focus. */
  onInsert(): void;
}

type Drag =
  | { kind: 'move' | 'resize'; task: PlanTask; fromX: number; dx: number; days: number }
  | { kind: 'link'; task: PlanTask; x: number; y: number };

/** Pixels to whole days at the scale (drags snap to days). */
function snappedDays(scale: TimeScale, dx: number): number {
  return Math.round(dx / pixelsPerDay[scale.zoom]);
}

function arrowPath(dependency: Dependency, from: { x0: number; x1: number; y: number }, to: { x0: number; x1: number; y: number }): string {
  const startAtFinish = dependency.type === 'FS' || dependency.type === 'FF';
  const endAtStart = dependency.type === 'FS' || dependency.type === 'SS';
  const sx = startAtFinish ? from.x1 : from.x0;
  const ex = endAtStart ? to.x0 : to.x1;
  const out = startAtFinish ? 8 : -8;
  const into = endAtStart ? -8 : 8;
  const midY = to.y > from.y ? to.y - rowHeight / 2 + 4 : to.y + rowHeight / 2 - 4;
  const tip = endAtStart ? -5 : 5;
  return `M${sx},${from.y} h${out} V${midY} H${ex + into} V${to.y} H${ex} m${tip},-4 l${-tip},4 l${tip},4`;
}

/**
 * The task grid and the timeline side by side, both virtualised: only the rows on screen
 * (and the header cells and links that touch them) are in the page, so 10,000 tasks
 * scroll like 10.
 */
export function GanttChart(props: GanttProps) {
  const { scale } = props;
  const store = usePlanStore();
  const rows = usePlan((state) => state.rows);
  const selection = usePlan((state) => state.selection);
  const collapsed = usePlan((state) => state.collapsed);
  const dependencies = usePlan((state) => state.plan.dependencies);
  const selectedId = selection.focusId;
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ left: 0, width: 1200 });
  const [drag, setDrag] = useState<Drag | null>(null);
  // Where the dragged task and everything it pushes would go, kept until the saved plan arrives.
  const [preview, setPreview] = useState<ReadonlyMap<string, Span> | null>(null);
  // A name or duration edited in place (double-click or F2 on the row).
  const [editing, setEditing] = useState<{ taskId: string; field: 'name' | 'durationMin' } | null>(null);
  // A link clicked in the chart, edited where it was clicked.
  const [linkEditor, setLinkEditor] = useState<{ linkId: string; x: number; y: number } | null>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => rowHeight, overscan: 12 });
  const items = virtualizer.getVirtualItems();

  const rowIndex = useMemo(() => new Map(rows.map((row, index) => [row.task.id, index])), [rows]);

  // The focused task (else the plan's first) is brought into view when the focus moves (a
  // click, a key, a new or pasted task, a task opened by its address) and when the zoom
  // changes: its row, and its start a little right of the grid unless its bar is on screen.
  // The plan changing under it (a drag, a save) does not move the view.
  const focusTaskId = selectedId ?? rows[0]?.task.id;
  const bringIntoView = useEffectEvent((taskId: string | undefined) => {
    const element = scroller.current;
    const index = taskId === undefined ? undefined : rowIndex.get(taskId);
    if (!element || index === undefined) return;
    if (taskId === selectedId) virtualizer.scrollToIndex(index);
    const task = rows[index]!.task;
    if (!task.startAt) return;
    const x0 = scale.x(task.startAt);
    const x1 = task.finishAt ? scale.x(task.finishAt) : x0;
    const visibleWidth = element.clientWidth - gridWidth;
    if (x0 < element.scrollLeft || x1 > element.scrollLeft + visibleWidth) element.scrollLeft = Math.max(0, x0 - 3 * pixelsPerDay[scale.zoom]);
  });
  useEffect(() => bringIntoView(focusTaskId), [focusTaskId, scale.zoom]);
  const linksByTask = useMemo(() => {
    const byTask = new Map<string, Dependency[]>();
    for (const dependency of dependencies) {
      for (const id of [dependency.predecessorId, dependency.successorId]) {
        const list = byTask.get(id);
        if (list) list.push(dependency);
        else byTask.set(id, [dependency]);
      }
    }
    return byTask;
  }, [dependencies]);

  const span = (task: PlanTask) => {
    const { startAt, finishAt } = preview?.get(task.id) ?? task;
    const x0 = startAt ? scale.x(startAt) : 0;
    const x1 = finishAt ? scale.x(finishAt) : x0;
    return { x0, x1: Math.max(x1, x0 + (task.type === 'milestone' ? 0 : 2)) };
  };
  const shifted = (task: PlanTask) => {
    const { x0, x1 } = span(task);
    // With the engine's preview the dragged bar is where the schedule puts it; without, it follows the pointer.
    if (!drag || drag.kind === 'link' || drag.task.id !== task.id || preview) return { x0, x1 };
    const dx = snappedDays(scale, drag.dx) * pixelsPerDay[scale.zoom];
    return drag.kind === 'move' ? { x0: x0 + dx, x1: x1 + dx } : { x0, x1: Math.max(x0 + 2, x1 + dx) };
  };

  const visible = new Set(items.map((item) => rows[item.index]!.task.id));
  const arrows: { id: string; d: string; critical: boolean }[] = [];
  const drawn = new Set<string>();
  for (const id of visible) {
    for (const dependency of linksByTask.get(id) ?? []) {
      if (drawn.has(dependency.id)) continue;
      drawn.add(dependency.id);
      const fromIndex = rowIndex.get(dependency.predecessorId);
      const toIndex = rowIndex.get(dependency.successorId);
      if (fromIndex === undefined || toIndex === undefined) continue;
      const from = rows[fromIndex]!.task;
      const to = rows[toIndex]!.task;
      arrows.push({
        id: dependency.id,
        d: arrowPath(dependency, { ...shifted(from), y: fromIndex * rowHeight + rowHeight / 2 }, { ...shifted(to), y: toIndex * rowHeight + rowHeight / 2 }),
        critical: from.isCritical && to.isCritical,
      });
    }
  }

  const startDrag = (event: ReactPointerEvent, kind: 'move' | 'resize' | 'link', task: PlanTask) => {
    if (!props.editable || event.button !== 0) return;
    event.stopPropagation();
    (event.currentTarget as Element).setPointerCapture(event.pointerId);
    if (!selection.ids.has(task.id)) store.select(task.id);
    setDrag(kind === 'link' ? { kind, task, x: event.clientX, y: event.clientY } : { kind, task, fromX: event.clientX, dx: 0, days: 0 });
  };
  const moveDrag = (event: ReactPointerEvent) => {
    if (!drag) return;
    if (drag.kind === 'link') return setDrag({ ...drag, x: event.clientX, y: event.clientY });
    const dx = event.clientX - drag.fromX;
    const days = snappedDays(scale, dx);
    setDrag({ ...drag, dx, days });
    if (days !== drag.days && props.preview && drag.task.startAt && drag.task.finishAt) setPreview(days === 0 ? null : props.preview.preview(drag.task.id, dragEdit(drag.task, drag.kind, days)));
  };
  const endDrag = (event: ReactPointerEvent) => {
    if (!drag) return;
    setDrag(null);
    if (drag.kind === 'link') {
      const target = document.elementsFromPoint(event.clientX, event.clientY).find((element) => element instanceof HTMLElement && element.dataset.taskId);
      const successorId = (target as HTMLElement | undefined)?.dataset.taskId;
      if (successorId && successorId !== drag.task.id) void store.link([drag.task.id, successorId]);
      return;
    }
    if (drag.days === 0 || !drag.task.startAt || !drag.task.finishAt) return setPreview(null);
    void store.editTask(drag.task, dragEdit(drag.task, drag.kind, drag.days), drag.kind).finally(() => setPreview(null));
  };

  const startEdit = (event: MouseEvent, task: PlanTask, field: 'name' | 'durationMin') => {
    if (!props.editable) return;
    event.stopPropagation();
    setEditing({ taskId: task.id, field });
  };
  const finishEdit = (task: PlanTask, patch: TaskPatch | null) => {
    setEditing(null);
    scroller.current?.focus();
    if (patch && !Object.entries(patch).every(([field, value]) => task[field as keyof PlanTask] === value)) void store.editTask(task, patch);
  };

  // The keys of Microsoft Project where it has them (docs: README › Keyboard).
  const onKeyDown = (event: KeyboardEvent) => {
    if (editing) return;
    const index = selectedId ? (rowIndex.get(selectedId) ?? -1) : -1;
    const go = (next: number) => {
      const at = Math.max(0, Math.min(rows.length - 1, next));
      const row = rows[at];
      if (!row) return;
      store.select(row.task.id, event.shiftKey ? 'range' : 'only');
      virtualizer.scrollToIndex(at);
    };
    const edits: Record<string, () => unknown> = {
      'Alt+Shift+ArrowRight': store.indent,
      'Alt+Shift+ArrowLeft': store.outdent,
      'Alt+Shift+ArrowUp': store.moveUp,
      'Alt+Shift+ArrowDown': store.moveDown,
      'Ctrl+F2': store.linkSelection,
      'Ctrl+Shift+F2': store.unlinkSelection,
      Insert: () => (selectedId ? store.addTask({ name: 'New task', durationMin: minutesPerDay }, 'above').then((added) => added && startEditing(store.getState().selection.focusId, 'name')) : props.onInsert()),
      Delete: () => selection.ids.size > 0 && props.onDelete([...selection.ids]),
      F2: () => startEditing(selectedId, 'name'),
    };
    const chord = `${event.ctrlKey || event.metaKey ? 'Ctrl+' : ''}${event.altKey ? 'Alt+' : ''}${event.shiftKey ? 'Shift+' : ''}${event.key}`;
    const edit = props.editable ? edits[chord] : undefined;
    if (edit) {
      event.preventDefault();
      void edit();
    } else if (!event.altKey && !event.ctrlKey && !event.metaKey && ['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) {
      event.preventDefault();
      go(event.key === 'ArrowDown' ? index + 1 : event.key === 'ArrowUp' ? index - 1 : event.key === 'Home' ? 0 : rows.length - 1);
    } else if (selectedId && event.key === 'Enter') props.onOpen(selectedId);
    else if (selectedId && !event.altKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight') && rows[index]?.hasChildren) {
      if ((event.key === 'ArrowLeft') !== collapsed.has(selectedId)) store.toggleCollapsed(selectedId);
    }
  };
  const startEditing = (taskId: string | null, field: 'name' | 'durationMin') => {
    if (taskId && props.editable) setEditing({ taskId, field });
  };

  const closeLinkEditor = useCallback(() => {
    setLinkEditor(null);
    scroller.current?.focus();
  }, []);

  const totalHeight = rows.length * rowHeight;
  const header = ticks(scale, view.left - gridWidth, view.left + view.width);
  const nowX = scale.x(props.nowMs);
  const scrollerRect = scroller.current?.getBoundingClientRect();

  return (
    <div
      ref={scroller}
      className="gantt"
      role="treegrid"
      aria-label="Tasks and timeline"
      aria-multiselectable="true"
      aria-rowcount={rows.length}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onScroll={(event) => {
        const { scrollLeft: left, clientWidth: width } = event.currentTarget;
        // Vertical scrolling is the virtualizer's: the header only changes when scrolled sideways.
        setView((current) => (current.left === left && current.width === width ? current : { left, width }));
      }}
      onPointerMove={moveDrag}
      onPointerUp={endDrag}
      onPointerCancel={() => {
        setDrag(null);
        setPreview(null);
      }}
    >
      <div className="gantt-canvas" style={{ width: gridWidth + scale.width, height: headerHeight + totalHeight }}>
        <div className="gantt-header" role="row" style={{ height: headerHeight }}>
          <div className="grid-cells grid-header" role="presentation">
            <span role="columnheader" className="col-key">Key</span>
            <span role="columnheader" className="col-name">Task</span>
            <span role="columnheader" className="col-duration">Duration</span>
            <span role="columnheader" className="col-date">Start</span>
            <span role="columnheader" className="col-date">Finish</span>
          </div>
          <div className="scale" style={{ left: gridWidth }} aria-hidden="true">
            {header.map((tick) => (
              <span key={tick.x} className={tick.weekend ? 'tick weekend' : 'tick'} style={{ left: tick.x, width: tick.width }}>
                {tick.label}
              </span>
            ))}
          </div>
        </div>
        {linkEditor && <LinkEditor {...linkEditor} onClose={closeLinkEditor} />}
        <div className="gantt-body" style={{ top: headerHeight, height: totalHeight }}>
          {nowX >= 0 && nowX <= scale.width && <div className="today" style={{ left: gridWidth + nowX, height: totalHeight }} title="Today" />}
          <svg className="links" style={{ left: gridWidth }} width={scale.width} height={totalHeight} aria-hidden="true">
            {arrows.map((arrow) => (
              <g key={arrow.id} data-link-id={arrow.id}>
                <path d={arrow.d} className={arrow.critical ? 'link critical' : 'link'} />
                {props.editable && (
                  <path
                    d={arrow.d}
                    className="link-hit"
                    onClick={(event) => {
                      event.stopPropagation();
                      const canvas = event.currentTarget.ownerSVGElement!.getBoundingClientRect();
                      setLinkEditor({ linkId: arrow.id, x: gridWidth + event.clientX - canvas.left + 6, y: headerHeight + event.clientY - canvas.top + 6 });
                    }}
                  />
                )}
              </g>
            ))}
            {drag?.kind === 'link' && scrollerRect && (
              <line
                className="link-draft"
                x1={shifted(drag.task).x1}
                y1={(rowIndex.get(drag.task.id) ?? 0) * rowHeight + rowHeight / 2}
                x2={drag.x - scrollerRect.left + view.left - gridWidth}
                y2={drag.y - scrollerRect.top + (scroller.current?.scrollTop ?? 0) - headerHeight}
              />
            )}
          </svg>
          {items.map((item) => {
            const { task, depth, hasChildren } = rows[item.index]!;
            const selected = selection.ids.has(task.id);
            const { x0, x1 } = shifted(task);
            const planned = props.baseline?.get(task.id);
            return (
              <div
                key={task.id}
                role="row"
                aria-rowindex={item.index + 1}
                aria-level={depth + 1}
                aria-expanded={hasChildren ? !collapsed.has(task.id) : undefined}
                aria-selected={selected}
                aria-label={`${task.key} ${task.name}`}
                className={`gantt-row${selected ? ' selected' : ''}${task.id === selectedId ? ' focused' : ''}`}
                style={{ top: item.start, height: rowHeight }}
                onClick={(event) => store.select(task.id, event.shiftKey ? 'range' : event.ctrlKey || event.metaKey ? 'toggle' : 'only')}
                onDoubleClick={() => props.onOpen(task.id)}
              >
                <div className="grid-cells" role="presentation">
                  <span role="gridcell" className="col-key">{task.key}</span>
                  <span role="gridcell" className="col-name" style={{ paddingLeft: 8 + depth * 16 }}>
                    {hasChildren ? (
                      <button type="button" className="toggle" aria-expanded={!collapsed.has(task.id)} aria-label={`${collapsed.has(task.id) ? 'Expand' : 'Collapse'} ${task.name}`} onClick={(event) => { event.stopPropagation(); store.toggleCollapsed(task.id); }}>
                        {collapsed.has(task.id) ? '▸' : '▾'}
                      </button>
                    ) : (
                      <span className="toggle" />
                    )}
                    {editing?.taskId === task.id && editing.field === 'name' ? (
                      <InlineEdit label={`Name of ${task.key}`} initial={task.name} onDone={(value) => finishEdit(task, value === null ? null : { name: value })} />
                    ) : (
                      <span className={task.type === 'summary' ? 'summary-name' : undefined} onDoubleClick={(event) => startEdit(event, task, 'name')}>
                        {task.name}
                      </span>
                    )}
                  </span>
                  <span role="gridcell" className="col-duration" onDoubleClick={(event) => hasChildren || startEdit(event, task, 'durationMin')}>
                    {editing?.taskId === task.id && editing.field === 'durationMin' ? (
                      <InlineEdit label={`Duration of ${task.key} in working days`} initial={String(task.durationMin / minutesPerDay)} onDone={(value) => finishEdit(task, value === null ? null : { durationMin: Math.round(Number(value) * minutesPerDay) })} />
                    ) : (
                      formatDays(task.durationMin)
                    )}
                  </span>
                  <span role="gridcell" className="col-date">{formatDay(task.startAt)}</span>
                  <span role="gridcell" className="col-date">{formatDay(task.finishAt)}</span>
                </div>
                <div className="bar-lane" style={{ left: gridWidth }}>
                  {planned?.startAt && planned.finishAt && (
                    <div className="baseline-bar" style={{ left: scale.x(planned.startAt), width: Math.max(2, scale.x(planned.finishAt) - scale.x(planned.startAt)) }} title={`Baseline: ${formatDate(planned.startAt)} – ${formatDate(planned.finishAt)}`} />
                  )}
                  {task.startAt &&
                    (task.type === 'milestone' ? (
                      <div data-task-id={task.id} className={`milestone${task.isCritical ? ' critical' : ''}`} style={{ left: x0 - 7, top: barInset }} title={`${task.name}: ${formatDate(task.startAt)}`} onPointerDown={(event) => startDrag(event, 'move', task)} />
                    ) : (
                      <div
                        data-task-id={task.id}
                        className={`bar ${task.type === 'summary' ? 'summary' : 'task'}${task.isCritical ? ' critical' : ''}`}
                        style={{ left: x0, width: x1 - x0, top: barInset, height: rowHeight - 2 * barInset }}
                        title={`${task.name}: ${formatDate(task.startAt)} – ${formatDate(task.finishAt)}${task.isCritical ? ' (critical)' : ''}`}
                        onPointerDown={task.type === 'summary' ? undefined : (event) => startDrag(event, 'move', task)}
                      >
                        {task.type !== 'summary' && <div className="progress" style={{ width: `${task.progressPct}%` }} />}
                        {task.type !== 'summary' && props.editable && <div className="resize-handle" aria-hidden="true" onPointerDown={(event) => startDrag(event, 'resize', task)} />}
                      </div>
                    ))}
                  {task.startAt && props.editable && (
                    <div className="link-handle" style={{ left: x1 + 4, top: rowHeight / 2 - 5 }} title={`Drag to a task to link it after ${task.name}`} onPointerDown={(event) => startDrag(event, 'link', task)} />
                  )}
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** A cell's value edited in place: Enter or leaving the field keeps it, Escape drops it. */
function InlineEdit({ label, initial, onDone }: { label: string; initial: string; onDone(value: string | null): void }) {
  const input = useRef<HTMLInputElement>(null);
  const done = useRef(false);
  useEffect(() => input.current?.select(), []);
  const finish = (value: string | null) => {
    if (done.current) return;
    done.current = true;
    onDone(value === null || value.trim() === '' ? null : value.trim());
  };
  return (
    <input
      ref={input}
      className="inline-edit"
      aria-label={label}
      defaultValue={initial}
      onClick={(event) => event.stopPropagation()}
      onDoubleClick={(event) => event.stopPropagation()}
      onKeyDown={(event) => {
        event.stopPropagation();
        if (event.key === 'Enter') finish(event.currentTarget.value);
        if (event.key === 'Escape') finish(null);
      }}
      onBlur={(event) => finish(event.currentTarget.value)}
    />
  );
}
