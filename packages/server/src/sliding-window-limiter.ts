import type { Clock } from './clock.js';

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When refused: milliseconds until the oldest counted request leaves the window. */
  retryAfterMs: number;
}

/**
 * An exact sliding-window limiter: at most `limit` requests per key in any window of
 * `windowMs`, counted with one timestamp ring per key. Refused requests do not count.
 */
export class SlidingWindowLimiter {
  private readonly rings = new Map<string, { stamps: number[]; next: number }>();
  private lastSweep = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  take(key: string): LimitDecision {
    const now = this.clock.now().getTime();
    this.sweep(now);
    let ring = this.rings.get(key);
    if (!ring) {
      ring = { stamps: [], next: 0 };
      this.rings.set(key, ring);
    }
    if (ring.stamps.length < this.limit) {
      ring.stamps.push(now);
      return { allowed: true, limit: this.limit, remaining: this.limit - ring.stamps.length, retryAfterMs: 0 };
    }
    // The ring is full: `next` points at the oldest stamp.
    const oldest = ring.stamps[ring.next] as number;
    if (now - oldest < this.windowMs) {
      return { allowed: false, limit: this.limit, remaining: 0, retryAfterMs: oldest + this.windowMs - now };
    }
    ring.stamps[ring.next] = now;
    ring.next = (ring.next + 1) % this.limit;
    const windowStart = now - this.windowMs;
    const remaining = ring.stamps.filter((stamp) => stamp <= windowStart).length;
    return { allowed: true, limit: this.limit, remaining, retryAfterMs: 0 };
  }

  /** Milliseconds until `key` may take again without taking now (0: it may); for counting only failures. */
  waitMs(key: string): number {
    const ring = this.rings.get(key);
    if (!ring || ring.stamps.length < this.limit) return 0;
    const oldest = ring.stamps[ring.next] as number;
    return Math.max(0, oldest + this.windowMs - this.clock.now().getTime());
  }

  /** Forgets keys idle for a whole window, so memory follows the active keys. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [key, ring] of this.rings) {
      if (ring.stamps.every((stamp) => now - stamp >= this.windowMs)) this.rings.delete(key);
    }
  }
}
