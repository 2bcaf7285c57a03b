import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPerson } from '../support/sessions.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// The background work's retention (`gantry worker`, or serve's embedded worker): what has
// expired is dropped hourly, whichever process answered the requests that made it.
describe('retention in the background work', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('drops expired web sessions on the worker round after they expire, not before', async () => {
    const person = await signedInPerson(server, 'retained@example.com');
    const sessions = () => server.store.q.sessions.listForUser(person.userId);
    expect(await sessions()).toHaveLength(1);

    await server.webhookWorker().runOnce();
    expect(await sessions()).toHaveLength(1);

    // Web sessions last 30 days; a worker purges on its first round, then hourly.
    server.clock.advance(31 * 86_400_000);
    await server.webhookWorker().runOnce();
    expect(await sessions()).toEqual([]);
  });

  it('writes nothing on a round with nothing to do', async () => {
    const worker = server.webhookWorker();
    await worker.runOnce(); // a worker's first round also purges
    // The SQLite store counts its writes in `readVersion` (PostgreSQL's is always null).
    const before = server.store.readVersion();
    await worker.runOnce();
    await worker.runOnce();
    expect(server.store.readVersion()).toBe(before);
  });
});
