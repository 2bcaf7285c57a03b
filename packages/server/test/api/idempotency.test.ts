import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, planningClient, type PlanningClient, type User } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

// Contract routes.createTasks ("Send an Idempotency-Key header to make retries safe");
// server domain/operation.ts `perform` (Stripe-style: same key + same request replays the stored answer).
describe('idempotency', () => {
  let server: TestServer;
  let owner: User;
  let client: PlanningClient;
  let projectId: string;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    owner = await provisionUser(server, 'retry@example.com');
    client = planningClient(server, owner.key);
    projectId = (await client.createProject({ name: 'Retries', key: 'RTY' })).id;
  });
  afterAll(() => server.close());

  async function taskCount(): Promise<number> {
    return (await client.fullProject(projectId)).body.tasks.length;
  }

  it('the same key and body twice: same answer, replay header, one task', async () => {
    const before = await taskCount();
    const headers = { 'idempotency-key': 'create-1' };
    const first = await client.createTask(projectId, { name: 'Once' }, headers);
    expectStatus(first, 201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const second = await client.createTask(projectId, { name: 'Once' }, headers);
    expectStatus(second, 201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await taskCount()).toBe(before + 1);
  });

  it('works for change sets (200 replayed as 200)', async () => {
    const before = await taskCount();
    const body = { createTasks: [{ name: 'S1' }, { name: 'S2' }] };
    const first = await client.req('POST', `/api/projects/${projectId}/tasks`, body, { 'idempotency-key': 'set-1' });
    expectStatus(first, 200);
    const second = await client.req('POST', `/api/projects/${projectId}/tasks`, body, { 'idempotency-key': 'set-1' });
    expectStatus(second, 200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await taskCount()).toBe(before + 2);
  });

  it('the same key with a different body is 409 conflict and creates nothing', async () => {
    const headers = { 'idempotency-key': 'create-2' };
    expectStatus(await client.createTask(projectId, { name: 'Original' }, headers), 201);
    const before = await taskCount();
    const other = await client.createTask(projectId, { name: 'Different' }, headers);
    expectStatus(other, 409);
    expect(other.body.error).toBe('conflict');
    expect(await taskCount()).toBe(before);
  });

  it('a failed request (400) does not burn the key: a corrected retry runs', async () => {
    const headers = { 'idempotency-key': 'create-3' };
    const bad = await client.createTask(projectId, { name: 'Fixed later', constraintKind: 'must_start_on' }, headers);
    expectStatus(bad, 400);
    const badAgain = await client.createTask(projectId, { name: 'Fixed later', durationMin: -1 }, headers);
    expectStatus(badAgain, 400);
    const before = await taskCount();
    const good = await client.createTask(projectId, { name: 'Fixed later' }, headers);
    expectStatus(good, 201);
    expect(good.headers.get('idempotent-replayed')).toBeNull();
    expect(await taskCount()).toBe(before + 1);
  });

  it('keys are per user: another user with the same key runs its own request', async () => {
    const other = await provisionUser(server, 'other-retry@example.com');
    const otherClient = planningClient(server, other.key);
    const otherProject = await otherClient.createProject({ name: 'Theirs', key: 'THR' });
    const headers = { 'idempotency-key': 'shared-key' };
    expectStatus(await client.createTask(projectId, { name: 'Mine' }, headers), 201);
    const theirs = await otherClient.createTask(otherProject.id, { name: 'Mine' }, headers);
    expectStatus(theirs, 201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  });

  it('parallel requests with one key create one task: the others wait for it and replay its answer', async () => {
    const before = await taskCount();
    const headers = { 'idempotency-key': 'parallel-1' };
    const responses = await Promise.all(Array.from({ length: 5 }, () => client.createTask(projectId, { name: 'Parallel' }, headers)));
    for (const response of responses) expectStatus(response, 201);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    for (const response of responses) expect(response.body).toEqual(responses[0]?.body);
    expect(await taskCount()).toBe(before + 1);
  });

  it('a key is remembered 24 hours; after that the same key runs a new request', async () => {
    const headers = { 'idempotency-key': 'expiring' };
    expectStatus(await client.createTask(projectId, { name: 'Day one' }, headers), 201);
    server.clock.advance(23 * 60 * 60 * 1000);
    expectStatus(await client.createTask(projectId, { name: 'Day two' }, headers), 409);
    server.clock.advance(2 * 60 * 60 * 1000);
    const before = await taskCount();
    const later = await client.createTask(projectId, { name: 'Day two' }, headers);
    expectStatus(later, 201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(await taskCount()).toBe(before + 1);
  });

  it('an over-long key is 400 on the header', async () => {
    const response = await client.createTask(projectId, { name: 'Long key' }, { 'idempotency-key': 'k'.repeat(256) });
    expectStatus(response, 400);
    expect(response.body.details?.fields?.map((f) => f.path)).toEqual(['headers.idempotency-key']);
  });
});

