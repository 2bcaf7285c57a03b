import { limits } from '@gantry/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPerson } from '../support/sessions.js';
import { provisionUser, startTestServer, type ApiResponse, type TestServer } from '../support/test-server.js';

type ErrorBody = { error: string; message?: string; details?: { retryAfterSec?: number } };

// docs/api.md › Limits: per key, sliding one-minute window, 240 reads and 60 writes per minute.
// Over a limit: 429 `rate_limited` with a `Retry-After` header (seconds) and
// `details.retryAfterSec` (docs/api.md › Error codes). The defaults are used on purpose (no env
// override): the test proves the documented numbers.
describe('rate limits', () => {
  let server: TestServer;
  let alice: Awaited<ReturnType<typeof provisionUser>>;
  let bob: Awaited<ReturnType<typeof provisionUser>>;

  beforeAll(async () => {
    server = await startTestServer();
    alice = await provisionUser(server, 'alice@example.com');
    bob = await provisionUser(server, 'bob@example.com');
  });
  afterAll(() => server.close());

  /** Sends `count` sequential reads and returns the statuses (all should be 200). */
  async function reads(key: string, count: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) statuses.push((await server.request('GET', '/api/auth/me', { key })).status);
    return statuses;
  }

  /**
   * Checks a 429 and its wait. With `oldestSentAt` (clock time just before the oldest
   * counted request was sent) the wait must be what remains of that request's minute:
   * at most `maxSec`, and at least what is left measured after the 429 arrived (so a slow
   * machine cannot make the check flaky).
   */
  function expectRateLimited(response: ApiResponse<ErrorBody>, expected?: { oldestSentAt: number; maxSec: number }): number {
    const respondedAt = server.clock.now().getTime();
    expect(response.status).toBe(429);
    expect(response.body.error).toBe('rate_limited');
    const retryAfterSec = response.body.details?.retryAfterSec as number;
    expect(Number.isInteger(retryAfterSec)).toBe(true);
    expect(retryAfterSec).toBeGreaterThanOrEqual(1);
    expect(retryAfterSec).toBeLessThanOrEqual(60);
    expect(response.headers.get('retry-after')).toBe(String(retryAfterSec));
    if (expected) {
      expect(retryAfterSec).toBeLessThanOrEqual(expected.maxSec);
      expect(retryAfterSec).toBeGreaterThanOrEqual(Math.floor((expected.oldestSentAt + 60_000 - respondedAt) / 1000));
    }
    return retryAfterSec;
  }

  it('documents 240 reads and 60 writes per minute in the shared limits', () => {
    expect(limits.readRequestsPerMinute).toBe(240);
    expect(limits.writeRequestsPerMinute).toBe(60);
    expect(limits.rateLimitWindowMs).toBe(60_000);
    expect(server.config.rateLimits).toEqual({ readsPerMinute: 240, writesPerMinute: 60, sessionWritesPerMinute: 600 });
  });

  it('allows 240 reads in a minute, answers the 241st 429 rate_limited; writes and other keys keep their own budgets', async () => {
    // Fresh keys (provisionUser already spent one read of alice.key). The second key of
    // the same user shows that limits are per key, not per user.
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) {
      const created = await server.cli('key', 'create', '--email', 'alice@example.com', '--scope', 'write', '--json');
      expect(created.code, created.stderr).toBe(0);
      keys.push((created.json as { key: string }).key);
    }
    const [key, secondKey] = keys as [string, string];

    const firstSentAt = server.clock.now().getTime();
    expect(new Set(await reads(key, 240))).toEqual(new Set([200]));
    const refused = await server.request<ErrorBody>('GET', '/api/auth/me', { key });
    expectRateLimited(refused, { oldestSentAt: firstSentAt, maxSec: 60 });
    // Every read route shares the budget.
    expectRateLimited(await server.request<ErrorBody>('GET', '/api/projects', { key }));

    // Separate budgets: writes of the same key still pass.
    const write = await server.request('POST', '/api/projects', { key, body: { name: 'Still writing' } });
    expect(write.status).toBe(201);

    // Another key — of another user, and of the same user — is unaffected.
    expect((await server.request('GET', '/api/auth/me', { key: bob.key })).status).toBe(200);
    expect((await server.request('GET', '/api/auth/me', { key: secondKey })).status).toBe(200);
    expect((await server.request('GET', '/api/auth/me', { key: alice.key })).status).toBe(200);

    // After a full minute the budget is back.
    server.clock.advance(60_001);
    expect((await server.request('GET', '/api/auth/me', { key })).status).toBe(200);
  });

  it('slides the window instead of resetting it on fixed minutes', async () => {
    const created = await server.cli('key', 'create', '--email', 'bob@example.com', '--scope', 'read', '--json');
    expect(created.code, created.stderr).toBe(0);
    const key = (created.json as { key: string }).key;

    const firstBatchAt = server.clock.now().getTime();
    expect(new Set(await reads(key, 120))).toEqual(new Set([200]));
    server.clock.advance(30_000);
    const secondBatchAt = server.clock.now().getTime();
    expect(new Set(await reads(key, 120))).toEqual(new Set([200]));
    // 240 requests within the last minute: spent; the oldest leave in ~30 s.
    expectRateLimited(await server.request<ErrorBody>('GET', '/api/auth/me', { key }), { oldestSentAt: firstBatchAt, maxSec: 30 });

    // 31 s later the first 120 have left the window — but the last 120 have not, so only
    // ~120 more fit (a fixed window would have allowed 240 again).
    server.clock.advance(31_000);
    expect(new Set(await reads(key, 120))).toEqual(new Set([200]));
    expectRateLimited(await server.request<ErrorBody>('GET', '/api/auth/me', { key }), { oldestSentAt: secondBatchAt, maxSec: 29 });
  });

  it('allows 60 writes in a minute and answers the 61st 429 with Retry-After; reads still pass', async () => {
    const created = await server.cli('key', 'create', '--email', 'bob@example.com', '--scope', 'write', '--json');
    expect(created.code, created.stderr).toBe(0);
    const key = (created.json as { key: string }).key;
    const firstWriteAt = server.clock.now().getTime();
    const projectId = (await server.request<{ project: { id: string } }>('POST', '/api/projects', { key, body: { name: 'Writes' } })).body.project.id;

    // Writes of every kind (POST and PATCH) count against one budget: 1 POST above + 59 PATCH.
    const statuses: number[] = [];
    for (let i = 0; i < 59; i++) {
      statuses.push((await server.request('PATCH', `/api/projects/${projectId}`, { key, body: { description: `edit ${i}` } })).status);
    }
    expect(new Set(statuses)).toEqual(new Set([200]));

    const refused = await server.request<ErrorBody>('PATCH', `/api/projects/${projectId}`, { key, body: { description: 'one too many' } });
    expectRateLimited(refused, { oldestSentAt: firstWriteAt, maxSec: 60 });
    expectRateLimited(await server.request<ErrorBody>('POST', '/api/projects', { key, body: { name: 'Refused' } }));
    // A (forbidden) DELETE is a write too: no way around the budget.
    expectRateLimited(await server.request<ErrorBody>('DELETE', `/api/projects/${projectId}`, { key }));
    // The refused write changed nothing.
    const project = await server.request<{ project: { description: string | null } }>('GET', `/api/projects/${projectId}`, { key });
    expect(project.status).toBe(200);
    expect(project.body.project.description).toBe('edit 58');

    // Refusals do not count: once the window has passed, writes pass again.
    server.clock.advance(60_001);
    expect((await server.request('PATCH', `/api/projects/${projectId}`, { key, body: { description: 'later' } })).status).toBe(200);
  });

  it("gives a web session 600 writes a minute of its own: the same person's key keeps its 60", async () => {
    const carol = await signedInPerson(server, 'carol@example.com', 'Carol');
    const created = await server.cli('key', 'create', '--email', 'carol@example.com', '--scope', 'write', '--json');
    const key = (created.json as { key: string }).key;
    const projectId = (await server.request<{ project: { id: string } }>('POST', '/api/projects', { headers: carol.headers, body: { name: 'By keyboard' } })).body.project.id;
    const statuses: number[] = [];
    for (let i = 0; i < 599; i++) statuses.push((await server.request('PATCH', `/api/projects/${projectId}`, { headers: carol.headers, body: { description: `edit ${i}` } })).status);
    expect(new Set(statuses)).toEqual(new Set([200]));
    const refused = await server.request<ErrorBody>('PATCH', `/api/projects/${projectId}`, { headers: carol.headers, body: { description: 'one too many' } });
    expectRateLimited(refused);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('600');
    // The key has its own budget, the API's.
    const byKey = await server.request('PATCH', `/api/projects/${projectId}`, { key, body: { description: 'by key' } });
    expect(byKey.status).toBe(200);
    expect(byKey.headers.get('x-ratelimit-limit')).toBe('60');
    server.clock.advance(60_001);
  });

  it('does not count requests without a valid key against anyone', async () => {
    for (let i = 0; i < 3; i++) expect((await server.request('GET', '/api/auth/me', { key: 'gnt_unknown' })).status).toBe(401);
    expect((await server.request('GET', '/api/auth/me', { key: bob.key })).status).toBe(200);
  });
});
