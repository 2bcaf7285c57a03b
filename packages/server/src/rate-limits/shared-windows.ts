import { MemoryWindows } from './memory-windows.js';
import type { LimitDecision, SlidingWindows } from './sliding-window-limiter.js';

/**
 * Windows shared by every node, with this node's own as the fallback: when the shared
 * store cannot be reached, limits still hold per node (N nodes grant up to N budgets)
 * rather than refusing every request or none. Failures are reported to `warn`, at most
 * one a minute (an outage would otherwise log once per request).
 */
export class SharedWindows implements SlidingWindows {
  private readonly local = new MemoryWindows();
  private lastWarning = -Infinity;

  constructor(
    private readonly shared: SlidingWindows,
    private readonly warn: (error: unknown) => void,
  ) {}

  private onError(error: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < 60_000) return;
    this.lastWarning = now;
    this.warn(error);
  }

  async take(key: string, limit: number, windowMs: number, now: number): Promise<LimitDecision> {
    try {
      return await this.shared.take(key, limit, windowMs, now);
    } catch (error) {
      this.onError(error);
      return this.local.take(key, limit, windowMs, now);
    }
  }

  async waitMs(key: string, limit: number, windowMs: number, now: number): Promise<number> {
    try {
      return await this.shared.waitMs(key, limit, windowMs, now);
    } catch (error) {
      this.onError(error);
      return this.local.waitMs(key, limit, windowMs, now);
    }
  }
}
