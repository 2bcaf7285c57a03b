/**
 * Cooperative time slicing for long work on the event loop: `yieldIfBusy()` lets the loop
 * turn (other requests, timers, I/O) once the code calling it has run for `budgetMs`
 * since the last turn it gave, and resolves at once (a microtask) otherwise. Big writes
 * call it between their steps, and the SQLite store after each statement of a
 * transaction, so that no single stretch holds the loop for long. The clock is shared by
 * every caller: a stretch that crosses the domain and the store is measured as one.
 */
let lastTurnAt = 0;

/** The budget between turns, in milliseconds: a big write gives the loop a turn about this often. */
const sliceBudgetMs = 10;

export function yieldIfBusy(budgetMs = sliceBudgetMs): Promise<void> | undefined {
  const now = performance.now();
  if (now - lastTurnAt < budgetMs) return undefined;
  return new Promise((resolve) =>
    setImmediate(() => {
      lastTurnAt = performance.now();
      resolve();
    }),
  );
}

/** `items.map(fn)` for long lists, letting the loop turn every slice (`yieldIfBusy`). */
export async function mapSliced<T, R>(items: readonly T[], fn: (item: T, index: number) => R): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  for (let k = 0; k < items.length; k++) {
    results[k] = fn(items[k] as T, k);
    await yieldIfBusy();
  }
  return results;
}
