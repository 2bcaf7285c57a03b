import fs from 'node:fs';
import type { FullProject, WriteResult } from '@gantry/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../src/store/migrations/index.js';
import { storedEvents } from '../support/event-check.js';
import { runGantry } from '../support/processes.js';
import { loadReleaseSnapshot, type ReleaseSnapshot } from '../support/release-snapshot.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createTestStoreEnv } from '../support/test-store.js';

// What the release at 7c5fbdd wrote (from-7c5fbdd/README.md): a plan with a summary whose
// subtasks have progress, and a task created with an Idempotency-Key.
const snapshot = JSON.parse(fs.readFileSync(new URL('./from-7c5fbdd/store.json', import.meta.url), 'utf8')) as ReleaseSnapshot & { key: string };
const projectId = snapshot.rows.projects![0]!.id as string;
const ids = { build: '11111111-1111-4111-8111-111111111111', design: '22222222-2222-4222-8222-222222222222', launch: '44444444-4444-4444-8444-444444444444' };
const storedKey = snapshot.rows.idempotency_keys![0]!;

describe('a store written by the release at 7c5fbdd, upgraded by gantry migrate', () => {
  let server: TestServer;
  let migrated: unknown;

  beforeAll(async () => {
    const storeEnv = await createTestStoreEnv();
    // The key was used an hour before the upgrade: well within the 24 hours keys are kept.
    await loadReleaseSnapshot(storeEnv, snapshot, async (db) => {
      await db.updateTable('idempotency_keys').set({ created_at: new Date(Date.now() - 60 * 60 * 1000).toISOString() }).execute();
    });
    const result = await runGantry(['migrate', '--json'], { ...storeEnv.env, LOG_LEVEL: 'silent' });
    expect(result.code, result.stderr).toBe(0);
    migrated = JSON.parse(result.stdout);
    server = await startTestServer({}, { storeEnv });
  });
  afterAll(() => server?.close());

  const planTasks = async () => (await server.request<FullProject>('GET', `/api/projects/${projectId}`, { key: snapshot.key })).body.tasks;

  it('applies the newer migrations and recomputes the one plan, once', async () => {
    expect(migrated).toEqual({ applied: Object.keys(migrations).filter((name) => !snapshot.migrations.includes(name)), recomputedProjects: 1 });
    expect((await server.cli('migrate', '--json')).json).toEqual({ applied: [], recomputedProjects: 0 });
  });

  it("has the summary's rolled-up actuals right after the upgrade, and announced nothing for them", async () => {
    const tasks = await planTasks();
    const summary = tasks.find((task) => task.id === ids.build)!;
    const design = tasks.find((task) => task.id === ids.design)!;
    const actual = Math.round((summary.durationMin * summary.progressPct) / 100);
    expect(actual).toBeGreaterThan(0);
    expect(summary).toMatchObject({ actualStartAt: design.actualStartAt, actualFinishAt: null, actualDurationMin: actual, remainingDurationMin: summary.durationMin - actual });
    expect(await storedEvents(server, projectId)).toHaveLength(snapshot.rows.events!.length);
  });

  it('replays the answer to an Idempotency-Key used before the upgrade: no 409, no second task', async () => {
    // The request as the release got it, its body's fields in the same order.
    const retry = (body: unknown) =>
      fetch(`${server.url}/api/projects/${projectId}/tasks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${snapshot.key}`, 'content-type': 'application/json', 'idempotency-key': storedKey.key as string },
        body: JSON.stringify(body),
      });
    const replayed = await retry({ name: 'Write copy', parentId: ids.build, durationMin: 480 });
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    // The stored answer as the release made it (not today's WriteResult shape: not checked against the OpenAPI document).
    expect(await replayed.json()).toEqual(JSON.parse(storedKey.response as string));
    expect((await retry({ name: 'Write other copy', parentId: ids.build, durationMin: 480 })).status).toBe(409);
    expect(await planTasks()).toHaveLength(snapshot.rows.tasks!.length);
  });

  it('the next write announces its own change only, none of what the upgrade derived', async () => {
    const before = (await storedEvents(server, projectId)).length;
    const renamed = await server.request<WriteResult>('PATCH', `/api/projects/${projectId}/tasks/${ids.launch}`, { key: snapshot.key, body: { name: 'Go live' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.stats.savedCount).toBe(1);
    const events = (await storedEvents(server, projectId)).slice(before).map((event) => {
      const data = JSON.parse(event.data) as { task: { id: string }; changes: Record<string, unknown> };
      return { type: event.type, taskId: data.task.id, changed: Object.keys(data.changes) };
    });
    expect(events).toEqual([{ type: 'task.updated', taskId: ids.launch, changed: ['name'] }]);
  });
});
