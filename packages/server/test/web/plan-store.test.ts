import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../web/src/client.js';
import { historyLimit } from '../../../web/src/plan/history.js';
import { PlanStore } from '../../../web/src/plan/plan-store.js';
import type { FullProject } from '../../../web/src/types.js';
import { treeOf } from '../support/plan-tree.js';
import { signedInPerson, type Person } from '../support/sessions.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The web app's plan store, driven as the Gantt page drives it, against a real server: every
 * change it makes, undoes and redoes is read back through the REST API.
 */
describe('the plan store of the web app', () => {
  let server: TestServer;
  let ada: Person;
  let key: string;

  beforeAll(async () => {
    // With the default budgets: a web session's 600 writes a minute hold fifty undos and redos in a row.
    server = await startTestServer();
    ada = await signedInPerson(server, 'ada@example.com', 'Ada Lovelace');
    key = ((await server.cli('key', 'create', '--email', 'ada@example.com', '--scope', 'write', '--json')).json as { key: string }).key;
  });
  afterAll(() => server?.close());

  /** A store on a new project with these top-level tasks, as Ada's browser opens it. */
  async function openPlan(names: readonly string[]): Promise<{ store: PlanStore; ids: Record<string, string>; read: () => Promise<FullProject> }> {
    const { body } = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key, body: { name: `Plan ${Math.random()}`, startDate: '2027-01-04' } });
    const projectId = body.project.id;
    const created = await server.request<{ tasks: { id: string; name: string }[] }>('POST', `/api/projects/${projectId}/tasks`, {
      key,
      body: { createTasks: names.map((name) => ({ name, durationMin: 480 })) },
    });
    const ids = Object.fromEntries(created.body.tasks.map((task) => [task.name, task.id]));
    const client = createClient({ baseUrl: server.url, headers: { cookie: ada.cookie } });
    client.setCsrfToken(ada.csrfToken);
    const store = await PlanStore.open(client.call, projectId);
    const read = async () => (await server.request<FullProject>('GET', `/api/projects/${projectId}`, { key })).body;
    return { store, ids, read };
  }

  it('indents, outdents and moves the selection, and undoes and redoes each step', async () => {
    const { store, ids, read } = await openPlan(['A', 'B', 'C', 'D']);
    store.select(ids.B!);
    store.select(ids.C!, 'range');
    expect(await store.indent()).toBe(true);
    expect(treeOf(await read())).toBe('A(B C) D');
    // The store's own tree is the server's, without a reload.
    expect(treeOf(store.getState().plan)).toBe('A(B C) D');
    store.select(ids.B!);
    expect(await store.outdent()).toBe(true);
    expect(treeOf(await read())).toBe('A B(C) D');
    store.select(ids.D!);
    expect(await store.moveUp()).toBe(true);
    expect(treeOf(await read())).toBe('A D B(C)');

    expect(store.getState().history.undoLabel).toBe('move up');
    await store.undo();
    expect(treeOf(await read())).toBe('A B(C) D');
    await store.undo();
    expect(treeOf(await read())).toBe('A(B C) D');
    await store.undo();
    expect(treeOf(await read())).toBe('A B C D');
    expect(await store.undo()).toBe(false);
    await store.redo();
    await store.redo();
    await store.redo();
    expect(treeOf(await read())).toBe('A D B(C)');
    expect(treeOf(store.getState().plan)).toBe('A D B(C)');
  });

  it(`keeps ${historyLimit} steps: 50 edits undone and redone in a row, each queued behind the last`, async () => {
    const { store, ids, read } = await openPlan(['A']);
    const task = () => store.getState().tasksById.get(ids.A!)!;
    for (let step = 1; step <= 50; step++) await store.editTask(task(), { durationMin: 480 + step * 60 });
    expect((await read()).tasks[0]!.durationMin).toBe(480 + 50 * 60);
    // Asked at once, as fast keys would: they run one after another.
    await Promise.all(Array.from({ length: 50 }, () => store.undo()));
    expect((await read()).tasks[0]!.durationMin).toBe(480);
    expect(store.getState().history.undoLabel).toBeNull();
    await Promise.all(Array.from({ length: 50 }, () => store.redo()));
    expect((await read()).tasks[0]!.durationMin).toBe(480 + 50 * 60);
    expect(store.getState().history.redoLabel).toBeNull();
  });

  it('adds tasks after the selection, above it, or under it without a staircase', async () => {
    const { store, ids, read } = await openPlan(['A', 'B']);
    store.select(ids.A!);
    await store.addTask({ name: 'after A', durationMin: 480 });
    expect(treeOf(await read())).toBe('A after A B');
    // The new task is the selection.
    expect(store.getState().tasksById.get(store.getState().selection.focusId!)?.name).toBe('after A');
    store.select(ids.B!);
    await store.addTask({ name: 'above B', durationMin: 480 }, 'above');
    store.select(ids.B!);
    await store.addTask({ name: 'B1', durationMin: 480 }, 'under');
    store.select(ids.B!);
    await store.addTask({ name: 'B2', durationMin: 480 }, 'under');
    expect(treeOf(await read())).toBe('A after A above B B(B1 B2)');
    await store.undo();
    expect(treeOf(await read())).toBe('A after A above B B(B1)');
  });

  it('deletes a branch, and undo brings back its tasks with their ids, fields, place, links and people', async () => {
    const { store, ids, read } = await openPlan(['A', 'B', 'C', 'D']);
    store.select(ids.C!);
    await store.indent(); // A B(C) D
    store.select(ids.B!);
    await store.link([ids.A!, ids.B!]);
    await store.link([ids.C!, ids.D!], 'SS', 120);
    await store.editTask(store.getState().tasksById.get(ids.C!)!, { notes: 'keep me', wbs: '2.1', progressPct: 40, actualStartAt: '2027-01-05T08:00:00.000Z' });
    await store.assignTask(ids.C!, { userIds: [ada.userId] });
    const before = await read();

    await store.deleteTasks([ids.B!]);
    const deleted = await read();
    expect(treeOf(deleted)).toBe('A D');
    expect(deleted.dependencies).toEqual([]);
    expect(store.getState().selection.ids.size).toBe(0);

    expect(store.getState().history.undoLabel).toMatch(/^delete /);
    expect(await store.undo()).toBe(true);
    const restored = await read();
    expect(treeOf(restored)).toBe('A B(C) D');
    const strip = ({ number: _number, key: _key, sortKey: _sortKey, ...task }: FullProject['tasks'][number]) => task;
    expect(restored.tasks.map(strip)).toEqual(before.tasks.map(strip));
    const ends = (plan: FullProject) => plan.dependencies.map(({ predecessorId, successorId, type, lagMin }) => ({ predecessorId, successorId, type, lagMin }));
    expect(ends(restored)).toEqual(expect.arrayContaining(ends(before)));
    expect(restored.assignments).toEqual(before.assignments);
    // Keys are new (numbers are never reused); the store has them.
    expect(store.getState().tasksById.get(ids.B!)?.key).toBe(restored.tasks.find((task) => task.id === ids.B)?.key);
    // And again: redo deletes the same tasks.
    expect(await store.redo()).toBe(true);
    expect(treeOf(await read())).toBe('A D');
  });

  it('deletes several selected tasks at once, and links and unlinks the selection in outline order', async () => {
    const { store, ids, read } = await openPlan(['A', 'B', 'C', 'D']);
    store.select(ids.A!);
    store.select(ids.C!, 'toggle');
    store.select(ids.B!, 'toggle');
    expect(await store.linkSelection()).toBe(true);
    const chain = (await read()).dependencies.map((link) => [link.predecessorId, link.successorId]);
    expect(chain).toEqual(expect.arrayContaining([[ids.A, ids.B], [ids.B, ids.C]]));
    expect(chain).toHaveLength(2);
    await store.unlinkSelection();
    expect((await read()).dependencies).toEqual([]);
    await store.undo();
    expect((await read()).dependencies).toHaveLength(2);

    store.select(ids.B!);
    store.select(ids.D!, 'toggle');
    expect(store.deletionOf(store.getState().selection.ids).tops.map((task) => task.name)).toEqual(['B', 'D']);
    await store.deleteTasks(store.getState().selection.ids);
    expect(treeOf(await read())).toBe('A C');
    await store.undo();
    expect(treeOf(await read())).toBe('A B C D');
    expect((await read()).dependencies).toHaveLength(2);
  });

  it('does not undo over a change someone else made since, and says so', async () => {
    const { store, ids, read } = await openPlan(['A']);
    await store.editTask(store.getState().tasksById.get(ids.A!)!, { name: 'Design' });
    // A colleague, through the API, renames it again.
    await server.request('PATCH', `/api/projects/${store.projectId}/tasks/${ids.A}`, { key, body: { name: 'Design (final)' } });
    expect(await store.undo()).toBe(false);
    expect(store.getState().notice).toMatch(/was changed by someone else since "edit"/);
    expect((await read()).tasks[0]!.name).toBe('Design (final)');
  });

  it('checks the tasks of a big edit in one read of the plan, not a request per task', async () => {
    const { body } = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key, body: { name: 'Bulk undo', startDate: '2027-01-04' } });
    const projectId = body.project.id;
    await server.request('POST', `/api/projects/${projectId}/tasks`, { key, body: { createTasks: Array.from({ length: 30 }, (_, i) => ({ name: `T${i}`, durationMin: 480 })) } });
    const client = createClient({ baseUrl: server.url, headers: { cookie: ada.cookie } });
    client.setCsrfToken(ada.csrfToken);
    const calls: string[] = [];
    const counted: typeof client.call = (name, ...rest) => {
      calls.push(name);
      return client.call(name, ...rest);
    };
    const store = await PlanStore.open(counted, projectId);
    const tasks = store.getState().plan.tasks;
    expect(await store.editTasks(tasks, { progressPct: 50 })).toBe(true);
    calls.length = 0;
    await server.request('PATCH', `/api/projects/${projectId}/tasks/${tasks[29]!.id}`, { key, body: { progressPct: 75 } });
    expect(await store.undo()).toBe(false);
    expect(store.getState().notice).toMatch(new RegExp(`${tasks[29]!.key} was changed by someone else`));
    expect(calls).toEqual(['getProject']);
  });

  it('shows a refused change and keeps nothing of it', async () => {
    const { store, ids, read } = await openPlan(['A']);
    expect(await store.editTask(store.getState().tasksById.get(ids.A!)!, { name: '' })).toBe(false);
    expect(store.getState().notice).toMatch(/name/);
    expect(store.getState().history.undoLabel).toBeNull();
    expect((await read()).tasks[0]!.name).toBe('A');
  });
});
