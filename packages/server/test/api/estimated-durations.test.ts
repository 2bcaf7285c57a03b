import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, fieldPaths, newTask, planningClient, scheduleDrift, type PlanningClient } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

// docs/api.md › Tasks (durationEstimated) and docs/scheduling.md rule 12: Microsoft Project
// marks a manually scheduled task critical at zero slack, unless it has no link and its
// duration is an estimate ("1 day?").
describe('estimated durations', () => {
  let server: TestServer;
  let client: PlanningClient;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    client = planningClient(server, (await provisionUser(server, 'estimates@example.com')).key);
  });
  afterAll(() => server.close());

  it('a manual task without links is critical unless its duration is an estimate; a new duration clears the estimate', async () => {
    const project = await client.createProject({ name: 'Estimates' });
    const real = await newTask(client, project.id, { name: 'Real', durationMin: 960 });
    const estimate = await newTask(client, project.id, { name: 'Estimate', durationMin: 480, durationEstimated: true });
    expect(estimate.durationEstimated).toBe(true);
    for (const task of [real, estimate]) expectStatus(await client.patchTask(project.id, task.id, { manuallyScheduled: true }), 200);
    const critical = async () => Object.fromEntries((await client.fullProject(project.id)).body.tasks.map((task) => [task.name, [task.isCritical, task.durationEstimated]]));
    expect(await critical()).toEqual({ Real: [true, false], Estimate: [false, true] });

    // As in Project, typing a duration makes it a real one: the task becomes critical.
    const edited = await client.patchTask(project.id, estimate.id, { durationMin: 960 });
    expectStatus(edited, 200);
    expect(await critical()).toEqual({ Real: [true, false], Estimate: [true, false] });
    expectStatus(await client.patchTask(project.id, estimate.id, { durationMin: 480, durationEstimated: true }), 200);
    expect(await critical()).toEqual({ Real: [true, false], Estimate: [false, true] });
    expect(await scheduleDrift(server, project.id)).toEqual([]);
  });

  it('refuses a value that is not a boolean, and changes nothing', async () => {
    const project = await client.createProject({ name: 'Estimates refused' });
    const task = await newTask(client, project.id, { name: 'A', durationMin: 480 });
    const refused = await client.patchTask(project.id, task.id, { durationEstimated: 'yes' });
    expectStatus(refused, 400);
    expect(fieldPaths(refused.body as never)).toEqual(['durationEstimated']);
    expect((await client.getTask(project.id, task.id)).body.task.durationEstimated).toBe(false);
  });
});
