import { describe, expect, it } from 'vitest';
import { timeOrderedId } from './audit-log.js';

describe('timeOrderedId', () => {
  // Audit entries are written in time order: their ids must sort the same way, so that
  // each row lands at the end of the primary-key index.
  it('gives UUIDv7s that sort by their time, and differ within one millisecond', () => {
    const start = Date.parse('2026-03-02T08:00:00.000Z');
    const times = [start, start, start + 1, start + 999, start + 86_400_000, start + 86_400_000 * 365 * 50];
    const ids = times.map(timeOrderedId);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids[0]).not.toBe(ids[1]);
    expect(ids.slice(1)).toEqual([...ids.slice(1)].sort());
    expect(ids[2]! > ids[0]! && ids[2]! > ids[1]!).toBe(true);
    expect(Number.parseInt(ids[3]!.replace('-', '').slice(0, 12), 16)).toBe(start + 999);
  });
});
