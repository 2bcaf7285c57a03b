import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import type { LimitDecision, SlidingWindows } from './sliding-window-limiter.js';

/*
 * One sorted set per key, scored by the time of each counted request. Each script runs
 * atomically in Redis, so nodes taking at once are counted one after another. A stamp
 * counts while now - stamp < window (the same rule as in memory).
 */
const takeScript = `
local now, windowMs, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - windowMs)
local count = redis.call('ZCARD', KEYS[1])
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], windowMs)
  return {1, count + 1, 0}
end
local freeing = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
return {0, count, tonumber(freeing[2])}
`;

const waitScript = `
local now, windowMs, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local start = now - windowMs
local count = redis.call('ZCOUNT', KEYS[1], '(' .. start, '+inf')
if count < limit then return 0 end
local freeing = redis.call('ZRANGE', KEYS[1], '(' .. start, '+inf', 'BYSCORE', 'LIMIT', count - limit, 1, 'WITHSCORES')
return math.max(0, tonumber(freeing[2]) + windowMs - now)
`;

/** Sliding windows in Redis (`REDIS_URL`): shared by every node that names the same server. */
export class RedisWindows implements SlidingWindows {
  private readonly client;
  /** Members of a sorted set must differ: this process's tag and a counter. */
  private readonly tag = randomBytes(6).toString('base64url');
  private counter = 0;
  private connected = false;

  /** `onError` hears the client's connection errors; a failed take rejects anyway (SharedWindows reports those). */
  constructor(url: string, onError: (error: unknown) => void = () => undefined) {
    this.client = createClient({
      url,
      // No offline queue: while Redis is away a take fails at once (callers fall back to local windows) instead of waiting.
      disableOfflineQueue: true,
      socket: {
        connectTimeout: 2000,
        // A server that cannot be reached at start is a configuration error; once connected, keep trying to get back.
        reconnectStrategy: (retries: number, cause: Error) => (this.connected ? Math.min(100 * 2 ** retries, 2000) : cause),
      },
    });
    this.client.on('error', onError);
  }

  async connect(): Promise<void> {
    await this.client.connect();
    this.connected = true;
  }

  async take(key: string, limit: number, windowMs: number, now: number): Promise<LimitDecision> {
    const member = `${now}:${this.tag}:${(this.counter += 1)}`;
    const [allowed, count, freeing] = (await this.client.eval(takeScript, { keys: [key], arguments: [String(now), String(windowMs), String(limit), member] })) as [number, number, number];
    if (allowed === 1) return { allowed: true, limit, remaining: limit - count, retryAfterMs: 0 };
    return { allowed: false, limit, remaining: 0, retryAfterMs: Math.max(0, freeing + windowMs - now) };
  }

  async waitMs(key: string, limit: number, windowMs: number, now: number): Promise<number> {
    return (await this.client.eval(waitScript, { keys: [key], arguments: [String(now), String(windowMs), String(limit)] })) as number;
  }

  async close(): Promise<void> {
    this.connected = false;
    if (this.client.isOpen) await this.client.close();
  }
}
