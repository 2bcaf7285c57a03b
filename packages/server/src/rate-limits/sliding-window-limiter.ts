import type { Clock } from '../clock.js';

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When refused: milliseconds until the oldest counted request leaves the window. */
  retryAfterMs: number;
}

/**
 * Where sliding windows keep their counts: this process's memory, or a store every node
 * shares (PostgreSQL, Redis), so that N nodes grant a key one budget, not N. Each method
 * is one atomic step per key, however many nodes call it at once.
 */
export interface SlidingWindows {
  /** Counts a request for `key` when fewer than `limit` were counted in the `windowMs` before `now`; refusals do not count. */
  take(key: string, limit: number, windowMs: number, now: number): Promise<LimitDecision>;
  /** Milliseconds until `key` may take again (0: it may), without counting. */
  waitMs(key: string, limit: number, windowMs: number, now: number): Promise<number>;
}

/** The decision of a window holding `stamps` (ascending, all inside the window) after a take at `now`. */
export function decisionOf(allowed: boolean, stamps: readonly number[], limit: number, windowMs: number, now: number): LimitDecision {
  if (allowed) return { allowed, limit, remaining: Math.max(0, limit - stamps.length), retryAfterMs: 0 };
  return { allowed, limit, remaining: 0, retryAfterMs: waitOf(stamps, limit, windowMs, now) };
}

/** How long until a window holding `stamps` (ascending) has room again. */
export function waitOf(stamps: readonly number[], limit: number, windowMs: number, now: number): number {
  const freeing = stamps[stamps.length - limit];
  return freeing === undefined ? 0 : Math.max(0, freeing + windowMs - now);
}

/**
 * An exact sliding-window limit: at most `limit` requests per key in any window of
 * `windowMs`, read off the injected clock. `name` keeps the keys of different limits
 * apart in a shared store.
 */
export class SlidingWindowLimiter {
  constructor(
    private readonly name: string,
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
    private readonly windows: SlidingWindows,
  ) {}

  take(key: string): Promise<LimitDecision> {
    return this.windows.take(`${this.name}:${key}`, this.limit, this.windowMs, this.clock.now().getTime());
  }

  /** Milliseconds until `key` may take again without taking now (0: it may); for counting only failures. */
  waitMs(key: string): Promise<number> {
    return this.windows.waitMs(`${this.name}:${key}`, this.limit, this.windowMs, this.clock.now().getTime());
  }
}
