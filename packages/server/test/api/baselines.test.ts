import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, newTask, planningClient, type PlanningClient, type User } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

// docs/api.md › Baselines (list and save, automatic at the first progress) and › Events
// (baseline.saved); contract BaselineCreate.
describe('baselines', () => {
  let server: TestServer;
  let owner: User;
  let client: PlanningClient;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    owner = await provisionUser(server, 'baseline@example.com');
    client = planningClient(server, owner.key);
  });
  afterAll(() => server.close());

  it('without a name saves the main baseline, overwritten in place on the next save', async () => {
    const project = await client.createProject({ name: 'Main', key: 'MAN' });
    const a = await newTask(client, project.id, { name: 'A', durationMin: 480 });
    expectStatus(await client.listBaselines(project.id), 200);
    expect((await client.listBaselines(project.id)).body.baselines).toEqual([]);

    const first = await client.saveBaseline(project.id);
    expectStatus(first, 201);
    expect(first.body.baseline).toMatchObject({ index: null, taskCount: 1, capturedBy: owner.userId });
    await newTask(client, project.id, { name: 'B' });
    expectStatus(await client.patchTask(project.id, a.id, { durationMin: 960 }), 200);
    server.clock.advance(5000);
    const second = await client.saveBaseline(project.id, {});
    expectStatus(second, 201);
    expect(second.body.baseline.id).toBe(first.body.baseline.id);
    expect(second.body.baseline.taskCount).toBe(2);
    const list = await client.listBaselines(project.id);
    expect(list.body.baselines).toHaveLength(1);
    expect(list.body.baselines[0]).toMatchObject({ id: first.body.baseline.id, taskCount: 2 });

    // The full project carries the baseline with the task values captured.
    const full = await client.fullProject(project.id);
    const main = full.body.baselines.find((b) => b.id === first.body.baseline.id);
    expect(main?.tasks).toHaveLength(2);
    expect(main?.tasks.find((t) => t.taskId === a.id)).toMatchObject({ durationMin: 960, startAt: '2026-03-02T08:00:00.000Z', finishAt: '2026-03-03T17:00:00.000Z' });
  });

  it('a name saves a named baseline next to the main one; the same name overwrites it', async () => {
    const project = await client.createProject({ name: 'Named', key: 'NMD' });
    const a = await newTask(client, project.id, { name: 'A', durationMin: 480 });
    const main = await client.saveBaseline(project.id);
    const approved = await client.saveBaseline(project.id, { name: 'Approved' });
    expectStatus(approved, 201);
    expect(approved.body.baseline).toMatchObject({ name: 'Approved', index: null, taskCount: 1 });
    expect(approved.body.baseline.id).not.toBe(main.body.baseline.id);
    const other = await client.saveBaseline(project.id, { name: 'Other' });
    expect(other.body.baseline.id).not.toBe(approved.body.baseline.id);
    expectStatus(await client.patchTask(project.id, a.id, { durationMin: 240 }), 200);
    const again = await client.saveBaseline(project.id, { name: 'Approved' });
    expect(again.body.baseline.id).toBe(approved.body.baseline.id);
    const list = await client.listBaselines(project.id);
    expect(list.body.baselines).toHaveLength(3);
    expect(list.body.baselines.every((b) => b.taskCount === 1)).toBe(true);
    const full = await client.fullProject(project.id);
    expect(full.body.baselines.find((b) => b.name === 'Approved')?.tasks[0]?.durationMin).toBe(240);
    expect(full.body.baselines.find((b) => b.id === main.body.baseline.id)?.tasks[0]?.durationMin).toBe(480);
    expectStatus(await client.saveBaseline(project.id, { name: '  ' }), 400);
  });

  it('is captured automatically at the first progress, with the values from before it', async () => {
    const project = await client.createProject({ name: 'Auto', key: 'AUT' });
    const a = await newTask(client, project.id, { name: 'A', durationMin: 480 });
    expectStatus(await client.patchTask(project.id, a.id, { progressPct: 25 }), 200);
    const list = await client.listBaselines(project.id);
    expect(list.body.baselines).toHaveLength(1);
    expect(list.body.baselines[0]).toMatchObject({ index: null, taskCount: 1 });
    // A later manual save without a name overwrites that main baseline, not a second one.
    expectStatus(await client.saveBaseline(project.id), 201);
    expect((await client.listBaselines(project.id)).body.baselines).toHaveLength(1);
  });
});
