import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { limits } from '@gantry/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTask, planningClient, type PlanningClient } from '../support/planning.js';
import { provisionUser, startTestServer, type ApiResponse, type TestServer } from '../support/test-server.js';
import { webAppDirectory } from '../../src/web-app/routes.js';

type ErrorBody = { error: string; message: string; details?: { fields?: { path: string; message: string }[]; fieldsOmitted?: number } };

function refused(response: ApiResponse<unknown>): ErrorBody {
  expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(400);
  const body = response.body as ErrorBody;
  expect(body.error).toBe('invalid_request');
  return body;
}

/** `{"<list>":[item,item,…]}` with `count` items, as text (building it as objects would cost the test more than the server). */
function bodyWithList(list: string, item: string, count: number): string {
  return `{"${list}":[${new Array<string>(count).fill(item).join(',')}]}`;
}

// docs/api.md › Requests and responses: input beyond what any field accepts is refused
// before any field is validated, so the work a request causes stays bounded.
describe('hostile input', () => {
  let server: TestServer;
  let client: PlanningClient;
  let key: string;

  beforeAll(async () => {
    // The neighbour test reads as fast as it can: the limiter must not be what it measures.
    server = await startTestServer({ GANTRY_RATE_LIMIT_READS: '1000000' });
    key = (await provisionUser(server, 'hostile@example.com')).key;
    client = planningClient(server, key);
  });
  afterAll(() => server.close());

  const post = (pathname: string, rawBody: string) => server.request('POST', pathname, { key, rawBody, headers: { 'content-type': 'application/json' } });

  it('refuses a change set with a list of more than 1,000 items without reading the items (a project that does not exist is enough)', async () => {
    const nowhere = `/api/projects/${randomUUID()}/tasks`;
    for (const [list, item, count] of [
      ['createTasks', '{}', 150_000],
      ['deleteDependencyIds', '""', 200_000],
      ['updateTasks', '{}', limits.changesPerChangeSet + 1],
    ] as const) {
      const body = refused(await post(nowhere, bodyWithList(list, item, count)));
      expect(body.details?.fields).toEqual([{ path: list, message: `has more than ${limits.changesPerChangeSet} items; at most ${limits.changesPerChangeSet} are accepted` }]);
    }
    // 1,000 items is the limit, not beyond it: the items are validated (and the project looked up).
    const atLimit = await post(nowhere, bodyWithList('deleteDependencyIds', `"${randomUUID()}"`, limits.changesPerChangeSet));
    expect(atLimit.status).toBe(404);
  });

  it('lists at most 100 field problems and counts the rest, so a 400 stays small', async () => {
    const project = await client.createProject({ name: 'Many problems' });
    const response = await server.request('POST', `/api/projects/${project.id}/tasks`, {
      key,
      body: { createTasks: Array.from({ length: 1000 }, () => ({ name: '', durationMin: -1, constraintKind: 'sometime' })) },
    });
    const body = refused(response);
    expect(body.details?.fields).toHaveLength(limits.errorFieldsMax);
    expect(body.details?.fieldsOmitted).toBeGreaterThan(1000);
    expect(body.message).toMatch(/; and \d+ more$/);
    expect(JSON.stringify(body).length).toBeLessThan(64 * 1024);
    expect((await client.fullProject(project.id)).body.tasks).toEqual([]);
  });

  it('refuses nesting deeper than 32 levels and more than 100,000 values before parsing', async () => {
    const deep = `{"name":"x","notes":${'['.repeat(40)}${']'.repeat(40)}}`;
    expect(refused(await post('/api/projects', deep)).details?.fields?.[0]?.message).toMatch(/more than 32 levels deep/);
    const wide = `{"name":"x","settings":{${Array.from({ length: 60_000 }, (_, k) => `"k${k}":[0,0]`).join(',')}}}`;
    expect(refused(await post('/api/projects', wide)).details?.fields).toEqual([{ path: 'body', message: `holds more than ${limits.requestValuesMax} values in all` }]);
  });

  it('refuses strings that are not well-formed Unicode, naming the field, and saves nothing', async () => {
    const project = await client.createProject({ name: 'Surrogates' });
    const task = await newTask(client, project.id, { name: 'Kept' });
    for (const name of ['\ud800', 'a\udc00b', 'x\ud83d']) {
      const body = refused(await client.patchTask(project.id, task.id, { name, externalId: 'EXT-1' }));
      expect(body.details?.fields).toEqual([{ path: 'name', message: 'must be well-formed Unicode (it holds a lone UTF-16 surrogate)' }]);
    }
    // A whole pair is a character like any other.
    expect((await client.patchTask(project.id, task.id, { name: 'Rocket \ud83d\ude80' })).status).toBe(200);
    const stored = (await client.getTask(project.id, task.id)).body.task;
    expect(stored.name).toBe('Rocket 🚀');
    expect(stored.externalId).toBeNull();
  });

  it('refuses a string longer than any field takes', async () => {
    const body = refused(await server.request('POST', '/api/projects', { key, body: { name: 'Long', description: 'x'.repeat(limits.descriptionMaxLength + 1) } }));
    expect(body.details?.fields).toEqual([{ path: 'description', message: `is longer than ${limits.descriptionMaxLength} characters` }]);
  });

  it('refuses a body that is not a JSON object on every route that takes one — null included — and saves nothing', async () => {
    const project = await client.createProject({ name: 'Null bodies' });
    const task = await newTask(client, project.id, { name: 'Task' });
    const routes = [
      ['PATCH', `/api/projects/${project.id}`],
      ['PATCH', `/api/projects/${project.id}/tasks/${task.id}`],
      ['POST', `/api/projects/${project.id}/baseline`],
      ['POST', `/api/projects/${project.id}/tasks`],
      ['POST', '/api/projects'],
    ] as const;
    for (const [method, pathname] of routes) {
      for (const rawBody of ['null', '42', '"x"', '[]', 'true']) {
        const body = refused(await server.request(method, pathname, { key, rawBody, headers: { 'content-type': 'application/json' } }));
        expect(body.details?.fields, `${method} ${pathname} ${rawBody}`).toEqual([{ path: 'body', message: 'must be a JSON object' }]);
      }
    }
    expect((await client.fullProject(project.id)).body.baselines).toEqual([]);
    // No body at all still means "no fields": a baseline can be saved with none.
    expect((await server.request('POST', `/api/projects/${project.id}/baseline`, { key })).status).toBe(201);
  });

  // The issue this answers: a million-item array held the event loop for over 10 s, so
  // every other user waited. The refusal must come fast, and other clients' reads must
  // not notice it beyond a few milliseconds.
  it('answers a request with a 1M-item array in well under a second while another client keeps reading', async () => {
    const project = await client.createProject({ name: 'Neighbour' });
    await newTask(client, project.id, { name: 'Read me' });
    const read = async () => {
      const started = performance.now();
      const response = await fetch(`${server.url}/api/projects/${project.id}/tasks`, { headers: { authorization: `Bearer ${key}` } });
      await response.arrayBuffer();
      expect(response.status).toBe(200);
      return performance.now() - started;
    };
    const readsFor = async (while_: () => boolean) => {
      const latencies: number[] = [];
      while (while_()) latencies.push(await read());
      return latencies;
    };
    for (let k = 0; k < 20; k++) await read();
    const quiet = await readsFor(((until) => () => performance.now() < until)(performance.now() + 500));

    const huge = bodyWithList('createTasks', '{}', 1_000_000);
    let attacking = true;
    const started = performance.now();
    const [attack, during] = await Promise.all([
      post(`/api/projects/${project.id}/tasks`, huge).finally(() => (attacking = false)),
      readsFor(() => attacking),
    ]);
    const attackMs = performance.now() - started;
    expect(refused(attack).details?.fields?.[0]?.path).toBe('createTasks');

    const median = [...quiet].sort((a, b) => a - b)[Math.floor(quiet.length / 2)]!;
    const worst = Math.max(...during);
    const ratio = worst / median;
    console.log(`1M-item body refused in ${attackMs.toFixed(0)} ms; reads meanwhile: worst ${worst.toFixed(1)} ms, ${ratio.toFixed(1)}× the quiet median (${median.toFixed(1)} ms)`);
    expect(attackMs).toBeLessThan(1000);
    expect(during.length).toBeGreaterThan(0);
    // Before the fix the other client waited over 10 s (thousands of times its median).
    expect(ratio).toBeLessThan(100);
  });

  // docs/operations.md › Security headers: no response lets a browser guess its type (a JSON error or
  // an uploaded-looking asset run as a script), whichever part of the server answers it.
  it('sends X-Content-Type-Options: nosniff with every response: API, errors, web app, assets, OAuth, MCP', async () => {
    const asset = readdirSync(path.join(webAppDirectory(), 'assets')).find((name) => name.endsWith('.js'));
    expect(asset).toBeDefined();
    const requests: [string, string, RequestInit?][] = [
      ['API', '/api/projects', { headers: { authorization: `Bearer ${key}` } }],
      ['API error', '/api/projects', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"name":' }],
      ['API 401', '/api/projects'],
      ['404', '/nothing-here'],
      ['bad URL', '/api/projects/%E0%A4%A'],
      ['headers too large', '/api/projects', { headers: { 'x-filler': 'x'.repeat(20_000) } }],
      ['health', '/healthz'],
      ['OpenAPI', '/api/openapi.json'],
      ['web app page', '/'],
      ['hashed asset', `/assets/${asset}`],
      ['missing asset', '/assets/missing-0000.js'],
      ['OAuth metadata', '/.well-known/oauth-authorization-server'],
      ['OAuth error', '/api/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=nonsense' }],
      ['OAuth page', '/oauth/interaction/unknown'],
      ['MCP', '/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }],
    ];
    for (const [what, pathname, init] of requests) {
      const response = await fetch(`${server.url}${pathname}`, { redirect: 'manual', ...init });
      await response.arrayBuffer();
      expect(response.headers.get('x-content-type-options'), `${what}: ${response.status}`).toBe('nosniff');
    }
  });

  // docs/operations.md › Health, readiness and metrics: closed unless the operator opens it.
  it('serves no /metrics when GANTRY_METRICS_TOKEN is not set (404), whatever the request carries', async () => {
    for (const headers of [{}, { authorization: `Bearer ${key}` }, { authorization: 'Bearer ' }] as Record<string, string>[]) {
      const response = await server.request('GET', '/metrics', { headers });
      expect(response.status, JSON.stringify(headers)).toBe(404);
      expect(response.body).toMatchObject({ error: 'not_found' });
    }
  });

  // docs/api.md › Limits: dates a client sends are in the years 1900-2199, and a write whose
  // schedule would leave the span the engine computes exactly (1600-2399) is refused, so no
  // accepted plan ever holds a clamped date.
  describe('the schedule horizon', () => {
    it('refuses dates outside the years 1900-2199 as field errors', async () => {
      const far = refused(await server.request('POST', '/api/projects', { key, body: { name: 'Far', startDate: '2999-12-31' } }));
      expect(far.details?.fields).toEqual([{ path: 'startDate', message: 'must be in the years 1900-2199' }]);
      const project = await client.createProject({ name: 'Constraint far' });
      const task = await newTask(client, project.id, { name: 'T' });
      const constraint = refused(await client.patchTask(project.id, task.id, { constraintKind: 'must_start_on', constraintDate: '2200-01-05T08:00:00Z' }));
      expect(constraint.details?.fields?.map((field) => field.path)).toEqual(['constraintDate']);
    });

    it('computes the longest task from the last accepted start exactly, and reads and listings agree', async () => {
      const project = await client.createProject({ name: 'Last start', startDate: '2199-12-31' });
      const created = await client.createTask(project.id, { name: 'Very long', durationMin: 10_000_000 });
      expect(created.status).toBe(201);
      const task = created.body.tasks[0]!;
      expect(task.finishAt! > '2270').toBe(true);
      expect(task.finishAt! < '2400').toBe(true);
      expect(created.body.projectFinishAt).toBe(task.finishAt);
      expect((await client.getTask(project.id, task.id)).body.task.finishAt).toBe(task.finishAt);
      const listed = await server.request<{ projects: { id: string; finishAt: string }[] }>('GET', '/api/projects', { key });
      expect(listed.body.projects.find((p) => p.id === project.id)?.finishAt).toBe(task.finishAt);
    });

    it('refuses a write whose schedule would end after 2399, and keeps the plan as it was', async () => {
      const project = await client.createProject({ name: 'Chain', startDate: '2199-12-31' });
      const ids = [randomUUID(), randomUUID(), randomUUID()];
      const chain = { createTasks: ids.map((id) => ({ id, name: 'Long', durationMin: 10_000_000 })), createDependencies: [{ predecessorId: ids[0], successorId: ids[1] }, { predecessorId: ids[1], successorId: ids[2] }] };
      const body = refused(await client.changeSet(project.id, chain));
      expect(body.details?.fields).toEqual([{ path: 'body', message: 'the schedule would leave the years 1600-2399, where dates are computed exactly; shorten durations, lags or constraint dates' }]);
      expect((await client.fullProject(project.id)).body.tasks).toEqual([]);
    });
  });
});
