import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, planningClient, uuid, type PlanTask, type PlanningClient, type WriteResult } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';
import { callError, callOk, connectLegacy, connectModern, type McpClient } from './support.js';

const readTools = ['get_calendar', 'get_plan', 'get_task', 'list_calendars', 'list_projects', 'list_resources', 'list_versions', 'list_workspaces', 'search_tasks'];
const overwritingTools = ['apply_changes', 'level_resources', 'save_baseline', 'update_calendar', 'update_resource'];
const writeTools = ['add_comment', 'apply_changes', 'create_calendar', 'duplicate_project', 'level_resources', 'save_baseline', 'save_version', 'update_calendar', 'update_resource', 'what_if'];

// docs/mcp.md: each official SDK client, over Streamable HTTP with an API key, lists the
// tools and calls every one of them against the real server.
describe.each([
  ['1.x client, protocol 2025-11-25', connectLegacy, '2025-11-25'],
  ['2.x client, protocol 2026-07-28', connectModern, '2026-07-28'],
] as const)('MCP tools: %s', (_label, connect, protocolVersion) => {
  let server: TestServer;
  let owner: Awaited<ReturnType<typeof provisionUser>>;
  let rest: PlanningClient;
  let client: McpClient;
  let projectId: string;
  let design: PlanTask;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    owner = await provisionUser(server, 'mcp@example.com');
    rest = planningClient(server, owner.key);
    projectId = (await rest.createProject({ name: 'Relaunch' })).id;
    const created = await rest.changeSet(projectId, {
      createTasks: [
        { id: uuid(), name: 'Design', durationMin: 960 },
        { id: uuid(), name: 'Build', durationMin: 2400 },
      ],
    });
    expect(created.status).toBe(200);
    [design] = created.body.tasks as [PlanTask];
    client = await connect(server, owner.key);
  });
  afterAll(async () => {
    await client?.close();
    await server.close();
  });

  it('speaks the protocol revision the client asked for', () => {
    expect(client.protocolVersion).toBe(protocolVersion);
    // A stateless server never notifies: its tool list does not change under a client.
    expect(client.capabilities?.tools?.listChanged).toBe(false);
  });

  it('lists every tool with schemas, annotations and a description', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...readTools, ...writeTools].sort());
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(60);
      expect(tool.inputSchema, tool.name).toMatchObject({ type: 'object' });
      expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' });
      const readOnly = readTools.includes(tool.name) || tool.name === 'what_if';
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(readOnly);
      // MCP: destructive unless the tool only adds.
      if (!readOnly) expect(tool.annotations?.destructiveHint, tool.name).toBe(overwritingTools.includes(tool.name));
    }
    const applyChanges = tools.find((tool) => tool.name === 'apply_changes') as { inputSchema: { properties: Record<string, unknown>; required: string[] } };
    expect(Object.keys(applyChanges.inputSchema.properties).sort()).toEqual(['createDependencies', 'createTasks', 'deleteDependencyIds', 'fullReschedule', 'idempotencyKey', 'projectId', 'updateTasks']);
    expect(applyChanges.inputSchema.required).toEqual(['projectId']);
  });

  it('lists workspaces and projects', async () => {
    const workspaces = await callOk<{ workspaces: { id: string; personal: boolean }[] }>(client, 'list_workspaces');
    expect(workspaces.structuredContent.workspaces).toEqual([expect.objectContaining({ id: owner.personalWorkspaceId, personal: true })]);
    const projects = await callOk<{ projects: { id: string; name: string; taskCount: number }[] }>(client, 'list_projects');
    expect(projects.structuredContent.projects).toEqual([expect.objectContaining({ id: projectId, name: 'Relaunch', taskCount: 2 })]);
    expect(projects.content[0]?.text).toContain('Relaunch');
  });

  it('reads the plan exactly as REST answers it', async () => {
    const plan = await callOk<Record<string, unknown>>(client, 'get_plan', { projectId });
    const viaRest = await rest.fullProject(projectId);
    expect(plan.structuredContent).toEqual(viaRest.body);
    expect(plan.content[0]?.text).toMatch(/^REL "Relaunch": 2 tasks, no dependencies, .*Critical path: REL-2 Build\.$/);
  });

  it('searches tasks and reads one with its comments', async () => {
    const found = await callOk<{ tasks: { id: string; name: string }[]; nextCursor: string | null }>(client, 'search_tasks', { projectId, q: 'desi', limit: 10 });
    expect(found.structuredContent.tasks.map((task) => task.name)).toEqual(['Design']);
    const comment = await callOk<{ comment: { id: string; body: string } }>(client, 'add_comment', { projectId, taskId: design.id, body: 'Sketches by Friday' });
    expect(comment.structuredContent.comment.body).toBe('Sketches by Friday');
    const detail = await callOk<{ task: { id: string; key: string }; comments: { id: string }[] }>(client, 'get_task', { projectId, taskId: design.id });
    expect(detail.structuredContent.task).toMatchObject({ id: design.id, key: design.key });
    expect(detail.structuredContent.comments.map((c) => c.id)).toEqual([comment.structuredContent.comment.id]);
  });

  it('tries a change set, then applies it; saves a baseline', async () => {
    const id = uuid();
    const changes = { createTasks: [{ id, name: 'Test', durationMin: 480 }], createDependencies: [{ predecessorId: design.id, successorId: id, type: 'FS', lagMin: 0 }] };
    const tried = await callOk<WriteResult>(client, 'what_if', { projectId, ...changes });
    expect(tried.content[0]?.text).toMatch(/^Dry run, nothing saved/);
    expect((await rest.fullProject(projectId)).body.tasks.map((task) => task.id)).not.toContain(id);
    const applied = await callOk<WriteResult>(client, 'apply_changes', { projectId, ...changes });
    expect(applied.content[0]?.text).toMatch(/^Saved/);
    expect(applied.structuredContent.tasks).toEqual(tried.structuredContent.tasks);
    const created = applied.structuredContent.tasks.find((task) => task.id === id);
    expect(created?.startAt).toBe((await rest.getTask(projectId, id)).body.task.startAt);
    expect(String(created?.startAt) > String(design.finishAt)).toBe(true);
    const baseline = await callOk<{ baseline: { name: string } }>(client, 'save_baseline', { projectId, name: 'Agreed' });
    expect(baseline.structuredContent.baseline.name).toBe('Agreed');
    expect((await rest.listBaselines(projectId)).body.baselines.map((b) => b.name)).toContain('Agreed');
    const version = await callOk<{ version: { name: string } }>(client, 'save_version', { projectId, name: 'Agreed' });
    expect(version.content[0]?.text).toMatch(/^Version "Agreed" saved with \d+ tasks/);
    const versions = await callOk<{ versions: { name: string }[] }>(client, 'list_versions', { projectId });
    expect(versions.structuredContent.versions[0]?.name).toBe('Agreed');
    const copy = await callOk<{ project: { id: string }; taskCount: number }>(client, 'duplicate_project', { projectId, name: 'Copied by MCP' });
    expect(copy.content[0]?.text).toMatch(/^Project \w+ "Copied by MCP"/);
    expect(copy.structuredContent.taskCount).toBe((await rest.fullProject(projectId)).body.tasks.length);
  });

  it('creates, changes, lists and reads calendars; a holiday on the project calendar reschedules', async () => {
    const created = await callOk<{ calendar: { id: string; timeZone: string } }>(client, 'create_calendar', {
      projectId,
      name: 'Office',
      exceptions: [{ name: 'Holiday', from: '2030-01-01', to: '2030-01-01', intervals: [] }],
    });
    const calendarId = created.structuredContent.calendar.id;
    expect(created.content[0]?.text).toBe(`Calendar "Office" (UTC, 1 exception, id ${calendarId}) created.`);
    const listed = await callOk<{ calendars: { id: string }[] }>(client, 'list_calendars', { projectId });
    expect(listed.structuredContent.calendars.map((calendar) => calendar.id)).toEqual([calendarId]);
    const read = await callOk<{ calendar: { name: string } }>(client, 'get_calendar', { projectId, calendarId });
    expect(read.structuredContent.calendar.name).toBe('Office');
    expectStatus(await rest.req('PATCH', `/api/projects/${projectId}`, { calendarId }), 200);
    const changed = await callOk<{ rescheduled: boolean }>(client, 'update_calendar', { projectId, calendarId, timeZone: 'Asia/Tokyo' });
    expect(changed.structuredContent.rescheduled).toBe(true);
    expect(changed.content[0]?.text).toMatch(/^Calendar "Office" \(Asia\/Tokyo, .* saved; every task was rescheduled\.$/);
    const refused = await callError(client, 'update_calendar', { projectId, calendarId, timeZone: 'Nowhere/Atlantis' });
    expect(refused.details?.fields?.map((field) => field.path)).toEqual(['timeZone']);
    expectStatus(await rest.req('PATCH', `/api/projects/${projectId}`, { calendarId: null }), 200);
  });

  it('lists resources and changes their Max. Units', async () => {
    const crane = await rest.req<{ resource: { id: string } }>('POST', `/api/projects/${projectId}/resources`, { name: 'Crane' });
    expectStatus(crane, 201);
    const resourceId = crane.body.resource.id;
    const changed = await callOk<{ resource: { maxUnitsPct: number } }>(client, 'update_resource', { projectId, resourceId, maxUnitsPct: 300 });
    expect(changed.content[0]?.text).toBe(`Resource "Crane" (300 %, no account, id ${resourceId}) saved.`);
    const listed = await callOk<{ resources: { id: string; maxUnitsPct: number }[] }>(client, 'list_resources', { projectId });
    expect(listed.structuredContent.resources).toEqual([{ id: resourceId, userId: null, name: 'Crane', maxUnitsPct: 300 }]);
    const refused = await callError(client, 'update_resource', { projectId, resourceId, maxUnitsPct: 0 });
    expect(refused.details?.fields?.map((field) => field.path)).toEqual(['maxUnitsPct']);
  });

  it('answers mistakes with the API error code, message and fields', async () => {
    const bad = await callError(client, 'apply_changes', { projectId, createTasks: [{ name: '', durationMin: -5 }], createDependencies: [{ predecessorId: 'nope' }] });
    expect(bad.error).toBe('invalid_request');
    expect(bad.details?.fields?.map((field) => field.path)).toEqual(
      expect.arrayContaining(['createTasks[0].name', 'createTasks[0].durationMin', 'createDependencies[0].predecessorId']),
    );
    expect(bad.message).toContain('createTasks[0].durationMin');
    const before = await rest.fullProject(projectId);
    expect(before.body.tasks.map((task) => task.name)).not.toContain('');

    const stranger = await provisionUser(server, `stranger-${uuid()}@example.com`);
    const hidden = (await planningClient(server, stranger.key).createProject({ name: 'Secret' })).id;
    expect((await callError(client, 'get_plan', { projectId: hidden })).error).toBe('not_found');
    expect((await callError(client, 'what_if', { projectId: hidden, createTasks: [{ name: 'x' }] })).error).toBe('not_found');
    // Ids are arguments: a missing or malformed one is named (REST, where it is the address, says 404).
    for (const projectId of ['not-a-uuid', undefined]) {
      const refused = await callError(client, 'get_plan', projectId === undefined ? {} : { projectId });
      expect(refused.error).toBe('invalid_request');
      expect(refused.details?.fields?.map((field) => field.path)).toEqual(['projectId']);
    }
    const emptyComment = await callError(client, 'add_comment', { projectId, taskId: design.id, body: '' });
    expect(emptyComment.details?.fields?.map((field) => field.path)).toEqual(['body']);
    const numericKey = await callError(client, 'apply_changes', { projectId, createTasks: [{ name: 'Twice?' }], idempotencyKey: 5 });
    expect(numericKey.details?.fields?.map((field) => field.path)).toEqual(['idempotencyKey']);
    expect((await rest.fullProject(projectId)).body.tasks.map((task) => task.name)).not.toContain('Twice?');
    const cycle = await callError(client, 'what_if', { projectId, createDependencies: [{ predecessorId: before.body.tasks[1]?.id, successorId: design.id }, { predecessorId: design.id, successorId: before.body.tasks[1]?.id }] });
    expect(cycle.error).toBe('dependency_cycle');
    const deletion = await callError(client, 'apply_changes', { projectId, deleteTaskIds: [design.id] });
    expect(deletion).toMatchObject({ error: 'forbidden', details: { reason: 'destructive' } });
  });

  it('applies a change set once when an assistant retries it with the same idempotencyKey', async () => {
    const key = uuid();
    const name = `Retried ${key.slice(0, 8)}`;
    const first = await callOk<WriteResult>(client, 'apply_changes', { projectId, idempotencyKey: key, createTasks: [{ name }] });
    const again = await callOk<WriteResult>(client, 'apply_changes', { projectId, idempotencyKey: key, createTasks: [{ name }] });
    expect(again.structuredContent).toEqual(first.structuredContent);
    const plan = await rest.fullProject(projectId);
    expect(plan.body.tasks.filter((task) => task.name === name)).toHaveLength(1);
    const reused = await callError(client, 'apply_changes', { projectId, idempotencyKey: key, createTasks: [{ name: `${name} (other)` }] });
    expect(reused.error).toBe('conflict');
    const tooLong = await callError(client, 'apply_changes', { projectId, idempotencyKey: 'k'.repeat(256), createTasks: [{ name }] });
    expect(tooLong.details?.fields?.map((field) => field.path)).toEqual(['idempotencyKey']);
  });

  it('levels resources: a dry run first, then for real, and a second time changes nothing', async () => {
    // Design (two days) and Build (five, critical) both need the owner from the start: Design waits.
    const tasks = (await rest.fullProject(projectId)).body.tasks;
    const build = tasks.find((task) => task.name === 'Build')!;
    for (const task of [design, build]) expectStatus(await rest.putAssignees(projectId, task.id, { userIds: [owner.userId] }), 200);
    const before = await rest.fullProject(projectId);
    type Leveled = WriteResult & { leveling: { tasks: { taskId: string; levelingDelayMin: { from: number; to: number } }[]; overallocations: unknown[] } };
    const tried = await callOk<Leveled>(client, 'level_resources', { projectId, dryRun: true });
    expect(tried.content[0]?.text).toMatch(/^Dry run, nothing saved\. Leveling would change the delay of 1 task: REL-1 \+2400 min \(\d{4}-\d\d-\d\d→/);
    expect(tried.structuredContent.leveling.tasks).toEqual([expect.objectContaining({ taskId: design.id, levelingDelayMin: { from: 0, to: 2400 } })]);
    expect((await rest.fullProject(projectId)).body).toEqual(before.body);
    const applied = await callOk<Leveled>(client, 'level_resources', { projectId });
    expect(applied.content[0]?.text).toMatch(/^Saved\. Leveling changed the delay of 1 task: .*; no over-allocations left\.$/);
    expect(applied.structuredContent.leveling).toEqual(tried.structuredContent.leveling);
    const again = await callOk<Leveled>(client, 'level_resources', { projectId, dryRun: false });
    expect(again.structuredContent.leveling.tasks).toEqual([]);
    expect((await callError(client, 'level_resources', { projectId, dryRun: 'yes' })).details?.fields).toEqual([{ path: 'dryRun', message: 'must be true or false' }]);
    expect((await callError(client, 'level_resources', { projectId, resourceIds: [uuid()] })).details?.fields?.map((field) => field.path)).toEqual(['resourceIds[0]']);
  });

  it('creates a task with assignments; the answer names the tasks whose assignments changed', async () => {
    const hoist = await rest.req<{ resource: { id: string } }>('POST', `/api/projects/${projectId}/resources`, { name: 'Hoist' });
    expectStatus(hoist, 201);
    const id = uuid();
    const applied = await callOk<WriteResult>(client, 'apply_changes', {
      projectId,
      createTasks: [{ id, name: 'Lift', durationMin: 480, workMin: 120, assignments: [{ resourceId: hoist.body.resource.id, unitsPct: 25 }] }],
    });
    const key = applied.structuredContent.tasks.find((task) => task.id === id)?.key;
    expect(applied.content[0]?.text).toContain(`; assignments of 1 task: ${key};`);
    expect(applied.structuredContent.reassignedTaskIds).toEqual([id]);
    expect(applied.structuredContent.assignments).toEqual([{ taskId: id, resourceId: hoist.body.resource.id, unitsPct: 25 }]);
    expect((await rest.getTask(projectId, id)).body.task).toMatchObject({ durationMin: 480, workMin: 120, assignees: [expect.objectContaining({ unitsPct: 25 })] });
  });
});
