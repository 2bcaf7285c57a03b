import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from './sliding-window-limiter.js';

function manualClock(start = 0) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe('SlidingWindowLimiter', () => {
  it('allows `limit` requests in any window and refuses the next with the wait until a slot frees', () => {
    const clock = manualClock(1_000_000);
    const limiter = new SlidingWindowLimiter(3, 60_000, clock);
    expect(limiter.take('k').allowed).toBe(true);
    clock.advance(10_000);
    expect(limiter.take('k').allowed).toBe(true);
    clock.advance(10_000);
    expect(limiter.take('k')).toMatchObject({ allowed: true, remaining: 0 });
    clock.advance(1_000);
    expect(limiter.take('k')).toMatchObject({ allowed: false, retryAfterMs: 39_000 });
    clock.advance(39_000);
    expect(limiter.take('k').allowed).toBe(true);
    // The second stamp (t+10 s) is still inside the window: sliding, not fixed.
    expect(limiter.take('k')).toMatchObject({ allowed: false, retryAfterMs: 10_000 });
  });

  it('keeps separate budgets per key and does not count refusals', () => {
    const clock = manualClock();
    const limiter = new SlidingWindowLimiter(1, 1_000, clock);
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('b').allowed).toBe(true);
    for (let i = 0; i < 5; i++) expect(limiter.take('a').allowed).toBe(false);
    clock.advance(1_000);
    expect(limiter.take('a').allowed).toBe(true);
  });

  it('tells how long a spent key must wait, without taking', () => {
    const clock = manualClock();
    const limiter = new SlidingWindowLimiter(2, 1_000, clock);
    expect(limiter.waitMs('k')).toBe(0);
    limiter.take('k');
    clock.advance(300);
    limiter.take('k');
    expect(limiter.waitMs('k')).toBe(700);
    expect(limiter.waitMs('k')).toBe(700); // asking does not count
    clock.advance(700);
    expect(limiter.waitMs('k')).toBe(0);
  });
});
