import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedEvents } from '../support/event-check.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

type PlanTask = { id: string; startAt: string; finishAt: string };

// PATCH /api/projects/{id} (contract ProjectPatchResult): `rescheduled` is true when the schedule was recalculated because
// the start date, calendar or direction changed — and the tasks really move.
describe('PATCH /api/projects/{id} reschedules the plan', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer();
    ({ key } = await provisionUser(server, 'planner@example.com'));
  });
  afterAll(() => server.close());

  it('moves every task when the start date moves, in the same write, with task.dates_changed events', async () => {
    const created = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key, body: { name: 'Move me', startDate: '2026-03-02' } });
    const projectId = created.body.project.id;
    const first = await server.request<{ tasks: PlanTask[] }>('POST', `/api/projects/${projectId}/tasks`, { key, body: { name: 'Design', durationMin: 960 } });
    const design = first.body.tasks[0] as PlanTask;
    expect(design).toMatchObject({ startAt: '2026-03-02T08:00:00.000Z', finishAt: '2026-03-03T17:00:00.000Z' });

    const patched = await server.request<{ rescheduled: boolean; conflicts: unknown[] }>('PATCH', `/api/projects/${projectId}`, { key, body: { startDate: '2026-03-09' } });
    expect(patched.status).toBe(200);
    expect(patched.body.rescheduled).toBe(true);
    expect(patched.body.conflicts).toEqual([]);

    const full = await server.request<{ tasks: PlanTask[] }>('GET', `/api/projects/${projectId}`, { key });
    expect(full.body.tasks[0]).toMatchObject({ startAt: '2026-03-09T08:00:00.000Z', finishAt: '2026-03-10T17:00:00.000Z' });
    const listed = await server.request<{ projects: { id: string; finishAt: string }[] }>('GET', '/api/projects', { key });
    expect(listed.body.projects.find((p) => p.id === projectId)?.finishAt).toBe('2026-03-10T17:00:00.000Z');

    const events = await storedEvents(server, projectId);
    const moved = events.filter((e) => e.type === 'task.dates_changed').map((e) => JSON.parse(e.data) as { cause: string; task: { id: string } });
    expect(moved).toEqual([expect.objectContaining({ cause: 'reschedule', task: expect.objectContaining({ id: design.id }) })]);

    const renamed = await server.request<{ rescheduled: boolean }>('PATCH', `/api/projects/${projectId}`, { key, body: { name: 'Renamed' } });
    expect(renamed.body.rescheduled).toBe(false);
  });
});
