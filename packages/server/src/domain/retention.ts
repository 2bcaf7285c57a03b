import type { DomainContext } from './context.js';

/**
 * Drops what is never read again: expired web sessions and mailed tokens, expired OAuth
 * artifacts (codes, tokens, interactions), and the rate-limit windows of idle keys. Run by
 * the background work (`gantry worker`, or `gantry serve` with its embedded worker) hourly.
 */
export async function purgeExpired(ctx: DomainContext): Promise<void> {
  const now = ctx.clock.now();
  await ctx.store.q.sessions.purgeExpired(now.toISOString());
  await ctx.store.q.oauth.purgeExpired(now.toISOString());
  await ctx.store.sharedWindows?.purgeExpired(now.getTime());
}
