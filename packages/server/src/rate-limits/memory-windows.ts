import type { LimitDecision, SlidingWindows } from './sliding-window-limiter.js';

interface Ring {
  stamps: number[];
  /** Once the ring is full: the index of its oldest stamp. */
  next: number;
  windowMs: number;
}

/**
 * Sliding windows in this process's memory, one timestamp ring per key: the limits of a
 * single node (the embedded SQLite store has one). Idle keys are forgotten after a whole
 * window, so memory follows the active keys.
 */
export class MemoryWindows implements SlidingWindows {
  private readonly rings = new Map<string, Ring>();
  private lastSweep = 0;

  take(key: string, limit: number, windowMs: number, now: number): Promise<LimitDecision> {
    return Promise.resolve(this.takeNow(key, limit, windowMs, now));
  }

  waitMs(key: string, limit: number, _windowMs: number, now: number): Promise<number> {
    const ring = this.rings.get(key);
    if (!ring || ring.stamps.length < limit) return Promise.resolve(0);
    const oldest = ring.stamps[ring.next] as number;
    return Promise.resolve(Math.max(0, oldest + ring.windowMs - now));
  }

  private takeNow(key: string, limit: number, windowMs: number, now: number): LimitDecision {
    this.sweep(now, windowMs);
    let ring = this.rings.get(key);
    if (!ring) {
      ring = { stamps: [], next: 0, windowMs };
      this.rings.set(key, ring);
    }
    if (ring.stamps.length < limit) {
      ring.stamps.push(now);
      return { allowed: true, limit, remaining: limit - ring.stamps.length, retryAfterMs: 0 };
    }
    const oldest = ring.stamps[ring.next] as number;
    if (now - oldest < windowMs) {
      return { allowed: false, limit, remaining: 0, retryAfterMs: oldest + windowMs - now };
    }
    ring.stamps[ring.next] = now;
    ring.next = (ring.next + 1) % limit;
    const windowStart = now - windowMs;
    const remaining = ring.stamps.filter((stamp) => stamp <= windowStart).length;
    return { allowed: true, limit, remaining, retryAfterMs: 0 };
  }

  private sweep(now: number, windowMs: number): void {
    if (now - this.lastSweep < windowMs) return;
    this.lastSweep = now;
    for (const [key, ring] of this.rings) {
      if (ring.stamps.every((stamp) => now - stamp >= ring.windowMs)) this.rings.delete(key);
    }
  }
}
