import { describe, expect, it } from 'vitest';
import type { Store } from '../store/store.js';
import { VersionedMemo } from './memo.js';

function fakeVersionedStore(initial: string | null) {
  let version = initial;
  return { store: { readVersion: () => version } as unknown as Store, bump: () => (version = `${version}+`) };
}

describe('VersionedMemo', () => {
  it('reuses a read until the store version changes', async () => {
    const { store, bump } = fakeVersionedStore('1');
    const memo = new VersionedMemo();
    let loads = 0;
    const load = async () => ++loads;
    expect(await memo.get(store, 'k', load)).toBe(1);
    expect(await memo.get(store, 'k', load)).toBe(1);
    bump();
    expect(await memo.get(store, 'k', load)).toBe(2);
  });

  it('keeps nothing read while a write happened, and caches undefined results too', async () => {
    const { store, bump } = fakeVersionedStore('1');
    const memo = new VersionedMemo();
    let loads = 0;
    expect(await memo.get(store, 'racy', async () => (bump(), ++loads))).toBe(1);
    expect(await memo.get(store, 'racy', async () => ++loads)).toBe(2);
    let misses = 0;
    await memo.get(store, 'missing', async () => (misses++, undefined));
    await memo.get(store, 'missing', async () => (misses++, undefined));
    expect(misses).toBe(1);
  });

  it('never caches for a store that cannot tell its version', async () => {
    const { store } = fakeVersionedStore(null);
    const memo = new VersionedMemo();
    let loads = 0;
    await memo.get(store, 'k', async () => ++loads);
    await memo.get(store, 'k', async () => ++loads);
    expect(loads).toBe(2);
  });
});
