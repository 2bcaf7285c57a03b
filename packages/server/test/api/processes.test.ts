import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, freePort, runGantry, startGantry, until, waitForHealth, type GantryProcess } from '../support/processes.js';
import { startReceiver } from '../support/receiver.js';
import { createTestStoreEnv, type TestStoreEnv } from '../support/test-store.js';

/** Pino's level for error and above: a 500 or a failed background write logs one. */
const errorLevel = 50;

function loggedErrors(process: GantryProcess): string[] {
  return process
    .stdout()
    .split('\n')
    .filter((line) => line.trim() !== '' && (JSON.parse(line) as { level: number }).level >= errorLevel);
}

// docs/architecture.md: `gantry serve`, `gantry worker` and CLI commands share one store.
// Writing from all of them at once must never fail a request or a command: on SQLite a
// write transaction takes the write lock when it begins (BEGIN IMMEDIATE), so it waits
// for another process's commit instead of failing on a stale read snapshot.
describe('separate processes writing to one store at once', () => {
  let storeEnv: TestStoreEnv | undefined;
  const children: ChildProcess[] = [];

  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited(child);
      }
    }
    await storeEnv?.drop();
  });

  it('serve, worker and CLI commands at once: no 500, no failed command, every write and event lands', async () => {
    storeEnv = await createTestStoreEnv();
    const env = {
      ...storeEnv.env,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      GANTRY_WEBHOOK_ALLOW_PRIVATE: '1',
      GANTRY_RATE_LIMIT_WRITES: '100000',
      GANTRY_RATE_LIMIT_READS: '100000',
    };
    const owner = await runGantry(['user', 'create', '--email', 'owner@example.com', '--json'], env);
    expect(owner.code, owner.stderr).toBe(0);
    const created = await runGantry(['key', 'create', '--email', 'owner@example.com', '--scope', 'write', '--json'], env);
    const { key } = JSON.parse(created.stdout) as { key: string };

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const serve = startGantry('serve', { ...env, PORT: String(port) });
    const worker = startGantry('worker', env);
    children.push(serve.child, worker.child);
    await waitForHealth(base, serve.child);

    const api = async (method: string, pathname: string, body?: unknown) => {
      const response = await fetch(`${base}${pathname}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const receiver = await startReceiver();
    try {
      const project = (await api('POST', '/api/projects', { name: 'Busy', startDate: '2026-03-02' })).body.project as { id: string };
      expect((await api('POST', '/api/webhooks', { url: receiver.url, events: ['task.created', 'member.joined'], projectId: project.id })).status).toBe(201);

      const people = Array.from({ length: 6 }, (_, i) => `person${i}@example.com`);
      const commands = people.map(async (email) => [
        await runGantry(['user', 'create', '--email', email], env),
        await runGantry(['project', 'add-member', '--project', project.id, '--email', email, '--role', 'editor'], env),
        await runGantry(['key', 'create', '--email', email, '--scope', 'read'], env),
      ]);
      const writes = Array.from({ length: 30 }, (_, i) =>
        api('POST', `/api/projects/${project.id}/tasks`, { name: `Task ${i}`, durationMin: 60 }).then(async (response) =>
          response.status === 201 ? [response, await api('PATCH', `/api/projects/${project.id}/tasks/${(response.body.tasks as { id: string }[])[0]?.id}`, { notes: `n${i}` })] : [response],
        ),
      );
      const [commandResults, writeResults] = await Promise.all([Promise.all(commands), Promise.all(writes)]);

      for (const result of commandResults.flat()) expect(result.code, result.stderr).toBe(0);
      for (const response of writeResults.flat()) expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);

      const plan = (await api('GET', `/api/projects/${project.id}`)).body as { tasks: { notes: string | null }[] };
      expect(plan.tasks).toHaveLength(30);
      expect(plan.tasks.every((task) => task.notes?.startsWith('n'))).toBe(true);
      const members = (await api('GET', `/api/projects/${project.id}/members`)).body as { members: { email: string }[] };
      expect(members.members.map((m) => m.email)).toEqual(expect.arrayContaining(people));

      // The server's worker and the separate one share the deliveries: all 30 tasks reach the receiver.
      await until(() => new Set(receiver.calls.filter((c) => c.body.type === 'task.created').map((c) => c.body.id)).size >= 30, 30_000);
      expect(loggedErrors(serve)).toEqual([]);
      expect(loggedErrors(worker)).toEqual([]);
    } finally {
      await receiver.close();
    }
  }, 120_000);
});
