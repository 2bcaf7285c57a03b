import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldPaths, newTask, planningClient, type PlanningClient } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

interface Forecast {
  runs: number;
  seed: number;
  uncertainTaskCount: number;
  finishAt: string;
  p50FinishAt: string;
  p80FinishAt: string;
  p95FinishAt: string;
}

// docs/api.md › Forecasts (issue 15, item 6: PERT Monte Carlo P50/P80).
describe('GET /api/projects/{id}/forecast', () => {
  let server: TestServer;
  let client: PlanningClient;
  let stranger: Awaited<ReturnType<typeof provisionUser>>;

  beforeAll(async () => {
    server = await startTestServer();
    client = planningClient(server, (await provisionUser(server, 'planner@example.com')).key);
    stranger = await provisionUser(server, 'stranger@example.com', ['--scope', 'read']);
  });
  afterAll(() => server.close());

  const forecast = (projectId: string, query: string, key?: string) =>
    key ? server.request<{ forecast: Forecast }>('GET', `/api/projects/${projectId}/forecast?${query}`, { key }) : client.req<{ forecast: Forecast }>('GET', `/api/projects/${projectId}/forecast?${query}`);

  it('gives P50, P80 and P95 finishes between the optimistic and the pessimistic plan, the same for the same seed, and saves nothing', async () => {
    const project = await client.createProject({ name: 'Uncertain', key: 'UNC' });
    // Design: 2 days planned, 1 to 6; then Build, 1 day, certain. Starts Monday 2 March 2026.
    const design = await newTask(client, project.id, { name: 'Design', durationMin: 960, durationOptimisticMin: 480, durationPessimisticMin: 2880 });
    const build = await newTask(client, project.id, { name: 'Build', durationMin: 480 });
    await client.link(project.id, { predecessorId: design.id, successorId: build.id });
    const before = (await client.fullProject(project.id)).body;

    const answer = await forecast(project.id, 'runs=400&seed=3');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { forecast: f } = answer.body;
    expect(f).toMatchObject({ runs: 400, seed: 3, uncertainTaskCount: 1, finishAt: '2026-03-04T17:00:00.000Z' });
    // Optimistic: Design Monday, Build Tuesday; pessimistic: Design to Monday 9, Build Tuesday 10.
    expect(f.p50FinishAt >= '2026-03-03T17:00:00.000Z').toBe(true);
    expect(f.p50FinishAt <= f.p80FinishAt && f.p80FinishAt <= f.p95FinishAt).toBe(true);
    expect(f.p95FinishAt <= '2026-03-10T17:00:00.000Z').toBe(true);
    // The PERT mean (1 + 4·2 + 6) / 6 = 2.5 days: the median plan runs past the planned finish.
    expect(f.p80FinishAt > f.finishAt).toBe(true);
    expect((await forecast(project.id, 'runs=400&seed=3')).body).toEqual(answer.body);
    expect((await client.fullProject(project.id)).body).toEqual(before);
  });

  it('answers the plan as it is when nothing is uncertain, refuses bad queries and hides other people’s projects', async () => {
    const project = await client.createProject({ name: 'Certain', key: 'CER' });
    await newTask(client, project.id, { name: 'Only', durationMin: 480 });
    const certain = (await forecast(project.id, '')).body.forecast;
    expect(certain).toMatchObject({ runs: 1000, seed: 1, uncertainTaskCount: 0 });
    expect([certain.p50FinishAt, certain.p95FinishAt]).toEqual([certain.finishAt, certain.finishAt]);
    const bad = await client.req('GET', `/api/projects/${project.id}/forecast?runs=0&seed=-1`);
    expect(bad.status).toBe(400);
    expect(fieldPaths(bad.body).sort()).toEqual(['runs', 'seed']);
    expect((await forecast(project.id, '', stranger.key)).status).toBe(404);
  });
});
