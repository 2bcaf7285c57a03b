import type { Store } from '../store/store.js';

/**
 * Reuses hot reads (API key lookups, a user's access to a project) for as long as the
 * store's `readVersion` stays the same — i.e. until anything is written, by this process or
 * another. A result is kept only if no write happened while it was read. Stores that cannot
 * tell (PostgreSQL) are always read.
 */
export class VersionedMemo {
  private version: string | null = null;
  private readonly entries = new Map<string, unknown>();

  constructor(private readonly maxEntries = 10_000) {}

  async get<T>(store: Store, key: string, load: () => Promise<T>): Promise<T> {
    const version = store.readVersion();
    if (version === null) return load();
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    const hit = this.entries.get(key);
    if (hit !== undefined || this.entries.has(key)) return hit as T;
    const value = await load();
    if (store.readVersion() === version) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }
}
