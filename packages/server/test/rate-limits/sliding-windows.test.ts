import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryWindows } from '../../src/rate-limits/memory-windows.js';
import { RedisWindows } from '../../src/rate-limits/redis-windows.js';
import { SharedWindows } from '../../src/rate-limits/shared-windows.js';
import { SlidingWindowLimiter, type SlidingWindows } from '../../src/rate-limits/sliding-window-limiter.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { createTestStoreEnv, type TestStoreEnv } from '../support/test-store.js';

function manualClock(start = 1_700_000_000_000) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

/** Two handles on one backend, as two nodes of a cluster hold them; `close` releases both. */
interface Backend {
  nodes: [SlidingWindows, SlidingWindows];
  close(): Promise<void>;
}

const backends: [string, (() => Promise<Backend>) | null][] = [
  [
    'memory (one node)',
    async () => {
      const windows = new MemoryWindows();
      return { nodes: [windows, windows], close: async () => undefined };
    },
  ],
  [
    'PostgreSQL (shared)',
    process.env.TEST_DATABASE_URL
      ? async () => {
          const target: TestStoreEnv = await createTestStoreEnv();
          const open = () => openStore({ dataDir: '', databaseUrl: target.env.DATABASE_URL }).then(({ store }) => store);
          const stores: Store[] = [await open(), await open()];
          const windowsOf = (store: Store) => store.sharedWindows as SlidingWindows;
          return {
            nodes: [windowsOf(stores[0] as Store), windowsOf(stores[1] as Store)],
            close: async () => {
              for (const store of stores) await store.close();
              await target.drop();
            },
          };
        }
      : null,
  ],
  [
    'Redis (shared)',
    process.env.TEST_REDIS_URL
      ? async () => {
          const url = process.env.TEST_REDIS_URL as string;
          const clients = [new RedisWindows(url, () => undefined), new RedisWindows(url, () => undefined)] as const;
          for (const client of clients) await client.connect();
          return { nodes: [clients[0], clients[1]], close: async () => void (await Promise.all(clients.map((client) => client.close()))) };
        }
      : null,
  ],
];

describe.each(backends.filter((entry): entry is [string, () => Promise<Backend>] => entry[1] !== null))('sliding windows in %s', (_name, open) => {
  let backend: Backend;
  // Keys of every run are new: a shared Redis keeps what earlier runs counted.
  const prefix = randomBytes(6).toString('hex');
  const limiter = (limit: number, windowMs: number, clock: ReturnType<typeof manualClock>, node = 0) => new SlidingWindowLimiter(prefix, limit, windowMs, clock, backend.nodes[node] as SlidingWindows);

  beforeAll(async () => {
    backend = await open();
  });
  afterAll(async () => backend.close());

  it('allows `limit` requests in any window and refuses the next with the wait until a slot frees', async () => {
    const clock = manualClock();
    const windows = limiter(3, 60_000, clock);
    expect((await windows.take('k')).allowed).toBe(true);
    clock.advance(10_000);
    expect(await windows.take('k')).toMatchObject({ allowed: true, remaining: 1 });
    clock.advance(10_000);
    expect(await windows.take('k')).toMatchObject({ allowed: true, remaining: 0 });
    clock.advance(1_000);
    expect(await windows.take('k')).toMatchObject({ allowed: false, remaining: 0, retryAfterMs: 39_000 });
    clock.advance(39_000);
    expect((await windows.take('k')).allowed).toBe(true);
    // The second stamp (t+10 s) is still inside the window: sliding, not fixed.
    expect(await windows.take('k')).toMatchObject({ allowed: false, retryAfterMs: 10_000 });
  });

  it('counts in `remaining` only the requests still inside the window', async () => {
    const clock = manualClock();
    const windows = limiter(3, 60_000, clock);
    expect(await windows.take('r')).toMatchObject({ allowed: true, remaining: 2 });
    clock.advance(60_000); // it has left the window
    expect(await windows.take('r')).toMatchObject({ allowed: true, remaining: 2 });
    await windows.take('r');
    clock.advance(30_000);
    expect(await windows.take('r')).toMatchObject({ allowed: true, remaining: 0 });
    clock.advance(30_000); // the first two have left the window, the third has not
    expect(await windows.take('r')).toMatchObject({ allowed: true, remaining: 1 });
    clock.advance(60_000); // all have left
    expect(await windows.take('r')).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('counts requests of the same instant one by one', async () => {
    const clock = manualClock();
    const windows = limiter(4, 1_000, clock);
    const decisions = [];
    for (let i = 0; i < 6; i++) decisions.push(await windows.take('same'));
    expect(decisions.map((decision) => decision.remaining)).toEqual([3, 2, 1, 0, 0, 0]);
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, true, false, false]);
    expect(decisions[5]?.retryAfterMs).toBe(1_000);
    clock.advance(1_000);
    expect(await windows.take('same')).toMatchObject({ allowed: true, remaining: 3 });
  });

  it('keeps separate budgets per key and does not count refusals', async () => {
    const clock = manualClock();
    const windows = limiter(1, 1_000, clock);
    expect((await windows.take('a')).allowed).toBe(true);
    expect((await windows.take('b')).allowed).toBe(true);
    for (let i = 0; i < 5; i++) expect((await windows.take('a')).allowed).toBe(false);
    clock.advance(1_000);
    expect((await windows.take('a')).allowed).toBe(true);
  });

  it('tells how long a spent key must wait, without taking', async () => {
    const clock = manualClock();
    const windows = limiter(2, 1_000, clock);
    expect(await windows.waitMs('w')).toBe(0);
    await windows.take('w');
    clock.advance(300);
    await windows.take('w');
    expect(await windows.waitMs('w')).toBe(700);
    expect(await windows.waitMs('w')).toBe(700); // asking does not count
    clock.advance(700);
    expect(await windows.waitMs('w')).toBe(0);
  });

  it('grants exactly `limit` of many simultaneous takes, whichever node receives them', async () => {
    const clock = manualClock();
    const nodes = [limiter(60, 60_000, clock, 0), limiter(60, 60_000, clock, 1)];
    const decisions = await Promise.all(Array.from({ length: 150 }, (_, i) => (nodes[i % 2] as SlidingWindowLimiter).take('burst')));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(60);
    const remaining = decisions.filter((decision) => decision.allowed).map((decision) => decision.remaining);
    expect(new Set(remaining).size).toBe(60); // each grant saw the others: 59, 58, …, 0
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('sliding windows in PostgreSQL', () => {
  it('drops the rows of keys idle for their whole window, and only those', async () => {
    const target = await createTestStoreEnv();
    const { store } = await openStore({ dataDir: '', databaseUrl: target.env.DATABASE_URL });
    const client = new pg.Client({ connectionString: target.env.DATABASE_URL });
    await client.connect();
    try {
      const windows = store.sharedWindows as NonNullable<Store['sharedWindows']>;
      const now = 1_700_000_000_000;
      await windows.take('idle', 5, 60_000, now);
      await windows.take('active', 5, 60_000, now + 30_000);
      const keys = async () => (await client.query<{ key: string }>('select key from rate_limit_windows order by key')).rows.map((row) => row.key);
      await windows.purgeExpired(now + 59_999);
      expect(await keys()).toEqual(['active', 'idle']);
      await windows.purgeExpired(now + 60_000);
      expect(await keys()).toEqual(['active']);
    } finally {
      await client.end();
      await store.close();
      await target.drop();
    }
  });
});

describe('SharedWindows', () => {
  it("counts on this node's own windows while the shared store fails, and says so once", async () => {
    const failing: SlidingWindows = { take: () => Promise.reject(new Error('down')), waitMs: () => Promise.reject(new Error('down')) };
    const warnings: unknown[] = [];
    const windows = new SlidingWindowLimiter('fallback', 2, 1_000, manualClock(), new SharedWindows(failing, (error) => warnings.push(error)));
    expect((await windows.take('k')).allowed).toBe(true);
    expect((await windows.take('k')).allowed).toBe(true);
    expect((await windows.take('k')).allowed).toBe(false);
    expect(await windows.waitMs('k')).toBe(1_000);
    expect(warnings).toHaveLength(1);
  });
});
