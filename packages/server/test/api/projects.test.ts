import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventRow } from '../../src/store/store.js';
import { storedEvents } from '../support/event-check.js';
import { eventData } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

interface Project {
  id: string;
  workspaceId: string;
  key: string;
  keyLocked: boolean;
  name: string;
  description: string | null;
  startDate: string;
  calendarId: string | null;
  currency: string;
  scheduleFrom: 'forward' | 'backward';
  deadline: string | null;
  color: string | null;
  settings: Record<string, unknown>;
  archivedAt: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}
type ListItem = Project & { workspaceName: string; role: string; taskCount: number; finishAt: string };
type ErrorBody = { error: string; details?: { fields?: { path: string; message: string }[] } };
type PatchResult = { project: Project; conflicts: unknown[]; rescheduled: boolean };

// docs/api.md › Projects, › Events (project.created, project.updated) and › Limits
// (project key); contract Project.
describe('projects', () => {
  let server: TestServer;
  let owner: Awaited<ReturnType<typeof provisionUser>>;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await provisionUser(server, 'planner@example.com');
  });
  afterAll(() => server.close());

  async function create(body: Record<string, unknown>, key = owner.key) {
    return server.request<{ project: Project } & ErrorBody>('POST', '/api/projects', { key, body });
  }
  async function patch(id: string, body: Record<string, unknown>) {
    return server.request<PatchResult & ErrorBody>('PATCH', `/api/projects/${id}`, { key: owner.key, body });
  }
  function fieldPaths(body: ErrorBody): string[] {
    return (body.details?.fields ?? []).map((field) => field.path);
  }

  describe('POST /api/projects', () => {
    it('creates a project from its name alone, with the documented defaults', async () => {
      const before = server.clock.now().toISOString();
      const response = await create({ name: 'Website' });
      expect(response.status).toBe(201);
      const project = response.body.project;
      expect(project).toMatchObject({
        workspaceId: owner.personalWorkspaceId,
        key: 'WEB',
        keyLocked: false,
        name: 'Website',
        description: null,
        calendarId: null,
        currency: 'USD',
        scheduleFrom: 'forward',
        deadline: null,
        color: null,
        archivedAt: null,
        createdBy: owner.userId,
      });
      // Today (UTC) by the server's clock; either side of a midnight passing mid-request.
      expect([before.slice(0, 10), server.clock.now().toISOString().slice(0, 10)]).toContain(project.startDate);
      expect(project.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(project.createdAt >= before).toBe(true);
      expect(project.updatedAt).toBe(project.createdAt);
      expect(owner.personalWorkspaceId).not.toBe('');
    });

    it('stores every field sent, normalising the key and currency to upper case', async () => {
      const response = await create({
        name: '  Launch  ',
        key: 'lnch',
        description: 'Go to market',
        startDate: '2027-03-01',
        deadline: '2027-06-30',
        currency: 'eur',
        scheduleFrom: 'backward',
        color: '#336699',
      });
      expect(response.status).toBe(201);
      expect(response.body.project).toMatchObject({
        key: 'LNCH',
        name: 'Launch',
        description: 'Go to market',
        startDate: '2027-03-01',
        deadline: '2027-06-30',
        currency: 'EUR',
        scheduleFrom: 'backward',
        color: '#336699',
      });
      const full = await server.request<{ project: Project }>('GET', `/api/projects/${response.body.project.id}`, { key: owner.key });
      expect(full.body.project).toEqual(response.body.project);
    });

    it('refuses a key already used in the workspace with 409 conflict, whatever its case', async () => {
      expect((await create({ name: 'Mobile app', key: 'MOB' })).status).toBe(201);
      for (const key of ['MOB', 'mob', 'Mob']) {
        const duplicate = await create({ name: 'Another', key });
        expect(duplicate.status, key).toBe(409);
        expect(duplicate.body.error).toBe('conflict');
      }
    });

    it('allows the same key in another workspace', async () => {
      const workspace = await server.cli('workspace', 'create', '--email', 'planner@example.com', '--name', 'Agency', '--json');
      expect(workspace.code, workspace.stderr).toBe(0);
      const workspaceId = (workspace.json as { workspace: { id: string } }).workspace.id;
      const explicit = await create({ name: 'Mobile app', key: 'MOB', workspaceId });
      expect(explicit.status).toBe(201);
      expect(explicit.body.project).toMatchObject({ key: 'MOB', workspaceId });
      // Derived keys are de-duplicated per workspace too: WEB is free here.
      const derived = await create({ name: 'Website', workspaceId });
      expect(derived.body.project.key).toBe('WEB');
    });

    it('de-duplicates derived keys: WEB, WEB2, WEB3', async () => {
      // 'Website' → WEB exists already (first test).
      const second = await create({ name: 'Website' });
      const third = await create({ name: 'Webshop' });
      expect(second.status).toBe(201);
      expect(second.body.project.key).toBe('WEB2');
      expect(third.body.project.key).toBe('WEB3');
      // A derived key never collides with an explicit one either.
      expect((await create({ name: 'Data', key: 'DAT' })).status).toBe(201);
      expect((await create({ name: 'Database' })).body.project.key).toBe('DAT2');
    });

    it('keeps deriving free keys past a hundred projects of the same base (PR100, PR101, …), never a 500', async () => {
      const numberer = await provisionUser(server, 'numberer@example.com');
      // Two keys: each has its own budget of writes a minute.
      const keys = [numberer.key, ((await server.cli('key', 'create', '--email', 'numberer@example.com', '--scope', 'write', '--json')).json as { key: string }).key];
      const derived: string[] = [];
      for (let i = 0; i < 102; i++) {
        const created = await create({ name: '9' }, keys[i % 2]);
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        derived.push(created.body.project.key);
      }
      expect(derived.slice(0, 3)).toEqual(['PRJ', 'PRJ2', 'PRJ3']);
      expect(derived.slice(-4)).toEqual(['PRJ99', 'PR100', 'PR101', 'PR102']);
      expect(new Set(derived).size).toBe(102);
    });

    it('refuses malformed keys with 400 invalid_request at path key', async () => {
      for (const key of ['A', 'ABCDEF', '1AB', 'A-B', 'AB CD', '']) {
        const response = await create({ name: 'Bad key', key });
        expect(response.status, key).toBe(400);
        expect(response.body.error).toBe('invalid_request');
        expect(fieldPaths(response.body), key).toEqual(['key']);
      }
      // The bounds themselves are fine.
      expect((await create({ name: 'Two', key: 'T2' })).body.project.key).toBe('T2');
      expect((await create({ name: 'Five', key: 'F2345' })).body.project.key).toBe('F2345');
    });

    it('requires a deadline to schedule backward: 400 at path deadline', async () => {
      for (const body of [{ name: 'Backward', scheduleFrom: 'backward' }, { name: 'Backward', scheduleFrom: 'backward', deadline: null }]) {
        const response = await create(body);
        expect(response.status).toBe(400);
        expect(response.body.error).toBe('invalid_request');
        expect(fieldPaths(response.body)).toEqual(['deadline']);
      }
    });

    it('keeps keys unique under concurrent creation (explicit and derived)', async () => {
      const racer = await provisionUser(server, 'racer@example.com');
      const explicit = await Promise.all(Array.from({ length: 6 }, () => create({ name: 'Race', key: 'RACE' }, racer.key)));
      expect(explicit.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      const derived = await Promise.all(Array.from({ length: 6 }, () => create({ name: 'Racing' }, racer.key)));
      expect(derived.map((response) => response.status)).toEqual([201, 201, 201, 201, 201, 201]);
      const keys = derived.map((response) => response.body.project.key);
      expect(new Set(keys).size, keys.join(',')).toBe(6);
      const list = await server.request<{ projects: ListItem[] }>('GET', '/api/projects', { key: racer.key });
      const stored = list.body.projects.map((project) => project.key);
      expect(new Set(stored).size, stored.join(',')).toBe(stored.length);
    });

    it('answers 404 for a workspace the caller does not belong to', async () => {
      const response = await create({ name: 'Elsewhere', workspaceId: '00000000-0000-4000-8000-000000000000' });
      expect(response.status).toBe(404);
      expect(response.body.error).toBe('not_found');
    });
  });

  describe('GET /api/projects', () => {
    it('lists visible projects with workspaceName, role, taskCount and finishAt; archived ones only with archived=1', async () => {
      const created = await create({ name: 'Listed', key: 'LST', startDate: '2027-01-04' });
      const id = created.body.project.id;

      const list = await server.request<{ projects: ListItem[] }>('GET', '/api/projects', { key: owner.key });
      expect(list.status).toBe(200);
      const item = list.body.projects.find((project) => project.id === id);
      expect(item).toEqual({
        ...created.body.project,
        workspaceName: 'Personal',
        role: 'owner',
        taskCount: 0,
        // A project without tasks ends where it starts: the first working minute of its start date.
        finishAt: '2027-01-04T08:00:00.000Z',
      });

      expect((await patch(id, { archived: true })).status).toBe(200);
      const hidden = await server.request<{ projects: ListItem[] }>('GET', '/api/projects', { key: owner.key });
      expect(hidden.body.projects.map((project) => project.id)).not.toContain(id);
      expect(hidden.body.projects.length).toBe(list.body.projects.length - 1);

      const all = await server.request<{ projects: ListItem[] }>('GET', '/api/projects?archived=1', { key: owner.key });
      expect(all.status).toBe(200);
      const archived = all.body.projects.find((project) => project.id === id);
      expect(archived?.archivedAt).toEqual(expect.any(String));
      expect(all.body.projects.length).toBe(list.body.projects.length);

      for (const query of ['archived=2', 'archived=true', 'archived=0', 'archived=']) {
        const bad = await server.request<ErrorBody>('GET', `/api/projects?${query}`, { key: owner.key });
        expect(bad.status, query).toBe(400);
        expect(bad.body.error).toBe('invalid_request');
        expect(fieldPaths(bad.body), query).toContainEqual(expect.stringMatching(/(^|\.)archived$/));
      }
      // Restore it for the other tests.
      expect((await patch(id, { archived: false })).body.project.archivedAt).toBeNull();
    });
  });

  it('a project starting on a Saturday without tasks starts and ends on Monday 08:00; its first task locks the key and moves updatedAt', async () => {
    const created = await create({ name: 'Weekend', key: 'WKD', startDate: '2027-01-02' });
    const id = created.body.project.id;
    const listed = await server.request<{ projects: ListItem[] }>('GET', '/api/projects', { key: owner.key });
    expect(listed.body.projects.find((project) => project.id === id)?.finishAt).toBe('2027-01-04T08:00:00.000Z');
    const empty = await server.request<{ projectStartAt: string; projectFinishAt: string }>('POST', `/api/projects/${id}/tasks`, {
      key: owner.key,
      body: { createTasks: [] },
    });
    expect(empty.body).toMatchObject({ projectStartAt: '2027-01-04T08:00:00.000Z', projectFinishAt: '2027-01-04T08:00:00.000Z' });
    server.clock.advance(60_000);
    expect((await server.request('POST', `/api/projects/${id}/tasks`, { key: owner.key, body: { name: 'First' } })).status).toBe(201);
    const read = await server.request<{ project: Project }>('GET', `/api/projects/${id}`, { key: owner.key });
    expect(read.body.project.keyLocked).toBe(true);
    expect(read.body.project.updatedAt > created.body.project.updatedAt).toBe(true);
  });

  describe('GET /api/projects/{projectId}', () => {
    it('returns the full project: project, tasks and dependencies', async () => {
      const created = await create({ name: 'Full read' });
      const response = await server.request<{ project: Project; tasks: unknown[]; dependencies: unknown[] }>('GET', `/api/projects/${created.body.project.id}`, { key: owner.key });
      expect(response.status).toBe(200);
      expect(response.body.project).toEqual(created.body.project);
      expect(response.body.tasks).toEqual([]);
      expect(response.body.dependencies).toEqual([]);
    });
  });

  describe('PATCH /api/projects/{projectId}', () => {
    it('changes only the fields sent; null clears description, deadline and color', async () => {
      const created = await create({ name: 'Patchable', key: 'PAT', description: 'first', deadline: '2027-12-31', color: 'red', startDate: '2027-02-01' });
      const id = created.body.project.id;

      const renamed = await patch(id, { name: 'Patched' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({ project: expect.any(Object), conflicts: [], rescheduled: false });
      const { updatedAt: _updatedAt, ...rest } = created.body.project;
      expect(renamed.body.project).toMatchObject({ ...rest, name: 'Patched' });
      expect(renamed.body.project.updatedAt >= created.body.project.updatedAt).toBe(true);

      const cleared = await patch(id, { description: null, deadline: null, color: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body.project).toMatchObject({ name: 'Patched', description: null, deadline: null, color: null, startDate: '2027-02-01', key: 'PAT' });
      expect(cleared.body.rescheduled).toBe(false);

      const currency = await patch(id, { currency: 'gbp' });
      expect(currency.body.project.currency).toBe('GBP');

      const stored = await server.request<{ project: Project }>('GET', `/api/projects/${id}`, { key: owner.key });
      expect(stored.body.project).toEqual(currency.body.project);
    });

    it('reports rescheduled: true when startDate or scheduleFrom changes, false otherwise', async () => {
      const created = await create({ name: 'Schedule', startDate: '2027-04-05', deadline: '2027-09-30' });
      const id = created.body.project.id;
      expect((await patch(id, { startDate: '2027-04-12' })).body).toMatchObject({ rescheduled: true, conflicts: [] });
      expect((await patch(id, { startDate: '2027-04-12' })).body.rescheduled).toBe(false);
      expect((await patch(id, { description: 'no schedule change' })).body.rescheduled).toBe(false);
      expect((await patch(id, { deadline: '2027-10-31' })).body.rescheduled).toBe(false);
      expect((await patch(id, { scheduleFrom: 'backward' })).body).toMatchObject({ rescheduled: true, project: { scheduleFrom: 'backward' } });
      // While scheduling backward, the deadline is the anchor: moving it reschedules.
      expect((await patch(id, { deadline: '2027-11-30' })).body.rescheduled).toBe(true);
      expect((await patch(id, { scheduleFrom: 'forward' })).body.rescheduled).toBe(true);
    });

    it('refuses to clear the deadline of a backward-scheduled project: 400 at path deadline', async () => {
      const created = await create({ name: 'Anchored', scheduleFrom: 'backward', deadline: '2027-05-31' });
      const response = await patch(created.body.project.id, { deadline: null });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('invalid_request');
      expect(fieldPaths(response.body)).toEqual(['deadline']);
      const toBackward = await create({ name: 'Forward' });
      const refused = await patch(toBackward.body.project.id, { scheduleFrom: 'backward' });
      expect(refused.status).toBe(400);
      expect(fieldPaths(refused.body)).toEqual(['deadline']);
    });

    it('changes the key while it is unlocked (upper-cased), and refuses a key used in the workspace', async () => {
      const created = await create({ name: 'Rekey', key: 'OLD' });
      const id = created.body.project.id;
      const changed = await patch(id, { key: 'new1' });
      expect(changed.status).toBe(200);
      expect(changed.body.project).toMatchObject({ key: 'NEW1', keyLocked: false });
      // The old key is free again.
      expect((await create({ name: 'Reuse', key: 'OLD' })).status).toBe(201);
      const taken = await patch(id, { key: 'OLD' });
      expect(taken.status).toBe(409);
      expect(taken.body.error).toBe('conflict');
      const invalidKey = await patch(id, { key: '9XY' });
      expect(invalidKey.status).toBe(400);
      expect(fieldPaths(invalidKey.body)).toEqual(['key']);
    });

    it('validates the patch: empty name, bad date and bad scheduleFrom are listed together', async () => {
      const created = await create({ name: 'Validated' });
      const response = await patch(created.body.project.id, { name: '', startDate: '2027-02-30', scheduleFrom: 'up' });
      expect(response.status).toBe(400);
      expect(fieldPaths(response.body).sort()).toEqual(['name', 'scheduleFrom', 'startDate']);
    });
  });

  describe('events', () => {
    it('appends project.created (source blank) and project.updated with only what changed, with the actor', async () => {
      const created = await create({ name: 'Evented', key: 'EVT', description: 'before', startDate: '2027-05-03' });
      const id = created.body.project.id;
      expect((await patch(id, { description: 'after', color: 'blue', name: 'Evented' })).status).toBe(200);
      // A patch that changes nothing emits nothing.
      expect((await patch(id, { description: 'after' })).status).toBe(200);
      expect((await patch(id, { startDate: '2027-05-10' })).body.rescheduled).toBe(true);

      const events = await storedEvents(server, id);
      expect(events.map((event) => event.type).sort()).toEqual(['project.created', 'project.updated', 'project.updated']);
      for (const event of events) {
        expect(event).toMatchObject({ workspace_id: owner.personalWorkspaceId, project_id: id, actor_id: owner.userId, actor_name: 'planner' });
      }

      const createdEvent = events.find((event) => event.type === 'project.created') as EventRow;
      const createdData = eventData(createdEvent);
      expect(createdData.source).toBe('blank');
      expect(createdData.project).toMatchObject({ id, key: 'EVT', name: 'Evented' });

      const updates = events.filter((event) => event.type === 'project.updated').map(eventData);
      const describeChange = updates.find((data) => 'description' in (data.changes as object));
      const startChange = updates.find((data) => 'startDate' in (data.changes as object));
      expect(describeChange).toMatchObject({ reason: expect.any(String) });
      expect(describeChange?.changes).toEqual({ description: { from: 'before', to: 'after' }, color: { from: null, to: 'blue' } });
      expect(startChange?.changes).toEqual({ startDate: { from: '2027-05-03', to: '2027-05-10' } });
      expect(startChange?.reason).toEqual(expect.any(String));
    });

    it('records archiving as project.updated with archivedAt in the changes', async () => {
      const created = await create({ name: 'Archive me' });
      const id = created.body.project.id;
      const archived = await patch(id, { archived: true });
      expect(archived.body.rescheduled).toBe(false);
      const events = (await storedEvents(server, id)).filter((event) => event.type === 'project.updated');
      expect(events).toHaveLength(1);
      const changes = eventData(events[0] as EventRow).changes as Record<string, { from: unknown; to: unknown }>;
      expect(Object.keys(changes)).toEqual(['archivedAt']);
      expect(changes.archivedAt).toEqual({ from: null, to: archived.body.project.archivedAt });
    });
  });
});
