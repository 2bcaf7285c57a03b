import { describe, expect, it } from 'vitest';
import { presentEvent } from './events.js';

describe('presentEvent', () => {
  it('builds the documented envelope from an outbox row, with the API version', () => {
    const envelope = presentEvent({
      id: 'e1',
      type: 'task.completed',
      workspace_id: 'w1',
      project_id: 'p1',
      actor_id: 'u1',
      actor_name: 'Ada',
      actor_client_id: null,
      actor_client_name: null,
      data: '{"task":{"id":"t1"}}',
      created_at: '2026-03-02T08:00:00.000Z',
      dispatched: 0,
    });
    expect(envelope).toEqual({
      id: 'e1',
      type: 'task.completed',
      apiVersion: '2026-10-01',
      createdAt: '2026-03-02T08:00:00.000Z',
      workspaceId: 'w1',
      projectId: 'p1',
      actor: { id: 'u1', name: 'Ada', client: null },
      data: { task: { id: 't1', durationEstimated: false } },
    });
  });

  it("presents a task stored before a field existed with that field's former value, and keeps what it has", () => {
    const row = { id: 'e3', type: 'task.created', workspace_id: 'w1', project_id: 'p1', actor_id: 'u1', actor_name: 'Ada', actor_client_id: null, actor_client_name: null, created_at: '2026-03-02T08:00:00.000Z', dispatched: 0 as const };
    expect(presentEvent({ ...row, data: '{"task":{"id":"t1"}}' }).data).toEqual({ task: { id: 't1', durationEstimated: false } });
    expect(presentEvent({ ...row, data: '{"task":{"id":"t1","durationEstimated":true}}' }).data).toEqual({ task: { id: 't1', durationEstimated: true } });
    expect(presentEvent({ ...row, type: 'dependency.created', data: '{"dependency":{"id":"d1"}}' }).data).toEqual({ dependency: { id: 'd1' } });
  });

  it('names the OAuth app that acted for the person', () => {
    const row = { id: 'e2', type: 'task.completed', workspace_id: 'w1', project_id: 'p1', actor_id: 'u1', actor_name: 'Ada', data: '{}', created_at: '2026-03-02T08:00:00.000Z', dispatched: 0 as const };
    expect(presentEvent({ ...row, actor_client_id: 'c1', actor_client_name: 'Planner' }).actor).toEqual({ id: 'u1', name: 'Ada', client: { id: 'c1', name: 'Planner' } });
  });
});
