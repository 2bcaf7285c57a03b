import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { callApi, TestCluster, until, type ApiAnswer, type ApiNode } from '../support/cluster.js';
import { startReceiver } from '../support/receiver.js';
import { createTestStoreEnv, type TestStoreEnv } from '../support/test-store.js';

// docs/operations.md › Running several nodes: N `gantry serve` and N `gantry worker`
// processes on one PostgreSQL. These tests start real processes on a private schema.
const onPostgres = process.env.TEST_DATABASE_URL !== undefined;
const limitStores: [string, Record<string, string>][] = [
  ['the database', {}],
  ...(process.env.TEST_REDIS_URL ? [['Redis', { REDIS_URL: process.env.TEST_REDIS_URL }] as [string, Record<string, string>]] : []),
];
const base = { LOG_LEVEL: 'warn', HOST: '127.0.0.1', GANTRY_WEBHOOK_ALLOW_PRIVATE: '1' };
const generous = { GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' };

/** How many times each event id reached the receiver. */
function receiptsById(calls: { body: { id: string } }[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.body.id, (counts.get(call.body.id) ?? 0) + 1);
  return counts;
}

describe.skipIf(!onPostgres)('a cluster of API nodes and workers on one PostgreSQL', () => {
  let storeEnv: TestStoreEnv | undefined;
  let cluster: TestCluster | undefined;

  afterEach(async () => {
    await cluster?.stop();
    await storeEnv?.drop();
    cluster = undefined;
    storeEnv = undefined;
  });

  async function startCluster(env: Record<string, string>): Promise<TestCluster> {
    storeEnv = await createTestStoreEnv();
    cluster = new TestCluster({ ...storeEnv.env, ...base, ...env });
    return cluster;
  }

  it.each(limitStores)('rate limits counted in %s: two nodes grant a key 60 writes a minute between them, and each reads what the other wrote', async (_where, env) => {
    const nodes = await startCluster(env);
    const key = await nodes.writeKey('limits@example.com');
    const [a, b] = [await nodes.startNode(), await nodes.startNode()] as [ApiNode, ApiNode];
    const project = await callApi(a.base, key, 'POST', '/api/projects', { name: 'Shared', startDate: '2026-03-02' });
    expect(project.status).toBe(201);
    const projectId = (project.body.project as { id: string }).id;
    const created = await callApi(b.base, key, 'POST', `/api/projects/${projectId}/tasks`, { name: 'Shared task', durationMin: 60 });
    expect(created.status).toBe(201);
    const taskPath = `/api/projects/${projectId}/tasks/${(created.body.tasks as { id: string }[])[0]?.id}`;

    for (let write = 3; write <= 60; write += 1) {
      const [writer, reader] = write % 2 === 0 ? [a, b] : [b, a];
      const patched = await callApi(writer.base, key, 'PATCH', taskPath, { notes: `write ${write}` });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect(patched.headers.get('x-ratelimit-remaining')).toBe(String(60 - write));
      if (write % 10 === 0) {
        // The other node's caches never answer with what it held before this write.
        const read = await callApi(reader.base, key, 'GET', taskPath);
        expect((read.body.task as { notes: string }).notes).toBe(`write ${write}`);
      }
    }
    for (const node of [a, b]) {
      const refused = await callApi(node.base, key, 'PATCH', taskPath, { notes: 'one too many' });
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(((await callApi(b.base, key, 'GET', taskPath)).body.task as { notes: string }).notes).toBe('write 60');
  }, 120_000);

  it('two workers share the deliveries of writes sent to both nodes: every event exactly once', async () => {
    const nodes = await startCluster(generous);
    const key = await nodes.writeKey('workers@example.com');
    const [a, b] = [await nodes.startNode(), await nodes.startNode()] as [ApiNode, ApiNode];
    nodes.startWorker();
    nodes.startWorker();
    const receiver = await startReceiver();
    try {
      const projectId = ((await callApi(a.base, key, 'POST', '/api/projects', { name: 'Deliveries', startDate: '2026-03-02' })).body.project as { id: string }).id;
      expect((await callApi(b.base, key, 'POST', '/api/webhooks', { url: receiver.url, events: ['*'], projectId })).status).toBe(201);
      const writes = await Promise.all(
        Array.from({ length: 40 }, (_, i) => callApi((i % 2 === 0 ? a : b).base, key, 'POST', `/api/projects/${projectId}/tasks`, { name: `Task ${i}`, durationMin: 60 * (1 + (i % 3)) })),
      );
      for (const write of writes) expect(write.status).toBe(201);
      await until(() => receiver.of('task.created').length >= 40, 60_000);
      // Let any second sending of an attempt arrive before counting.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(new Set(receiver.of('task.created').map((event) => event.data.task.id)).size).toBe(40);
      expect([...receiptsById(receiver.calls).values()].every((count) => count === 1)).toBe(true);
    } finally {
      await receiver.close();
    }
  }, 120_000);

  it('a receiver that never answers holds up no other: its attempts time out and are retried on schedule, each sent once', async () => {
    const nodes = await startCluster({ ...generous, GANTRY_WEBHOOK_RETRY_DELAYS: '0,1' });
    const key = await nodes.writeKey('hanging@example.com');
    const node = await nodes.startNode();
    // One worker: its own rounds must not wait for one another.
    nodes.startWorker();
    const hangingCalls: string[] = [];
    const hanging = http.createServer((request) => {
      hangingCalls.push(String(request.headers['service-event-id']));
      request.resume(); // and never answer
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const fast = await startReceiver();
    try {
      const projectId = ((await callApi(node.base, key, 'POST', '/api/projects', { name: 'Hanging', startDate: '2026-03-02' })).body.project as { id: string }).id;
      const hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hooks`;
      for (const url of [hangingUrl, fast.url]) expect((await callApi(node.base, key, 'POST', '/api/webhooks', { url, events: ['task.created'], projectId })).status).toBe(201);
      const started = Date.now();
      for (let i = 0; i < 5; i += 1) expect((await callApi(node.base, key, 'POST', `/api/projects/${projectId}/tasks`, { name: `Task ${i}`, durationMin: 60 })).status).toBe(201);
      await until(() => fast.of('task.created').length >= 5, 20_000);
      // Well before the 10 s send timeout of the hanging receiver's attempts.
      expect(Date.now() - started).toBeLessThan(8_000);
      // Two attempts each (now, then 1 s after the first timed out), never more: no worker sends a claimed attempt again.
      await until(() => hangingCalls.length >= 10, 40_000);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(hangingCalls).toHaveLength(10);
      expect(new Set(hangingCalls).size).toBe(5);
    } finally {
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
      await fast.close();
    }
  }, 120_000);

  it('kill -9 of an API node and of a worker under load: retried writes land once, every event is delivered, a new node serves', async () => {
    const nodes = await startCluster({ ...generous, GANTRY_WEBHOOK_LEASE_SEC: '3' });
    const key = await nodes.writeKey('faults@example.com');
    const [a, b] = [await nodes.startNode(), await nodes.startNode()] as [ApiNode, ApiNode];
    const doomedWorker = nodes.startWorker();
    nodes.startWorker();
    const receiver = await startReceiver({ delayMs: 50 });
    try {
      const projectId = ((await callApi(a.base, key, 'POST', '/api/projects', { name: 'Faults', startDate: '2026-03-02' })).body.project as { id: string }).id;
      expect((await callApi(a.base, key, 'POST', '/api/webhooks', { url: receiver.url, events: ['task.created'], projectId })).status).toBe(201);

      // A client as integrators write one: an Idempotency-Key per task, and on a lost
      // connection the same request again, to the other node.
      const statuses: number[] = [];
      const create = async (i: number): Promise<ApiAnswer> => {
        const request = [`/api/projects/${projectId}/tasks`, { name: `Task ${i}`, durationMin: 60 }, { 'idempotency-key': `task-${i}` }] as const;
        for (let attempt = 0; ; attempt += 1) {
          const node = attempt === 0 && i % 2 === 0 ? a : b;
          try {
            const answer = await callApi(node.base, key, 'POST', ...request);
            statuses.push(answer.status);
            if (answer.status < 500) return answer;
          } catch {
            // The node is gone: try the other one.
          }
          if (attempt > 20) throw new Error(`task ${i} could not be written`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      const load = Promise.all(Array.from({ length: 60 }, (_, i) => new Promise((resolve) => setTimeout(resolve, i * 15)).then(() => create(i))));
      await until(() => statuses.length >= 15 && receiver.calls.length >= 3, 30_000);
      a.child.kill('SIGKILL');
      doomedWorker.child.kill('SIGKILL');
      const answers = await load;

      expect(statuses.every((status) => status < 500)).toBe(true);
      for (const answer of answers) expect(answer.status).toBe(201);
      const tasks = (await callApi(b.base, key, 'GET', `/api/projects/${projectId}/tasks?limit=200`)).body.tasks as { name: string }[];
      expect(tasks.map((task) => task.name).sort()).toEqual(Array.from({ length: 60 }, (_, i) => `Task ${i}`).sort());
      // At least once: the killed worker's claimed deliveries are sent again when their lease runs out.
      await until(() => new Set(receiver.of('task.created').map((event) => event.data.task.id)).size >= 60, 60_000);

      const replacement = await nodes.startNode();
      const plan = await callApi(replacement.base, key, 'GET', `/api/projects/${projectId}`);
      expect((plan.body.tasks as unknown[]).length).toBe(60);
    } finally {
      await receiver.close();
    }
  }, 180_000);
});
