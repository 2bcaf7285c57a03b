import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, runGantry, startGantry, until } from '../support/processes.js';
import { startReceiver } from '../support/receiver.js';
import { createTestStoreEnv, type TestStoreEnv } from '../support/test-store.js';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

// docs/api.md › Deliveries: at least once. Kill the server with deliveries pending and
// in flight, start it again: every event still reaches the receiver.
describe('webhook delivery survives a crash', () => {
  const children: ChildProcess[] = [];
  let storeEnv: TestStoreEnv | undefined;
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    await storeEnv?.drop();
  });

  async function setUp() {
    storeEnv = await createTestStoreEnv();
    const env = {
      ...storeEnv.env,
      LOG_LEVEL: 'warn',
      GANTRY_WEBHOOK_ALLOW_PRIVATE: '1',
      GANTRY_WEBHOOK_LEASE_SEC: '2',
      GANTRY_WEBHOOK_RETRY_DELAYS: '0,1,1,1,1,1',
      GANTRY_RATE_LIMIT_WRITES: '100000',
    };
    const cli = async (...args: string[]) => JSON.parse((await runGantry([...args, '--json'], env)).stdout) as Record<string, unknown>;
    await cli('user', 'create', '--email', 'crash@example.com');
    const { key } = (await cli('key', 'create', '--email', 'crash@example.com', '--scope', 'write')) as unknown as { key: string };
    const start = async (command: 'serve' | 'worker', port?: number) => {
      const { child } = startGantry(command, { ...env, PORT: String(port ?? 0) });
      children.push(child);
      if (port) await until(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.ok === true, 15_000);
      return child;
    };
    return { key, start };
  }

  it('delivers every event after SIGKILL and restart (at least once)', async () => {
    const receiver = await startReceiver({ delayMs: 200 });
    try {
      const { key, start } = await setUp();
      const port = await freePort();
      const first = await start('serve', port);
      const api = (method: string, pathname: string, body?: unknown) =>
        fetch(`http://127.0.0.1:${port}${pathname}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then((r) => r.json() as Promise<Record<string, unknown>>);
      const { project } = (await api('POST', '/api/projects', { name: 'Crash' })) as unknown as { project: { id: string } };
      await api('POST', '/api/webhooks', { url: receiver.url, events: ['task.created'], projectId: project.id });
      const taskIds: string[] = [];
      for (let i = 0; i < 25; i++) {
        const result = (await api('POST', `/api/projects/${project.id}/tasks`, { name: `Task ${i}` })) as unknown as { tasks: { id: string }[] };
        taskIds.push(result.tasks[0]?.id as string);
      }
      first.kill('SIGKILL');
      await new Promise((resolve) => first.once('exit', resolve));
      const deliveredBeforeRestart = new Set(receiver.calls.map((c) => c.body.id)).size;
      expect(deliveredBeforeRestart).toBeLessThan(25);

      await start('serve', port);
      await until(() => new Set(receiver.calls.map((c) => c.body.id)).size >= 25, 30_000);
      expect(new Set(receiver.calls.map((c) => c.body.id)).size).toBe(25);
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it.skipIf(!onPostgres)('shares work between two workers without sending an attempt twice (PostgreSQL)', async () => {
    const receiver = await startReceiver({ delayMs: 5 });
    try {
      const { key, start } = await setUp();
      const port = await freePort();
      await start('serve', port);
      await start('worker');
      await start('worker');
      const api = (method: string, pathname: string, body?: unknown) =>
        fetch(`http://127.0.0.1:${port}${pathname}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then((r) => r.json() as Promise<Record<string, unknown>>);
      const { project } = (await api('POST', '/api/projects', { name: 'Shared work' })) as unknown as { project: { id: string } };
      await api('POST', '/api/webhooks', { url: receiver.url, events: ['task.created'], projectId: project.id });
      await api('POST', `/api/projects/${project.id}/tasks`, { createTasks: Array.from({ length: 300 }, (_, i) => ({ name: `Task ${i}` })) });
      await until(() => receiver.calls.length >= 300, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const deliveries = receiver.calls.map((c) => c.headers['service-delivery']);
      expect(new Set(deliveries).size).toBe(300);
      expect(deliveries).toHaveLength(300);
    } finally {
      await receiver.close();
    }
  }, 60_000);
});
