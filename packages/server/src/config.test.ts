import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

// README › Configuration: every variable from the environment, checked at start-up,
// every problem listed at once.
describe('loadConfig', () => {
  it('treats an empty variable as unset, for every variable alike', () => {
    const config = loadConfig({ HOST: '', PORT: '', BASE_URL: '', DATA_DIR: '', DATABASE_URL: '', SMTP_URL: '', LOG_LEVEL: '', GANTRY_WEBHOOK_RETRY_DELAYS: '' });
    expect(config).toMatchObject({ host: '127.0.0.1', port: 3000, baseUrl: 'http://localhost:3000', databaseUrl: undefined, smtpUrl: undefined, logLevel: 'info' });
    expect(config.dataDir).toMatch(/[/\\]data$/);
    expect(config.webhookRetryDelaysSec).toEqual([0, 60, 300, 1800, 7200, 43200]);
  });

  it('lists every bad value at once: numbers must be plain decimals, BASE_URL an http(s) URL', () => {
    expect(problems({ PORT: '1e3', BASE_URL: 'localhost:3000', GANTRY_WEBHOOK_RETRY_DELAYS: '1,,2', GANTRY_WEBHOOK_LEASE_SEC: '1.0', GANTRY_RATE_LIMIT_READS: '0x10' }).map((p) => p.split(':')[0])).toEqual([
      'PORT',
      'BASE_URL',
      'GANTRY_WEBHOOK_RETRY_DELAYS',
      'GANTRY_WEBHOOK_LEASE_SEC',
      'GANTRY_RATE_LIMIT_READS',
    ]);
    expect(problems({ BASE_URL: 'ftp://example.com' })).toEqual([expect.stringMatching(/^BASE_URL: .*http/)]);
    for (const value of ['https://gantry.example.com/?tenant=1', 'https://gantry.example.com/#top']) expect(problems({ BASE_URL: value }), value).toEqual([expect.stringMatching(/^BASE_URL: .*query/)]);
    expect(loadConfig({ BASE_URL: 'https://gantry.example.com/', GANTRY_WEBHOOK_RETRY_DELAYS: '0, 1.5,60' })).toMatchObject({
      baseUrl: 'https://gantry.example.com',
      webhookRetryDelaysSec: [0, 1.5, 60],
    });
  });

  it('takes DATABASE_URL in every form pg reads, and nothing else', () => {
    for (const value of ['postgres://u@db.example.com/gantry', 'postgresql://u@%2Fvar%2Frun%2Fpostgresql/gantry', 'postgres://u@localhost/db?host=/var/run/postgresql', 'socket:/var/run/postgresql?db=gantry']) {
      expect(loadConfig({ DATABASE_URL: value }).databaseUrl, value).toBe(value);
    }
    for (const value of ['mysql://db/gantry', 'db.example.com:5432']) expect(problems({ DATABASE_URL: value }), value).toEqual([expect.stringMatching(/^DATABASE_URL: /)]);
  });

  it('trusts X-Forwarded-For only from the reverse proxies named, never from everyone', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ GANTRY_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8']);
    for (const value of ['true', '*', '1', '10.0.0.0/33', 'proxy.example.com', '127.0.0.1,']) {
      expect(problems({ GANTRY_TRUST_PROXY: value }), value).toEqual([expect.stringMatching(/^GANTRY_TRUST_PROXY: /)]);
    }
  });

  it('opens /metrics only with a GANTRY_METRICS_TOKEN long enough to be a secret', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    const token = 'f'.repeat(32);
    expect(loadConfig({ GANTRY_METRICS_TOKEN: token }).metricsToken).toBe(token);
    for (const value of ['short', 'f'.repeat(31), `${'f'.repeat(20)} ${'f'.repeat(20)}`]) {
      expect(problems({ GANTRY_METRICS_TOKEN: value }), value).toEqual([expect.stringMatching(/^GANTRY_METRICS_TOKEN: must be at least 32 characters/)]);
    }
  });

  it('runs the background work in serve unless GANTRY_SERVE_WORKER=0, and takes REDIS_URL only as a redis URL', () => {
    expect(loadConfig({})).toMatchObject({ serveWorker: true, redisUrl: undefined });
    expect(loadConfig({ GANTRY_SERVE_WORKER: '0', REDIS_URL: 'redis://127.0.0.1:6379' })).toMatchObject({ serveWorker: false, redisUrl: 'redis://127.0.0.1:6379' });
    expect(loadConfig({ GANTRY_SERVE_WORKER: '1', REDIS_URL: 'rediss://cache.example.com' })).toMatchObject({ serveWorker: true });
    expect(problems({ GANTRY_SERVE_WORKER: 'no', REDIS_URL: '127.0.0.1:6379' }).map((p) => p.split(':')[0])).toEqual(['REDIS_URL', 'GANTRY_SERVE_WORKER']);
  });
});
