import { randomUUID } from 'node:crypto';
import { routes, type RouteDef } from '@gantry/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTask, planningClient, scheduleDrift, type PlanningClient } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

// Property (issue "hostile input"): whatever body any write route receives — any JSON,
// fields of other routes, lone surrogates, deep nesting, long lists — the answer is a
// documented 2xx/4xx, small and quick; a refused request changes nothing; and the stored
// schedule always equals a full recomputation.

const knownErrors = new Set(['invalid_request', 'not_found', 'conflict', 'dependency_cycle', 'forbidden', 'limit_exceeded', 'payload_too_large']);
// The write routes an integration can call (the person's own session routes are tested with a session).
const writeRoutes = (Object.values(routes) as RouteDef[]).filter((route) => route.method !== 'GET' && route.credentials !== 'session');
// Every write route, the change-set route (the one that takes long lists) more often.
const writeRoute = fc.oneof(...writeRoutes.map((route) => ({ weight: route.operationId === 'createTasks' ? writeRoutes.length : 1, arbitrary: fc.constant(route) })));

/** Whether a body must be refused whatever its fields: not JSON, not an object, or holding a string that is not well-formed Unicode. */
function mustBeRefused(text: string): boolean {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return true;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return true;
  const illFormed = (value: unknown): boolean =>
    typeof value === 'string' ? !value.isWellFormed() : typeof value === 'object' && value !== null && Object.values(value).some(illFormed);
  return illFormed(body);
}

/** Field names of the write routes' bodies, so that bodies often reach past the first check. */
const fieldNames = [
  'name', 'type', 'durationMin', 'workMin', 'progressPct', 'constraintKind', 'constraintDate', 'deadline', 'notes', 'externalId',
  'parentId', 'placement', 'createTasks', 'updateTasks', 'createDependencies', 'deleteDependencyIds', 'deleteTaskIds', 'fullReschedule',
  'dependencies', 'predecessorId', 'successorId', 'lagMin', 'userIds', 'resourceIds', 'body', 'mentions', 'url', 'events', 'startDate',
  'key', 'scheduleFrom', 'description', 'id',
];
const oddString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('\ud800', 'a\udc00', '\u0000', '', ' ', 'x'.repeat(20_001), '2026-03-02', '2999-12-31T00:00:00Z', '00000000-0000-4000-8000-000000000000'),
);
const leaf = fc.oneof(fc.jsonValue({ maxDepth: 0 }), oddString, fc.constantFrom(1e308, -1, 0.5, 10_000_001, Number.MAX_SAFE_INTEGER));
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('list'), tie('object')),
  list: fc.array(tie('any'), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(fc.constantFrom(...fieldNames), fc.string({ maxLength: 6 })), tie('any'), { maxKeys: 5 }),
})).any;

/** A body as sent: a JSON text (objects mostly), or a few hostile texts built directly. */
const rawBody = fc.oneof(
  { weight: 12, arbitrary: fc.dictionary(fc.constantFrom(...fieldNames), value, { maxKeys: 6 }).map((body) => JSON.stringify(body)) },
  { weight: 3, arbitrary: value.map((body) => JSON.stringify(body) ?? 'null') },
  { weight: 1, arbitrary: fc.constantFrom('null', '[]', '"x"', '{"name":', `{"name":"x","notes":${'['.repeat(50)}${']'.repeat(50)}}`) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('createTasks', 'deleteDependencyIds', 'dependencies', 'userIds'), fc.integer({ min: 1001, max: 300_000 }))
      .map(([list, count]) => `{"${list}":[${new Array<string>(count).fill('{}').join(',')}]}`),
  },
);

describe('hostile bodies on every write route', () => {
  let server: TestServer;
  let client: PlanningClient;
  let key: string;
  let projectId: string;
  let taskIds: string[];

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_READS: '1000000', GANTRY_RATE_LIMIT_WRITES: '1000000' });
    key = (await provisionUser(server, 'fuzz@example.com')).key;
    client = planningClient(server, key);
    projectId = (await client.createProject({ name: 'Fuzzed' })).id;
    const a = await newTask(client, projectId, { name: 'A' });
    const b = await newTask(client, projectId, { name: 'B' });
    expect((await client.link(projectId, { predecessorId: a.id, successorId: b.id })).status).toBe(201);
    taskIds = [a.id, b.id];
  });
  afterAll(() => server.close());

  const fullProjectText = async () => (await fetch(`${server.url}/api/projects/${projectId}`, { headers: { authorization: `Bearer ${key}` } })).text();

  it('answers a small documented 2xx/4xx quickly, changes nothing when it refuses, and keeps the schedule consistent', async () => {
    const dependencyIds = async () => (await client.listDependencies(projectId)).body.dependencies.map((d) => d.id);
    await fc.assert(
      fc.asyncProperty(writeRoute, rawBody, fc.nat(), async (route, body, pick) => {
        const ids = { projectId, taskId: taskIds[pick % taskIds.length]!, dependencyId: (await dependencyIds())[0] ?? randomUUID(), webhookId: randomUUID(), deliveryId: randomUUID() };
        const pathname = route.path.replace(/\{(\w+)\}/g, (_, name: keyof typeof ids) => ids[name]);
        const before = await fullProjectText();
        const started = performance.now();
        const response = await fetch(`${server.url}${pathname}`, { method: route.method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
        const text = await response.text();
        const elapsed = performance.now() - started;
        const context = `${route.method} ${pathname} ${body.slice(0, 200)} → ${response.status} ${text.slice(0, 300)}`;
        expect(response.status, context).toBeLessThan(500);
        expect(text.length, context).toBeLessThan(64 * 1024);
        expect(elapsed, context).toBeLessThan(3000);
        if (route.body && mustBeRefused(body)) expect(response.status, context).toBeGreaterThanOrEqual(400);
        if (response.status >= 400) {
          expect(knownErrors.has((JSON.parse(text) as { error: string }).error), context).toBe(true);
          expect(await fullProjectText(), context).toBe(before);
        }
      }),
      { numRuns: Number(process.env.HOSTILE_FUZZ_RUNS ?? 150) },
    );
    expect(await scheduleDrift(server, projectId)).toEqual([]);
  });
});
