import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, fieldPaths, newTask, planningClient, scheduleDrift, uuid, type PlanningClient } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

// docs/api.md › Dependencies and › Error codes (409 dependency_cycle); contract Dependency.
describe('dependencies', () => {
  let server: TestServer;
  let client: PlanningClient;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    const owner = await provisionUser(server, 'links@example.com');
    client = planningClient(server, owner.key);
  });
  afterAll(() => server.close());

  it('creates one link (201 WriteResult), lists it, and defaults to FS with lag 0', async () => {
    const project = await client.createProject({ name: 'Web', key: 'WEB' });
    const a = await newTask(client, project.id, { name: 'A', durationMin: 480 });
    const b = await newTask(client, project.id, { name: 'B', durationMin: 480 });
    const created = await client.link(project.id, { predecessorId: a.id, successorId: b.id });
    expectStatus(created, 201);
    const dependency = created.body.dependencies[0];
    expect(dependency).toMatchObject({ predecessorId: a.id, successorId: b.id, type: 'FS', lagMin: 0 });
    expect(created.body.tasks.find((t) => t.id === b.id)?.startAt).toBe('2026-03-03T08:00:00.000Z');
    const list = await client.listDependencies(project.id);
    expectStatus(list, 200);
    expect(list.body.dependencies).toEqual([dependency]);
  });

  it('creates several with {dependencies:[…]}; an empty list or a bad item is 400 with its path', async () => {
    const project = await client.createProject({ name: 'Batch', key: 'BAT' });
    const [a, b, c] = [await newTask(client, project.id, { name: 'A' }), await newTask(client, project.id, { name: 'B' }), await newTask(client, project.id, { name: 'C' })];
    const created = await client.link(project.id, {
      dependencies: [
        { predecessorId: a.id, successorId: b.id, type: 'SS', lagMin: 120 },
        { predecessorId: b.id, successorId: c.id, type: 'FF', lagMin: -60 },
      ],
    });
    expectStatus(created, 201);
    expect(created.body.dependencies).toHaveLength(2);
    expect((await client.listDependencies(project.id)).body.dependencies).toHaveLength(2);
    expectStatus(await client.link(project.id, { dependencies: [] }), 400);
    const bad = await client.link(project.id, { dependencies: [{ predecessorId: a.id, successorId: c.id }, { predecessorId: a.id, successorId: c.id, type: 'XX' }] });
    expectStatus(bad, 400);
    expect(fieldPaths(bad.body)).toContain('dependencies[1].type');
    const unknown = await client.link(project.id, { dependencies: [{ predecessorId: a.id, successorId: uuid() }] });
    expectStatus(unknown, 400);
    expect(fieldPaths(unknown.body)).toContain('dependencies[0].successorId');
    // Both ends unknown: both are named.
    const neither = await client.link(project.id, { dependencies: [{ predecessorId: uuid(), successorId: uuid() }] });
    expect(fieldPaths(neither.body)).toEqual(['dependencies[0].predecessorId', 'dependencies[0].successorId']);
    expect((await client.listDependencies(project.id)).body.dependencies).toHaveLength(2);
    expect(await scheduleDrift(server, project.id)).toEqual([]);
  });

  it('an invalid single DependencyCreate names the field (docs/api.md: paths relative to the body)', async () => {
    const project = await client.createProject({ name: 'Single', key: 'SGL' });
    const a = await newTask(client, project.id, { name: 'A' });
    const b = await newTask(client, project.id, { name: 'B' });
    const single = await client.link(project.id, { predecessorId: a.id, successorId: b.id, lagMin: 1.5 });
    expectStatus(single, 400);
    expect(fieldPaths(single.body)).toContain('lagMin');
    const missing = await client.link(project.id, { predecessorId: a.id });
    expectStatus(missing, 400);
    expect(fieldPaths(missing.body)).toContain('successorId');
  });

  it('refuses a self-link and a link between a summary and its own descendant (400)', async () => {
    const project = await client.createProject({ name: 'Refuse', key: 'RFS' });
    const parent = await newTask(client, project.id, { name: 'Parent' });
    const child = await newTask(client, project.id, { name: 'Child', parentId: parent.id });
    const grandchild = await newTask(client, project.id, { name: 'Grandchild', parentId: child.id });
    const self = await client.link(project.id, { predecessorId: child.id, successorId: child.id });
    expectStatus(self, 400);
    expect(fieldPaths(self.body).length).toBeGreaterThan(0);
    for (const [p, s] of [
      [parent.id, grandchild.id],
      [grandchild.id, parent.id],
      [parent.id, child.id],
    ]) {
      const response = await client.link(project.id, { predecessorId: p, successorId: s });
      expectStatus(response, 400);
      expect(fieldPaths(response.body)).toContain('successorId');
    }
    expect((await client.listDependencies(project.id)).body.dependencies).toEqual([]);
  });

  it('closing a cycle is 409 with details.cycles[].path like WEB-1 → WEB-2 → WEB-1', async () => {
    const project = await client.createProject({ name: 'Loop', key: 'LOP' });
    const a = await newTask(client, project.id, { name: 'A' });
    const b = await newTask(client, project.id, { name: 'B' });
    expectStatus(await client.link(project.id, { predecessorId: a.id, successorId: b.id }), 201);
    const closing = await client.link(project.id, { predecessorId: b.id, successorId: a.id });
    expectStatus(closing, 409);
    expect(closing.body.error).toBe('dependency_cycle');
    const cycle = closing.body.details?.cycles?.[0];
    expect(cycle?.path).toMatch(/^LOP-[12] → LOP-[12] → LOP-[12]$/);
    expect(['LOP-1 → LOP-2 → LOP-1', 'LOP-2 → LOP-1 → LOP-2']).toContain(cycle?.path);
    expect(new Set(cycle?.taskIds)).toEqual(new Set([a.id, b.id]));
    expect(new Set(cycle?.taskNames)).toEqual(new Set(['A', 'B']));
    expect((await client.listDependencies(project.id)).body.dependencies).toHaveLength(1);
  });

  it('posting an existing pair updates its type and lag (same id), and reschedules', async () => {
    const project = await client.createProject({ name: 'Update', key: 'UPD' });
    const a = await newTask(client, project.id, { name: 'A', durationMin: 480 });
    const b = await newTask(client, project.id, { name: 'B', durationMin: 480 });
    const first = await client.link(project.id, { predecessorId: a.id, successorId: b.id });
    const id = first.body.dependencies[0]?.id;
    const updated = await client.link(project.id, { predecessorId: a.id, successorId: b.id, type: 'SS', lagMin: 240 });
    expectStatus(updated, 201);
    expect(updated.body.dependencies).toEqual([{ id, predecessorId: a.id, successorId: b.id, type: 'SS', lagMin: 240 }]);
    expect(updated.body.tasks.find((t) => t.id === b.id)?.startAt).toBe('2026-03-02T13:00:00.000Z');
    const list = (await client.listDependencies(project.id)).body.dependencies;
    expect(list).toEqual([{ id, predecessorId: a.id, successorId: b.id, type: 'SS', lagMin: 240 }]);
    expect(await scheduleDrift(server, project.id)).toEqual([]);
  });

  it('DELETE answers a WriteResult with deletedDependencyIds; unknown or foreign ids are 404', async () => {
    const project = await client.createProject({ name: 'Delete', key: 'DEL' });
    const a = await newTask(client, project.id, { name: 'A', durationMin: 480 });
    const b = await newTask(client, project.id, { name: 'B', durationMin: 480 });
    const id = (await client.link(project.id, { predecessorId: a.id, successorId: b.id })).body.dependencies[0]?.id as string;
    const deleted = await client.unlink(project.id, id);
    expectStatus(deleted, 200);
    expect(deleted.body.deletedDependencyIds).toEqual([id]);
    expect(deleted.body.tasks.find((t) => t.id === b.id)?.startAt).toBe('2026-03-02T08:00:00.000Z');
    expect((await client.listDependencies(project.id)).body.dependencies).toEqual([]);
    expectStatus(await client.unlink(project.id, id), 404);
    expectStatus(await client.unlink(project.id, uuid()), 404);
    expectStatus(await client.unlink(project.id, 'not-a-uuid'), 404);

    const other = await client.createProject({ name: 'Other', key: 'OTH' });
    const x = await newTask(client, other.id, { name: 'X' });
    const y = await newTask(client, other.id, { name: 'Y' });
    const foreignId = (await client.link(other.id, { predecessorId: x.id, successorId: y.id })).body.dependencies[0]?.id as string;
    expectStatus(await client.unlink(project.id, foreignId), 404);
    // Linking tasks of another project is refused.
    expectStatus(await client.link(project.id, { predecessorId: a.id, successorId: x.id }), 400);
    expect((await client.listDependencies(other.id)).body.dependencies).toHaveLength(1);
  });

  it('moving a task under its own predecessor (a summary linked to its subtask) is refused and saves nothing', async () => {
    const project = await client.createProject({ name: 'Nest', key: 'NST' });
    const a = await newTask(client, project.id, { name: 'A' });
    const b = await newTask(client, project.id, { name: 'B' });
    expectStatus(await client.link(project.id, { predecessorId: a.id, successorId: b.id }), 201);
    const before = await client.fullProject(project.id);
    const moved = await client.patchTask(project.id, b.id, { placement: { parentId: a.id } });
    expect([400, 409]).toContain(moved.status);
    expect((await client.fullProject(project.id)).body).toEqual(before.body);
    const created = await client.createTask(project.id, { name: 'C', parentId: b.id });
    expectStatus(created, 201);
    // A task may be nested under a summary it is not linked to.
    expect(created.body.tasks.find((t) => t.id === b.id)?.type).toBe('summary');
  });
});

