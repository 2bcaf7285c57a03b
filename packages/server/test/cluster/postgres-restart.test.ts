import { afterAll, describe, expect, it } from 'vitest';
import { callApi, canRunPrivatePostgres, startPrivatePostgres, TestCluster, until } from '../support/cluster.js';
import { startReceiver } from '../support/receiver.js';

// A restart of PostgreSQL (an upgrade, a failover) under load. The server runs on a
// PostgreSQL of this test's own, so restarting it disturbs no other test.
describe.skipIf(!process.env.TEST_DATABASE_URL || !canRunPrivatePostgres)('PostgreSQL restarted under load', () => {
  let postgres: Awaited<ReturnType<typeof startPrivatePostgres>> | undefined;
  let cluster: TestCluster | undefined;

  afterAll(async () => {
    await cluster?.stop();
    await postgres?.stop();
  });

  it('answers 503 while the database is away, never 500; the process lives on, and every write and event lands once it is back', async () => {
    postgres = await startPrivatePostgres();
    cluster = new TestCluster({ DATABASE_URL: postgres.url, LOG_LEVEL: 'warn', HOST: '127.0.0.1', GANTRY_WEBHOOK_ALLOW_PRIVATE: '1', GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    const key = await cluster.writeKey('restart@example.com');
    // One node doing everything (`npm start` on PostgreSQL): its worker must survive the outage too.
    const node = await cluster.startNode({ GANTRY_SERVE_WORKER: '1' });
    const receiver = await startReceiver();
    try {
      const projectId = ((await callApi(node.base, key, 'POST', '/api/projects', { name: 'Restart', startDate: '2026-03-02' })).body.project as { id: string }).id;
      expect((await callApi(node.base, key, 'POST', '/api/webhooks', { url: receiver.url, events: ['task.created'], projectId })).status).toBe(201);

      const statuses: number[] = [];
      const healthDuringOutage: number[] = [];
      let restarted = false;
      const restart = postgres.restart().then(() => (restarted = true));
      // Writes one after another until the restart is over and five more have landed; each retried with its Idempotency-Key until it is answered.
      let written = 0;
      let afterRestart = 0;
      while (!restarted || afterRestart < 5) {
        const wasRestarted = restarted;
        for (;;) {
          const answer = await callApi(node.base, key, 'POST', `/api/projects/${projectId}/tasks`, { name: `Task ${written}`, durationMin: 60 }, { 'idempotency-key': `task-${written}` });
          statuses.push(answer.status);
          if (answer.status === 201) break;
          // On a failure, the server's error lines say which database error was not taken for an outage.
          expect(answer.status, `${JSON.stringify(answer.body)}\n${node.stdout().split('\n').filter((line) => line.includes('"level":50')).join('\n')}`).toBe(503);
          expect(answer.body.error).toBe('service_unavailable');
          expect(answer.headers.get('retry-after')).toBe('5');
          if (healthDuringOutage.length === 0) healthDuringOutage.push((await fetch(`${node.base}/healthz`)).status);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        written += 1;
        if (wasRestarted) afterRestart += 1;
      }
      await restart;

      expect(statuses).toContain(503);
      expect(statuses.every((status) => status === 201 || status === 503)).toBe(true);
      expect(healthDuringOutage).toEqual([503]);
      expect(node.child.exitCode).toBeNull();
      const tasks = (await callApi(node.base, key, 'GET', `/api/projects/${projectId}/tasks?limit=200`)).body.tasks as { name: string }[];
      expect(tasks.map((task) => task.name).sort()).toEqual(Array.from({ length: written }, (_, i) => `Task ${i}`).sort());
      await until(() => new Set(receiver.of('task.created').map((event) => event.data.task.id)).size >= written, 60_000);
    } finally {
      await receiver.close();
    }
  }, 180_000);
});
