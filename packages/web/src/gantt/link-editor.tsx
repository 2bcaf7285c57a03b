import { useEffect, useRef } from 'react';
import { minutesPerDay } from '../format';
import { usePlan, usePlanStore } from '../plan/use-plan';
import type { Dependency } from '../types';
import { linkLabels } from './task-drawer';

/**
 * A link clicked in the chart: its type and lag changed, or the link removed, in place.
 * Escape or a click on Close leaves it; every change is a step of undo.
 */
export function LinkEditor({ linkId, x, y, onClose }: { linkId: string; x: number; y: number; onClose(): void }) {
  const store = usePlanStore();
  const link = usePlan((state) => state.plan.dependencies.find((each) => each.id === linkId));
  const tasksById = usePlan((state) => state.tasksById);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.querySelector('select')?.focus(), []);
  // The link is gone (removed here, or by an undo): nothing left to edit.
  useEffect(() => {
    if (!link) onClose();
  }, [link, onClose]);
  if (!link) return null;
  const name = `${tasksById.get(link.predecessorId)?.key} → ${tasksById.get(link.successorId)?.key}`;
  const change = (next: Pick<Dependency, 'type' | 'lagMin'>) => void store.relink(link, next);
  return (
    <div
      ref={box}
      className="link-editor"
      role="dialog"
      aria-label={`Link ${name}`}
      style={{ left: x, top: y }}
      onPointerDown={(event) => event.stopPropagation()}
      onKeyDown={(event) => {
        event.stopPropagation();
        if (event.key === 'Escape') onClose();
      }}
    >
      <strong>{name}</strong>
      <label>
        Type{' '}
        <select value={link.type} onChange={(event) => change({ type: event.target.value as Dependency['type'], lagMin: link.lagMin })}>
          {Object.entries(linkLabels).map(([type, label]) => (
            <option key={type} value={type}>
              {type} ({label})
            </option>
          ))}
        </select>
      </label>
      <label>
        Lag (working days; negative: lead){' '}
        <input
          type="number"
          step={0.5}
          className="lag"
          key={link.lagMin}
          defaultValue={link.lagMin / minutesPerDay}
          onKeyDown={(event) => event.key === 'Enter' && event.currentTarget.blur()}
          onBlur={(event) => {
            const lagMin = Math.round(Number(event.currentTarget.value) * minutesPerDay);
            if (Number.isFinite(lagMin) && lagMin !== link.lagMin) change({ type: link.type, lagMin });
          }}
        />
      </label>
      <div className="actions">
        <button type="button" className="danger secondary" onClick={() => void store.unlink([link])}>
          Remove link
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
