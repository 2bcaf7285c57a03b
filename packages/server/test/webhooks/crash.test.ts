import { execFile, spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestStoreEnv, type TestStoreEnv } from '../support/test-store.js';

const run = promisify(execFile);
const gantryBin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/gantry.js');
const { BASE_URL: _viteBaseUrl, ...inheritedEnv } = process.env;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A receiver that answers after `delayMs` and records every call's event and delivery ids. */
async function slowReceiver(delayMs: number) {
  const calls: { eventId: string; deliveryId: string }[] = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      calls.push({ eventId: String(request.headers['service-event-id']), deliveryId: String(request.headers['service-delivery']) });
      setTimeout(() => response.writeHead(200).end('ok'), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hooks`, calls, close: () => new Promise<void>((r) => server.close(() => r())) };
}

// Spec § Delivery rules 5: at least once. Kill the server with deliveries pending and
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
      ...inheritedEnv,
      ...storeEnv.env,
      LOG_LEVEL: 'warn',
      GANTRY_WEBHOOK_ALLOW_PRIVATE: '1',
      GANTRY_WEBHOOK_LEASE_SEC: '2',
      GANTRY_WEBHOOK_RETRY_DELAYS: '0,1,1,1,1,1',
      GANTRY_RATE_LIMIT_WRITES: '100000',
    };
    const cli = async (...args: string[]) => JSON.parse((await run(process.execPath, [gantryBin, ...args, '--json'], { env })).stdout) as Record<string, unknown>;
    await cli('user', 'create', '--email', 'crash@example.com');
    const { key } = (await cli('key', 'create', '--email', 'crash@example.com', '--scope', 'write')) as unknown as { key: string };
    const start = async (command: 'serve' | 'worker', port?: number) => {
      const child = spawn(process.execPath, [gantryBin, command], { env: { ...env, PORT: String(port ?? 0) }, stdio: 'ignore' });
      children.push(child);
      if (port) await until(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.ok === true, 15_000);
      return child;
    };
    return { key, start };
  }

  it('delivers every event after SIGKILL and restart (at least once)', async () => {
    const receiver = await slowReceiver(200);
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
      const deliveredBeforeRestart = new Set(receiver.calls.map((c) => c.eventId)).size;
      expect(deliveredBeforeRestart).toBeLessThan(25);

      await start('serve', port);
      await until(() => new Set(receiver.calls.map((c) => c.eventId)).size >= 25, 30_000);
      expect(new Set(receiver.calls.map((c) => c.eventId)).size).toBe(25);
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it.skipIf(!onPostgres)('shares work between two workers without sending an attempt twice (PostgreSQL)', async () => {
    const receiver = await slowReceiver(5);
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
      const deliveries = receiver.calls.map((c) => c.deliveryId);
      expect(new Set(deliveries).size).toBe(300);
      expect(deliveries).toHaveLength(300);
    } finally {
      await receiver.close();
    }
  }, 60_000);
});
