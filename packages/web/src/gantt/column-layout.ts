import { useCallback, useState } from 'react';
import { columnIds, columns, defaultColumns, type ColumnId } from './columns';
import { geometry } from './layout';

/** The grid as a person arranged it for one project: its columns in order, their widths, and the splitter. */
export interface ColumnLayout {
  ids: readonly ColumnId[];
  widths: Partial<Record<ColumnId, number>>;
  /** Where the splitter between grid and timeline is; null: as wide as the columns. */
  gridWidth: number | null;
}

const defaultLayout: ColumnLayout = { ids: defaultColumns, widths: {}, gridWidth: null };

/** Kept in the browser per person and project, across sessions (nothing a server needs to know). */
const storageKey = (userId: string, projectId: string) => `gantry.columns.${userId}.${projectId}`;

function read(key: string): ColumnLayout {
  try {
    const saved = JSON.parse(localStorage.getItem(key) ?? 'null') as Partial<ColumnLayout> | null;
    if (!saved || !Array.isArray(saved.ids)) return defaultLayout;
    // Columns a later version no longer has are dropped; the name is always there.
    const ids = saved.ids.filter((id): id is ColumnId => (columnIds as readonly string[]).includes(id));
    return { ids: ids.includes('name') ? ids : ['name', ...ids], widths: saved.widths ?? {}, gridWidth: typeof saved.gridWidth === 'number' ? saved.gridWidth : null };
  } catch {
    return defaultLayout;
  }
}

export function columnWidth(layout: ColumnLayout, id: ColumnId): number {
  return layout.widths[id] ?? columns[id].width;
}

/** The grid's width: where the person put the splitter, else the columns' own widths. */
export function gridWidthOf(layout: ColumnLayout): number {
  return Math.max(geometry.minGridWidth, layout.gridWidth ?? layout.ids.reduce((sum, id) => sum + columnWidth(layout, id), 0));
}

/** The person's column layout for a project, and how to change it (saved at once). */
export function useColumnLayout(userId: string, projectId: string): [ColumnLayout, (change: (layout: ColumnLayout) => ColumnLayout) => void] {
  const key = storageKey(userId, projectId);
  const [layout, setLayout] = useState(() => read(key));
  const change = useCallback(
    (update: (current: ColumnLayout) => ColumnLayout) =>
      setLayout((current) => {
        const next = update(current);
        localStorage.setItem(key, JSON.stringify(next));
        return next;
      }),
    [key],
  );
  return [layout, change];
}

/** Shows or hides a column (the name stays). */
export function toggleColumn(layout: ColumnLayout, id: ColumnId): ColumnLayout {
  if (id === 'name') return layout;
  const ids = layout.ids.includes(id) ? layout.ids.filter((each) => each !== id) : [...layout.ids, id];
  return { ...layout, ids };
}

/** Moves a shown column one place left (-1) or right (+1). */
export function moveColumn(layout: ColumnLayout, id: ColumnId, by: -1 | 1): ColumnLayout {
  const ids = [...layout.ids];
  const at = ids.indexOf(id);
  const to = at + by;
  if (at < 0 || to < 0 || to >= ids.length) return layout;
  [ids[at], ids[to]] = [ids[to]!, ids[at]!];
  return { ...layout, ids };
}

export function resizeColumn(layout: ColumnLayout, id: ColumnId, width: number): ColumnLayout {
  return { ...layout, widths: { ...layout.widths, [id]: Math.max(40, Math.round(width)) } };
}

export function resizeGrid(layout: ColumnLayout, width: number): ColumnLayout {
  return { ...layout, gridWidth: Math.max(geometry.minGridWidth, Math.round(width)) };
}

export const resetLayout = (): ColumnLayout => defaultLayout;
