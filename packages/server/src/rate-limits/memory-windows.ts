import type { LimitDecision, SlidingWindows } from './sliding-window-limiter.js';

/**
 * One key's window: the instants (ms, ascending) of the requests it counts, each with how
 * many requests came at that instant, from `head` on, and their sum. Requests at the same
 * instant share an entry, so a limit far above the traffic (as when limits are raised for
 * a load test) costs memory per busy millisecond, not per request.
 */
interface Window {
  stamps: number[];
  counts: number[];
  head: number;
  total: number;
}

/**
 * Sliding windows in this process's memory: the limits of a single node (the embedded
 * SQLite store has one). Each take drops the instants that left the window, so a decision
 * costs O(1) amortised and `remaining` counts exactly the requests inside it. Idle keys
 * are forgotten after a whole window, so memory follows the active keys.
 */
export class MemoryWindows implements SlidingWindows {
  private readonly windows = new Map<string, Window>();
  private lastSweep = 0;

  take(key: string, limit: number, windowMs: number, now: number): Promise<LimitDecision> {
    return Promise.resolve(this.takeNow(key, limit, windowMs, now));
  }

  waitMs(key: string, limit: number, windowMs: number, now: number): Promise<number> {
    const window = this.windows.get(key);
    if (!window) return Promise.resolve(0);
    expire(window, now - windowMs);
    return Promise.resolve(window.total < limit ? 0 : untilOldestLeaves(window, windowMs, now));
  }

  private takeNow(key: string, limit: number, windowMs: number, now: number): LimitDecision {
    this.sweep(now, windowMs);
    let window = this.windows.get(key);
    if (!window) {
      window = { stamps: [], counts: [], head: 0, total: 0 };
      this.windows.set(key, window);
    }
    expire(window, now - windowMs);
    if (window.total >= limit) return { allowed: false, limit, remaining: 0, retryAfterMs: untilOldestLeaves(window, windowMs, now) };
    const last = window.stamps.length - 1;
    // A clock that steps back counts the request at the latest instant: it leaves the window no earlier than it should.
    if (last >= window.head && (window.stamps[last] as number) >= now) window.counts[last] = (window.counts[last] as number) + 1;
    else {
      window.stamps.push(now);
      window.counts.push(1);
    }
    window.total += 1;
    return { allowed: true, limit, remaining: limit - window.total, retryAfterMs: 0 };
  }

  private sweep(now: number, windowMs: number): void {
    if (now - this.lastSweep < windowMs) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) {
      const newest = window.stamps[window.stamps.length - 1];
      if (newest === undefined || newest <= now - windowMs) this.windows.delete(key);
    }
  }
}

/** Drops the instants at or before `windowStart`; compacts once most of the arrays are behind `head`. */
function expire(window: Window, windowStart: number): void {
  const { stamps, counts } = window;
  while (window.head < stamps.length && (stamps[window.head] as number) <= windowStart) {
    window.total -= counts[window.head] as number;
    window.head += 1;
  }
  if (window.head > 64 && window.head * 2 > stamps.length) {
    stamps.splice(0, window.head);
    counts.splice(0, window.head);
    window.head = 0;
  }
}

/** A full window has room again when its oldest instant leaves it. */
function untilOldestLeaves(window: Window, windowMs: number, now: number): number {
  return Math.max(0, (window.stamps[window.head] as number) + windowMs - now);
}
