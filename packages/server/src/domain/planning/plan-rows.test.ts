import { describe, expect, it } from 'vitest';
import { PlanRows } from './plan-rows.js';

interface Row {
  id: string;
  value: number;
}

const committed = () => PlanRows.loaded<Row>([{ id: 'a', value: 1 }, { id: 'b', value: 2 }, { id: 'c', value: 3 }]);

describe('PlanRows', () => {
  it('shows the committed rows, frozen, until a write copies one', () => {
    const rows = committed();
    const a = rows.get('a')!;
    expect(Object.isFrozen(a)).toBe(true);
    expect(() => ((a as Row).value = 9)).toThrow(TypeError);
    const copy = rows.edit('a')!;
    expect(copy).not.toBe(a);
    expect(rows.edit('a')).toBe(copy);
    copy.value = 10;
    expect(rows.get('a')?.value).toBe(10);
    expect(rows.original('a')?.value).toBe(1);
    expect([...rows.touched()]).toEqual([copy]);
    expect(rows.touches('a')).toBe(true);
    expect(rows.touches('b')).toBe(false);
  });

  it('counts, lists and finds rows added, removed and added again', () => {
    const rows = committed();
    rows.set('d', { id: 'd', value: 4 });
    rows.delete('b');
    expect(rows.size).toBe(3);
    expect(rows.has('b')).toBe(false);
    expect(rows.get('b')).toBeUndefined();
    expect(rows.edit('b')).toBeUndefined();
    expect(rows.keepsCommittedIds()).toBe(false);
    expect([...rows.values()].map((row) => row.id)).toEqual(['a', 'c', 'd']);
    rows.set('b', { id: 'b', value: 20 });
    rows.delete('d');
    expect(rows.size).toBe(3);
    expect(rows.keepsCommittedIds()).toBe(true);
    // A row added again keeps its committed place.
    expect([...rows.values()].map((row) => `${row.id}${row.value}`)).toEqual(['a1', 'b20', 'c3']);
    expect([...rows.originals()].map((row) => row.value)).toEqual([1, 2, 3]);
  });

  it('leaves the committed rows as they were until commit, then makes the copies the committed rows', () => {
    const shared = new Map<string, Row>([['a', Object.freeze({ id: 'a', value: 1 })]]);
    const failed = new PlanRows(shared);
    failed.edit('a')!.value = 5;
    failed.set('n', { id: 'n', value: 7 });
    // A failed write drops its PlanRows: the map the cache shares never saw its changes.
    expect([...shared.values()]).toEqual([{ id: 'a', value: 1 }]);

    const written = new PlanRows(shared);
    written.edit('a')!.value = 6;
    written.set('n', { id: 'n', value: 8 });
    expect(written.commit()).toBe(shared);
    expect([...shared.values()]).toEqual([{ id: 'a', value: 6 }, { id: 'n', value: 8 }]);
    expect([...shared.values()].every((row) => Object.isFrozen(row))).toBe(true);
    expect([...written.touched()]).toEqual([]);
    expect(written.size).toBe(2);
  });
});
