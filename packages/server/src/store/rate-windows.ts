import { sql } from 'kysely';
import { decisionOf, waitOf, type LimitDecision, type SlidingWindows } from '../rate-limits/sliding-window-limiter.js';
import type { Executor } from './queries/executor.js';

/** Sliding windows every node of a store shares, and their clean-up. */
export interface StoreWindows extends SlidingWindows {
  /** Drops the windows of keys idle for their whole window. */
  purgeExpired(now: number): Promise<void>;
}

function stampsOf(text: string): number[] {
  return text === '' ? [] : text.split(',').map(Number);
}

/**
 * Sliding windows in PostgreSQL, shared by every node on the database. A take is one
 * upsert: its update locks the key's row and computes the new window from the row as
 * last committed (PostgreSQL re-reads a row another node changed meanwhile), so takes at
 * the same instant on different nodes are counted one after another, never both on the
 * same stamps.
 */
export function postgresWindows(db: Executor): StoreWindows {
  return {
    async take(key: string, limit: number, windowMs: number, now: number): Promise<LimitDecision> {
      const start = now - windowMs;
      // The stamps still inside the window, ascending.
      const recent = sql`array(select s from unnest(string_to_array(w.stamps, ',')::bigint[]) as s where s > ${start} order by s)`;
      const room = sql`cardinality(${recent}) < ${limit}`;
      const { rows } = await sql<{ stamps: string; allowed: number }>`
        insert into rate_limit_windows as w (key, stamps, allowed, expires_at)
        values (${key}, ${String(now)}, 1, ${now + windowMs})
        on conflict (key) do update set
          stamps = array_to_string(case when ${room} then ${recent} || ${now}::bigint else ${recent} end, ','),
          allowed = case when ${room} then 1 else 0 end,
          expires_at = ${now + windowMs}
        returning stamps, allowed`.execute(db);
      const row = rows[0] as { stamps: string; allowed: number };
      return decisionOf(row.allowed === 1, stampsOf(row.stamps), limit, windowMs, now);
    },

    async waitMs(key: string, limit: number, windowMs: number, now: number): Promise<number> {
      const row = await db.selectFrom('rate_limit_windows').select('stamps').where('key', '=', key).executeTakeFirst();
      const recent = stampsOf(row?.stamps ?? '').filter((stamp) => stamp > now - windowMs);
      return waitOf(recent, limit, windowMs, now);
    },

    async purgeExpired(now: number): Promise<void> {
      await db.deleteFrom('rate_limit_windows').where('expires_at', '<=', now).execute();
    },
  };
}
