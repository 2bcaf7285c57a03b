import { Field, SidePanel } from '../components';
import { gridWidthOf, moveColumn, resetLayout, resizeGrid, toggleColumn, type ColumnLayout } from './column-layout';
import { geometry } from './layout';
import { columnIds, columns } from './columns';

/** Which columns the grid shows and in what order, kept for this person and project. */
export function ColumnsPanel({ layout, onChange, onClose }: { layout: ColumnLayout; onChange(change: (layout: ColumnLayout) => ColumnLayout): void; onClose(): void }) {
  const shown = [...layout.ids, ...columnIds.filter((id) => !layout.ids.includes(id))];
  return (
    <SidePanel title="Columns" closeLabel="Close the columns" onClose={onClose}>
      <p className="muted">Shown columns in their order; drag a column's right edge to resize it, and the line after the last to resize the grid.</p>
      <ul className="column-list">
        {shown.map((id) => {
          const on = layout.ids.includes(id);
          return (
            <li key={id}>
              <label className="check">
                <input type="checkbox" checked={on} disabled={id === 'name'} onChange={() => onChange((current) => toggleColumn(current, id))} /> {columns[id].label}
                {columns[id].edit && <span className="muted"> (edits in place)</span>}
              </label>
              {on && (
                <span>
                  <button type="button" className="link" aria-label={`Move ${columns[id].label} left`} disabled={layout.ids[0] === id} onClick={() => onChange((current) => moveColumn(current, id, -1))}>
                    ↑
                  </button>
                  <button type="button" className="link" aria-label={`Move ${columns[id].label} right`} disabled={layout.ids.at(-1) === id} onClick={() => onChange((current) => moveColumn(current, id, 1))}>
                    ↓
                  </button>
                </span>
              )}
            </li>
          );
        })}
      </ul>
      <Field
        label="Grid width (pixels)"
        type="number"
        min={geometry.minGridWidth}
        step={10}
        value={gridWidthOf(layout)}
        onChange={(event) => Number.isFinite(event.target.valueAsNumber) && onChange((current) => resizeGrid(current, event.target.valueAsNumber))}
      />
      <button type="button" className="secondary" onClick={() => onChange(resetLayout)}>
        Reset columns
      </button>
    </SidePanel>
  );
}
