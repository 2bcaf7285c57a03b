import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Clock } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { buildService } from '../../src/service.js';
import { openStore } from '../../src/store/open-store.js';
import { WebhookWorker } from '../../src/webhooks/delivery-worker.js';
import type { LookupResolver } from '../../src/webhooks/destination-guard.js';
import { guardedFetch } from '../../src/webhooks/http-sender.js';
import { destinationPolicy } from '../../src/webhooks/policy.js';
import type { Store } from '../../src/store/store.js';
import { openApiProblems } from './openapi-check.js';
import { freePort, runGantry, type CliResult as ProcessResult } from './processes.js';
import { createTestStoreEnv, type TestStoreEnv } from './test-store.js';


/** A clock tests can move: starts at real time, `advance(ms)` jumps ahead. */
export class ManualClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CliResult extends ProcessResult {
  json: Record<string, unknown> | null;
}

export interface TestServer {
  url: string;
  store: Store;
  config: Config;
  clock: ManualClock;
  app: FastifyInstance;
  storeEnv: TestStoreEnv;
  /** A webhook worker on the same store and clock, driven by the test (`runOnce()`). */
  webhookWorker(options?: { timeoutMs?: number; concurrency?: number; batchSize?: number }): WebhookWorker;
  /** Delivers every due webhook delivery now, as the worker would (a few rounds, for the fan-out then the sends). */
  deliverAll(): Promise<void>;
  /** Runs the real `gantry` bin against the same store. */
  cli(...args: string[]): Promise<CliResult>;
  /** Sends a request; every response is checked against the OpenAPI document. */
  request<T = Record<string, unknown>>(
    method: string,
    pathname: string,
    options?: { key?: string; body?: unknown; rawBody?: string | Uint8Array; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

/**
 * Name resolution for subscriptions in tests, without the real DNS: names under
 * `loopback.test` resolve to 127.0.0.1 (a wildcard name for loopback, as nip.io offers),
 * every other name does not resolve.
 */
export const testResolver: LookupResolver = async (hostname) => {
  if (hostname === 'loopback.test' || hostname.endsWith('.loopback.test')) return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`test resolver: ${hostname} does not resolve`), { code: 'ENOTFOUND' });
};

/**
 * Starts the real HTTP app on a random loopback port over a fresh store (SQLite, or
 * PostgreSQL when TEST_DATABASE_URL is set), or over `storeEnv` (dropped on close).
 * `trustedCa`: the certificate authority of a loopback HTTPS server the service may fetch
 * from (OAuth client metadata documents).
 */
export async function startTestServer(env: Record<string, string> = {}, options: { trustedCa?: string; storeEnv?: TestStoreEnv } = {}): Promise<TestServer> {
  const storeEnv = options.storeEnv ?? (await createTestStoreEnv());
  const processEnv = { ...storeEnv.env, LOG_LEVEL: 'silent', ...env };
  // The port is chosen first, so that BASE_URL (the OAuth issuer, links) names the address tests use.
  const port = await freePort();
  const config = loadConfig({ BASE_URL: `http://127.0.0.1:${port}`, ...processEnv, PORT: String(port), HOST: '127.0.0.1' });
  const { store } = await openStore(config);
  const clock = new ManualClock();
  const webhookDestinations = destinationPolicy(config.webhookAllowPrivate, testResolver);
  const publicFetch = guardedFetch({ allowPrivate: config.webhookAllowPrivate, resolver: testResolver, ca: options.trustedCa });
  const app = buildService({ config, store, clock, logger: createLogger('silent'), webhookDestinations, publicFetch });
  const address = await app.listen({ port, host: '127.0.0.1' });
  const webhookWorker = (options: { timeoutMs?: number; concurrency?: number; batchSize?: number } = {}) =>
    new WebhookWorker({
      ctx: { store, clock, baseUrl: config.baseUrl, webhookDestinations },
      log: createLogger('silent'),
      retryDelaysSec: config.webhookRetryDelaysSec,
      allowPrivate: config.webhookAllowPrivate,
      timeoutMs: options.timeoutMs,
      concurrency: options.concurrency,
      batchSize: options.batchSize,
    });

  return {
    url: address,
    store,
    config,
    clock,
    app,
    storeEnv,
    webhookWorker,
    async deliverAll() {
      const worker = webhookWorker({ timeoutMs: 2000 });
      for (let round = 0; round < 20 && (await worker.runOnce()); round++);
    },
    async cli(...args) {
      const result = await runGantry(args, processEnv);
      return { ...result, json: result.code === 0 && args.includes('--json') ? (JSON.parse(result.stdout) as Record<string, unknown>) : null };
    },
    async request(method, pathname, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.key) headers.authorization = `Bearer ${options.key}`;
      let body: string | Uint8Array | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(`${address}${pathname}`, { method, headers, body });
      const text = await response.text();
      const parsed = text ? JSON.parse(text) : null;
      // A 204 has no body, hence no content type.
      if (response.status !== 204) expect(response.headers.get('content-type') ?? '').toMatch(/^application\/json/);
      expect(openApiProblems(method, pathname.split('?')[0] as string, response.status, parsed), `${method} ${pathname} → ${response.status} ${text.slice(0, 300)}`).toEqual([]);
      return { status: response.status, headers: response.headers, body: parsed };
    },
    async close() {
      await app.close();
      await store.close();
      await storeEnv.drop();
    },
  };
}

/** Provisions a user and a key through the CLI, returning the key and ids. */
export async function provisionUser(
  server: TestServer,
  email: string,
  keyOptions: string[] = ['--scope', 'write'],
): Promise<{ userId: string; key: string; keyId: string; personalWorkspaceId: string }> {
  const user = await server.cli('user', 'create', '--email', email, '--name', email.split('@')[0] as string, '--json');
  expect(user.code, user.stderr).toBe(0);
  const key = await server.cli('key', 'create', '--email', email, ...keyOptions, '--json');
  expect(key.code, key.stderr).toBe(0);
  const { key: token, apiKey } = key.json as { key: string; apiKey: { id: string } };
  const workspaces = await server.request<{ workspaces: { id: string; personal: boolean }[] }>('GET', '/api/workspaces', { key: token });
  const personal = workspaces.body.workspaces.find((workspace) => workspace.personal);
  return { userId: (user.json as { user: { id: string } }).user.id, key: token, keyId: apiKey.id, personalWorkspaceId: personal?.id ?? '' };
}
