import type { Clock } from './clock.js';
import { upgradeDerivedValues } from './domain/planning/derived-values.js';
import { openStore, type StoreOptions } from './store/open-store.js';
import type { Store } from './store/store.js';

/**
 * Opens the store as every process of the service does (`serve`, `worker`, `migrate`, CLI
 * commands): applies the pending migrations, then recomputes the values this version
 * derives that an older version left out or computed otherwise (docs/operations.md ›
 * Upgrades). `recomputedProjects` counts the plans it recomputed.
 */
export async function openUpgradedStore(options: StoreOptions, clock: Clock): Promise<{ store: Store; applied: string[]; recomputedProjects: number }> {
  const { store, applied } = await openStore(options);
  try {
    return { store, applied, recomputedProjects: await upgradeDerivedValues({ store, clock }) };
  } catch (error) {
    await store.close();
    throw error;
  }
}
