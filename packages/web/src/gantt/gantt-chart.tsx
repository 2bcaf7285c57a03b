import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { formatDate, minutesPerDay } from '../format';
import type { DropZone } from '../plan/outline';
import { usePlan, usePlanStore } from '../plan/use-plan';
import type { Dependency, PlanTask } from '../types';
import { columnWidth, gridWidthOf, resizeColumn, resizeGrid, type ColumnLayout } from './column-layout';
import { columns, type CellContext, type ColumnId } from './columns';
import { chartLayout, geometry, linksByTask as indexLinks, rowMiddle } from './layout';
import { LinkEditor } from './link-editor';
import { drag as dragTo, gestureOf, grab, idle, release, type Grab, type PointerState } from './pointer';
import type { SchedulePreview, Span } from './preview';
import { pixelsPerDay, type TimeScale } from './time-scale';

const { rowHeight, headerHeight, barInset } = geometry;

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
  /** The person's columns for this plan, and how to change them (the splitter, a column's width). */
  columnLayout: ColumnLayout;
  onColumnLayout(change: (layout: ColumnLayout) => ColumnLayout): void;
}

/** A cell being edited in place, and what it starts with (a key typed on the row replaces the value). */
interface CellEditing {
  taskId: string;
  column: ColumnId;
  initial?: string;
}

/** Follows the pointer from where it went down, with the pointer captured: for the splitter and column edges. */
/** The element id of a task's cell, which the grid names as its active descendant for screen readers. */
function cellDomId(taskId: string, column: ColumnId): string {
  return `cell-${taskId}-${column}`;
}

function dragWidth(event: ReactPointerEvent, from: number, onWidth: (width: number) => void): void {
  event.preventDefault();
  event.stopPropagation();
  const handle = event.currentTarget as HTMLElement;
  handle.setPointerCapture(event.pointerId);
  const startX = event.clientX;
  const move = (moved: PointerEvent) => onWidth(from + moved.clientX - startX);
  const up = () => {
    handle.removeEventListener('pointermove', move);
    handle.removeEventListener('pointerup', up);
  };
  handle.addEventListener('pointermove', move);
  handle.addEventListener('pointerup', up);
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
  const [pointer, setPointer] = useState<PointerState>(idle);
  // Where the dragged task and everything it pushes would go, kept until the saved plan arrives.
  const [preview, setPreview] = useState<ReadonlyMap<string, Span> | null>(null);
  // A name or duration edited in place (double-click or F2 on the row).
  const [editing, setEditing] = useState<CellEditing | null>(null);
  // The cell cursor on the focused row: the column ← → move across, F2 and typing edit, and a click or an edit puts it on; at first the name.
  const [cellColumn, setCellColumn] = useState<ColumnId>('name');
  const layoutOfColumns = props.columnLayout;
  const gridWidth = gridWidthOf(layoutOfColumns);
  const plan = usePlan((state) => state.plan);
  const tasksById = usePlan((state) => state.tasksById);
  const cellContext = useMemo((): CellContext => {
    const predecessors = new Map<string, Dependency[]>();
    for (const link of plan.dependencies) {
      const list = predecessors.get(link.successorId);
      if (list) list.push(link);
      else predecessors.set(link.successorId, [link]);
    }
    const byNumber = new Map(plan.tasks.map((task) => [task.number, task]));
    const resourceNames = new Map(plan.resources.map((resource) => [resource.id, resource.name]));
    const assignees = new Map<string, string[]>();
    for (const { taskId, resourceId } of plan.assignments) {
      const names = assignees.get(taskId);
      if (names) names.push(resourceNames.get(resourceId) ?? '?');
      else assignees.set(taskId, [resourceNames.get(resourceId) ?? '?']);
    }
    return {
      predecessorsOf: (taskId) => predecessors.get(taskId) ?? [],
      taskById: (taskId) => tasksById.get(taskId),
      taskByNumber: (number) => byNumber.get(number),
      assigneeNames: (taskId) => (assignees.get(taskId) ?? []).join(', '),
      baseline: (taskId) => props.baseline?.get(taskId),
    };
  }, [plan, tasksById, props.baseline]);
  // A row being dragged by its key, and where it would land.
  const draggedRow = useRef<string | null>(null);
  const [dropTarget, setDropTarget] = useState<{ taskId: string; zone: DropZone } | null>(null);
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
  const linksByTask = useMemo(() => indexLinks(dependencies), [dependencies]);

  const gesture = gestureOf(pointer);
  const layout = chartLayout({
    rows,
    rowIndex,
    linksByTask,
    scale,
    preview,
    gesture,
    visibleRows: items.map((item) => item.index),
    viewport: { fromX: view.left - gridWidth, toX: view.left + view.width },
  });

  const startGesture = (event: ReactPointerEvent, kind: Grab, task: PlanTask) => {
    if (!props.editable || event.button !== 0) return;
    event.stopPropagation();
    (event.currentTarget as Element).setPointerCapture(event.pointerId);
    if (!selection.ids.has(task.id)) store.select(task.id);
    setPointer(grab(kind, task, event.clientX, event.clientY, layout.bars.get(task.id) ?? { x0: 0, x1: 0 }));
  };
  const moveGesture = (event: ReactPointerEvent) => {
    if (pointer.kind === 'idle') return;
    const next = dragTo(pointer, event.clientX, event.clientY, scale.zoom);
    if (next === pointer) return;
    setPointer(next);
    // The engine in the browser shows where a move or resize takes every task it pushes.
    if ((next.kind === 'move' || next.kind === 'resize') && props.preview) {
      const edit = release(next, undefined);
      setPreview(edit?.kind === 'edit' ? props.preview.preview(next.task.id, edit.patch) : null);
    }
  };
  const endGesture = (event: ReactPointerEvent) => {
    if (pointer.kind === 'idle') return;
    setPointer(idle);
    const over = document.elementsFromPoint(event.clientX, event.clientY).find((element) => element instanceof HTMLElement && element.dataset.taskId) as HTMLElement | undefined;
    const done = release(pointer, over?.dataset.taskId);
    if (done?.kind === 'link') void store.link([done.predecessorId, done.successorId]);
    if (done?.kind === 'edit') void store.editTask(done.task, done.patch, done.label).finally(() => setPreview(null));
    else setPreview(null);
  };

  /** Edits a cell in place, if its column edits and the task may (a summary does not edit what it rolls up). */
  const startEditing = (taskId: string | null, column: ColumnId, initial?: string) => {
    // From the store, not this render: a task added a moment ago (Insert) is edited at once.
    const task = taskId ? store.getState().tasksById.get(taskId) : undefined;
    const edit = columns[column].edit;
    if (!task || !props.editable || !edit || (edit.rolledUp && task.type === 'summary')) return false;
    setCellColumn(column);
    setEditing({ taskId: task.id, column, initial });
    return true;
  };
  /** The cell's typed text saved (a step of undo), or refused with why; then, after Tab, the next cell edited. */
  const finishEditing = (task: PlanTask, column: ColumnId, text: string | null, then?: 1 | -1) => {
    setEditing(null);
    scroller.current?.focus();
    const edit = columns[column].edit;
    if (text !== null && edit && text !== edit.initial(task, cellContext)) {
      const change = edit.parse(text, task, cellContext);
      if ('error' in change) store.tell(change.error);
      else if ('predecessors' in change) void store.setPredecessors(task.id, change.predecessors);
      else if (!Object.entries(change.patch).every(([field, value]) => task[field as keyof PlanTask] === value)) void store.editTask(task, change.patch);
    }
    if (then) {
      const shown = layoutOfColumns.ids;
      for (let at = shown.indexOf(column) + then; at >= 0 && at < shown.length; at += then) if (startEditing(task.id, shown[at]!)) break;
    }
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
      F2: () => startEditing(selectedId, cellColumn),
    };
    const chord = `${event.ctrlKey || event.metaKey ? 'Ctrl+' : ''}${event.altKey ? 'Alt+' : ''}${event.shiftKey ? 'Shift+' : ''}${event.key}`;
    const edit = props.editable ? edits[chord] : undefined;
    if (edit) {
      event.preventDefault();
      void edit();
    } else if (!event.altKey && !event.ctrlKey && !event.metaKey && ['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) {
      event.preventDefault();
      go(event.key === 'ArrowDown' ? index + 1 : event.key === 'ArrowUp' ? index - 1 : event.key === 'Home' ? 0 : rows.length - 1);
    } else if (selectedId && (event.key === 'Enter' || (event.key === 'F2' && event.shiftKey && !event.ctrlKey && !event.metaKey))) {
      event.preventDefault();
      props.onOpen(selectedId);
    }
    else if (selectedId && !event.altKey && !event.ctrlKey && !event.metaKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
      event.preventDefault();
      const toLeft = event.key === 'ArrowLeft';
      // On a summary's name, ← folds it and → unfolds it first, as in a tree; otherwise the cursor moves to the next cell, as in Project.
      if (cellColumn === 'name' && rows[index]?.hasChildren && toLeft !== collapsed.has(selectedId)) store.toggleCollapsed(selectedId);
      else {
        const shown = layoutOfColumns.ids;
        const at = Math.max(0, shown.indexOf(cellColumn)) + (toLeft ? -1 : 1);
        if (at >= 0 && at < shown.length) setCellColumn(shown[at]!);
      }
    } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey && event.key !== ' ') {
      // Typing on a row replaces the value of its cell, as in a spreadsheet.
      if (startEditing(selectedId, cellColumn, event.key)) event.preventDefault();
    }
  };

  const closeLinkEditor = useCallback(() => {
    setLinkEditor(null);
    scroller.current?.focus();
  }, []);

  const totalHeight = layout.height;
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
      aria-activedescendant={selectedId && rowIndex.has(selectedId) ? cellDomId(selectedId, layoutOfColumns.ids.includes(cellColumn) ? cellColumn : 'name') : undefined}
      onKeyDown={onKeyDown}
      onScroll={(event) => {
        const { scrollLeft: left, clientWidth: width } = event.currentTarget;
        // Vertical scrolling is the virtualizer's: the header only changes when scrolled sideways.
        setView((current) => (current.left === left && current.width === width ? current : { left, width }));
      }}
      onPointerMove={moveGesture}
      onPointerUp={endGesture}
      onPointerCancel={() => {
        setPointer(idle);
        setPreview(null);
      }}
    >
      <div className="gantt-canvas" style={{ width: gridWidth + scale.width, height: headerHeight + totalHeight }}>
        <div className="gantt-header" role="row" style={{ height: headerHeight }}>
          <div className="grid-cells grid-header" role="presentation" style={{ width: gridWidth, minWidth: gridWidth }}>
            {layoutOfColumns.ids.map((id) => (
              <span key={id} role="columnheader" className={`cell col-${id}`} style={id === 'name' ? { flexBasis: columnWidth(layoutOfColumns, id) } : { width: columnWidth(layoutOfColumns, id) }}>
                {columns[id].label}
                <span
                  className="column-edge"
                  aria-hidden="true"
                  onPointerDown={(event) => dragWidth(event, columnWidth(layoutOfColumns, id), (width) => props.onColumnLayout((current) => resizeColumn(current, id, width)))}
                />
              </span>
            ))}
            {/* For the mouse; the Columns panel sets the width by keyboard (a separator may not sit in a row). */}
            <span
              className="splitter"
              aria-hidden="true"
              title="Drag to make the task grid wider or narrower"
              data-width={gridWidth}
              onPointerDown={(event) => dragWidth(event, gridWidth, (width) => props.onColumnLayout((current) => resizeGrid(current, width)))}
            />
          </div>
          <div className="scale" style={{ left: gridWidth }} aria-hidden="true">
            {layout.ticks.map((tick) => (
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
            {layout.links.map((arrow) => (
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
            {pointer.kind === 'link' && scrollerRect && (
              <line
                className="link-draft"
                x1={layout.bars.get(pointer.task.id)?.x1 ?? 0}
                y1={rowMiddle(rowIndex.get(pointer.task.id) ?? 0)}
                x2={pointer.x - scrollerRect.left + view.left - gridWidth}
                y2={pointer.y - scrollerRect.top + (scroller.current?.scrollTop ?? 0) - headerHeight}
              />
            )}
          </svg>
          {items.map((item) => {
            const { task, depth, hasChildren } = rows[item.index]!;
            const selected = selection.ids.has(task.id);
            const { x0, x1 } = layout.bars.get(task.id)!;
            const progressPct = gesture?.kind === 'progress' && gesture.taskId === task.id ? gesture.progressPct : task.progressPct;
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
                className={`gantt-row${selected ? ' selected' : ''}${task.id === selectedId ? ' focused' : ''}${dropTarget?.taskId === task.id ? ` drop-${dropTarget.zone}` : ''}`}
                style={{ top: item.start, height: rowHeight }}
                onClick={(event) => store.select(task.id, event.shiftKey ? 'range' : event.ctrlKey || event.metaKey ? 'toggle' : 'only')}
                onDoubleClick={() => props.onOpen(task.id)}
                onDragOver={(event) => {
                  if (draggedRow.current === null || draggedRow.current === task.id) return;
                  event.preventDefault();
                  // The upper quarter drops before the row, the lower after it, the middle into it (a subtask).
                  const box = event.currentTarget.getBoundingClientRect();
                  const at = (event.clientY - box.top) / box.height;
                  const zone: DropZone = at < 0.25 ? 'before' : at > 0.75 ? 'after' : 'into';
                  if (dropTarget?.taskId !== task.id || dropTarget.zone !== zone) setDropTarget({ taskId: task.id, zone });
                }}
                onDragLeave={() => setDropTarget((current) => (current?.taskId === task.id ? null : current))}
                onDrop={(event) => {
                  event.preventDefault();
                  const dragged = draggedRow.current;
                  draggedRow.current = null;
                  setDropTarget(null);
                  if (dragged && dropTarget) void store.dropTask(dragged, task.id, dropTarget.zone);
                }}
              >
                <div className="grid-cells" role="presentation" style={{ width: gridWidth, minWidth: gridWidth }}>
                  {layoutOfColumns.ids.map((id) => {
                    const column = columns[id];
                    const edited = editing?.taskId === task.id && editing.column === id;
                    const width = columnWidth(layoutOfColumns, id);
                    const onDoubleClick = (event: MouseEvent) => {
                      if (startEditing(task.id, id)) event.stopPropagation();
                    };
                    const cursor = task.id === selectedId && id === cellColumn ? ' cell-cursor' : '';
                    const cellProps = { id: cellDomId(task.id, id), role: 'gridcell', onClick: () => setCellColumn(id) };
                    const field = edited && column.edit && (
                      <InlineEdit
                        label={id === 'name' ? `Name of ${task.key}` : id === 'duration' ? `Duration of ${task.key} in working days` : `${column.label} of ${task.key}`}
                        input={column.edit.input}
                        initial={editing.initial ?? column.edit.initial(task, cellContext)}
                        typed={editing.initial !== undefined}
                        onDone={(value, then) => finishEditing(task, id, value, then)}
                      />
                    );
                    if (id === 'key' && props.editable) {
                      return (
                        <span
                          key={id}
                          {...cellProps}
                          className={`cell col-key${cursor}`}
                          style={{ width }}
                          draggable
                          title={`Drag to move ${task.key}: onto a task's middle to make it a subtask, to its top or bottom edge to put it before or after`}
                          onDragStart={(event) => {
                            draggedRow.current = task.id;
                            event.dataTransfer.effectAllowed = 'move';
                            event.dataTransfer.setData('text/plain', task.key);
                          }}
                          onDragEnd={() => {
                            draggedRow.current = null;
                            setDropTarget(null);
                          }}
                        >
                          {task.key}
                        </span>
                      );
                    }
                    if (id !== 'name') {
                      return (
                        <span key={id} {...cellProps} className={`cell col-${id}${column.align === 'end' ? ' end' : ''}${cursor}`} style={{ width }} onDoubleClick={onDoubleClick}>
                          {field || column.text(task, cellContext)}
                        </span>
                      );
                    }
                    return (
                      <span key={id} {...cellProps} className={`cell col-name${cursor}`} style={{ flexBasis: width, paddingLeft: 8 + depth * 16 }}>
                        {hasChildren ? (
                          <button type="button" className="toggle" aria-expanded={!collapsed.has(task.id)} aria-label={`${collapsed.has(task.id) ? 'Expand' : 'Collapse'} ${task.name}`} onClick={(event) => { event.stopPropagation(); store.toggleCollapsed(task.id); }}>
                            {collapsed.has(task.id) ? '▸' : '▾'}
                          </button>
                        ) : (
                          <span className="toggle" />
                        )}
                        {field || (
                          <span className={task.type === 'summary' ? 'summary-name' : undefined} onDoubleClick={onDoubleClick}>
                            {task.name}
                          </span>
                        )}
                      </span>
                    );
                  })}
                </div>
                <div className="bar-lane" style={{ left: gridWidth }}>
                  {planned?.startAt && planned.finishAt && (
                    <div className="baseline-bar" style={{ left: scale.x(planned.startAt), width: Math.max(2, scale.x(planned.finishAt) - scale.x(planned.startAt)) }} title={`Baseline: ${formatDate(planned.startAt)} – ${formatDate(planned.finishAt)}`} />
                  )}
                  {task.startAt &&
                    (task.type === 'milestone' ? (
                      <div data-task-id={task.id} className={`milestone${task.isCritical ? ' critical' : ''}`} style={{ left: x0 - geometry.milestoneHalf, top: barInset }} title={`${task.name}: ${formatDate(task.startAt)}`} onPointerDown={(event) => startGesture(event, 'move', task)} />
                    ) : (
                      <div
                        data-task-id={task.id}
                        className={`bar ${task.type === 'summary' ? 'summary' : 'task'}${task.isCritical ? ' critical' : ''}`}
                        style={{ left: x0, width: x1 - x0, top: barInset, height: rowHeight - 2 * barInset }}
                        title={`${task.name}: ${formatDate(task.startAt)} – ${formatDate(task.finishAt)}${task.isCritical ? ' (critical)' : ''}`}
                        onPointerDown={task.type === 'summary' ? undefined : (event) => startGesture(event, 'move', task)}
                      >
                        {task.type !== 'summary' && <div className="progress" style={{ width: `${progressPct}%` }} />}
                        {task.type !== 'summary' && props.editable && (
                          <div
                            className="progress-handle"
                            aria-hidden="true"
                            style={{ left: `${progressPct}%` }}
                            title={`Drag to set the progress of ${task.name} (${progressPct} %)`}
                            onPointerDown={(event) => startGesture(event, 'progress', task)}
                          />
                        )}
                        {task.type !== 'summary' && props.editable && <div className="resize-handle" aria-hidden="true" onPointerDown={(event) => startGesture(event, 'resize', task)} />}
                      </div>
                    ))}
                  {task.startAt && cellContext.assigneeNames(task.id) && (
                    <span className="bar-label" style={{ left: x1 + geometry.barLabelGap }}>
                      {cellContext.assigneeNames(task.id)}
                    </span>
                  )}
                  {task.startAt && props.editable && (
                    <div className="link-handle" style={{ left: x1 + geometry.linkHandleGap, top: rowHeight / 2 - 5 }} title={`Drag to a task to link it after ${task.name}`} onPointerDown={(event) => startGesture(event, 'link', task)} />
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

/** A cell's value edited in place: Enter or leaving the field keeps it, Escape drops it, Tab keeps it and edits the next cell. */
function InlineEdit({ label, input: type, initial, typed, onDone }: { label: string; input: 'text' | 'number' | 'date'; initial: string; typed: boolean; onDone(value: string | null, then?: 1 | -1): void }) {
  const input = useRef<HTMLInputElement>(null);
  const done = useRef(false);
  useEffect(() => {
    const element = input.current;
    if (!element) return;
    element.focus();
    // A value typed on the row goes on after its first key; an existing one is selected, to be replaced.
    if (!typed) element.select();
  }, [typed]);
  const finish = (value: string | null, then?: 1 | -1) => {
    if (done.current) return;
    done.current = true;
    onDone(value, then);
  };
  return (
    <input
      ref={input}
      className="inline-edit"
      type={type}
      step={type === 'number' ? 'any' : undefined}
      aria-label={label}
      defaultValue={initial}
      onClick={(event) => event.stopPropagation()}
      onDoubleClick={(event) => event.stopPropagation()}
      onKeyDown={(event) => {
        event.stopPropagation();
        if (event.key === 'Enter') finish(event.currentTarget.value);
        if (event.key === 'Escape') finish(null);
        if (event.key === 'Tab') {
          event.preventDefault();
          finish(event.currentTarget.value, event.shiftKey ? -1 : 1);
        }
      }}
      onBlur={(event) => finish(event.currentTarget.value)}
    />
  );
}
