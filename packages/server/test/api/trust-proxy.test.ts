import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

// README › Configuration (GANTRY_TRUST_PROXY): behind a reverse proxy, the limits per client
// address count the address the proxy forwards, so one client's flood never locks out the rest.
describe('client addresses behind a reverse proxy', () => {
  let server: TestServer | undefined;
  afterEach(() => server?.close());

  /** Spends one address's budget of requests without a credential (50 per 15 minutes), then asks from another. */
  async function floodThenOther(): Promise<{ flooded: number; other: number }> {
    const reset = (from: string) =>
      server!.request('POST', '/api/auth/password-reset', { body: { email: 'nobody@example.com' }, headers: { 'x-forwarded-for': from } });
    for (let k = 0; k < 50; k++) expect((await reset('203.0.113.5')).status).toBe(202);
    return { flooded: (await reset('203.0.113.5')).status, other: (await reset('198.51.100.7')).status };
  }

  it('counts the forwarded address when the request comes from a trusted proxy', async () => {
    server = await startTestServer({ GANTRY_TRUST_PROXY: '127.0.0.1' });
    expect(await floodThenOther()).toEqual({ flooded: 429, other: 202 });
  });

  it('ignores X-Forwarded-For from anyone else: a client cannot choose its own address', async () => {
    server = await startTestServer();
    expect(await floodThenOther()).toEqual({ flooded: 429, other: 429 });
  });
});
