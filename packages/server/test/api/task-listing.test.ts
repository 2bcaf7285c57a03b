import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, fieldPaths, planningClient, type PlanningClient, type Task } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

// docs/api.md › Listing (GET …/tasks query parameters) and › Limits (task list page size).
describe('task listing', () => {
  let server: TestServer;
  let client: PlanningClient;
  let projectId: string;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    const owner = await provisionUser(server, 'lister@example.com');
    client = planningClient(server, owner.key);
    projectId = (await client.createProject({ name: 'Listing', key: 'LST' })).id;
    // 230 tasks in one change set: numbers 1..230.
    const createTasks = Array.from({ length: 230 }, (_, i) => ({
      name: i % 10 === 0 ? `Alpha Review ${i + 1}` : `task ${i + 1}`,
      externalId: `ext-${i + 1}`,
    }));
    expectStatus(await client.changeSet(projectId, { createTasks }), 200);
  });
  afterAll(() => server.close());

  async function walk(query: string): Promise<Task[]> {
    const seen: Task[] = [];
    let cursor: string | null = null;
    for (let guard = 0; guard < 100; guard += 1) {
      const response = await client.listTasks(projectId, `${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expectStatus(response, 200);
      seen.push(...response.body.tasks);
      cursor = response.body.nextCursor;
      if (!cursor) return seen;
    }
    throw new Error('the cursor walk did not end');
  }

  it('defaults to 100 tasks by number with a nextCursor; read shape without sortKey', async () => {
    const response = await client.listTasks(projectId);
    expectStatus(response, 200);
    expect(response.body.tasks).toHaveLength(100);
    expect(response.body.tasks.map((t) => t.number)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(response.body.nextCursor).toEqual(expect.any(String));
    const first = response.body.tasks[0] as Task;
    expect(first).toMatchObject({ projectId, completed: false, assignees: [], key: 'LST-1' });
    expect(first).not.toHaveProperty('sortKey');
  });

  it('limit must be a whole number 1-500, written in plain digits', async () => {
    for (const limit of ['0', '501', '-1', 'abc', '1.5', '0x10', '1e2', '', '+5']) {
      const response = await client.listTasks(projectId, `limit=${limit}`);
      expectStatus(response, 400);
      expect(fieldPaths(response.body)).toContain('limit');
      const { message } = response.body.details!.fields!.find((field) => field.path === 'limit')!;
      expect(message, limit).toBe(limit === '0' || limit === '501' ? 'must be from 1 to 500' : 'must be a whole number');
    }
    const max = await client.listTasks(projectId, 'limit=500');
    expect(max.body.tasks).toHaveLength(230);
    expect(max.body.nextCursor).toBeNull();
    const one = await client.listTasks(projectId, 'limit=1');
    expect(one.body.tasks).toHaveLength(1);
  });

  it('cursor walks every task exactly once, for number and -number', async () => {
    const up = await walk('limit=37');
    expect(up.map((t) => t.number)).toEqual(Array.from({ length: 230 }, (_, i) => i + 1));
    const down = await walk('limit=50&sort=-number');
    expect(down.map((t) => t.number)).toEqual(Array.from({ length: 230 }, (_, i) => 230 - i));
    // A page that ends exactly at the last task has no further page.
    const exact = await client.listTasks(projectId, 'limit=230');
    expect(exact.body.nextCursor).toBeNull();
  });

  it('pagination stays complete while another client creates tasks', async () => {
    const before = (await walk('limit=500')).map((t) => t.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let creating = true;
    const writer = (async () => {
      let n = 0;
      while (creating && n < 60) {
        n += 1;
        const created = await client.createTask(projectId, { name: `concurrent ${n}` });
        expectStatus(created, 201);
      }
    })();
    for (let guard = 0; guard < 500; guard += 1) {
      const response = await client.listTasks(projectId, `limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expectStatus(response, 200);
      seen.push(...response.body.tasks.map((t) => t.id));
      cursor = response.body.nextCursor;
      if (!cursor) break;
    }
    creating = false;
    await writer;
    expect(new Set(seen).size).toBe(seen.length);
    const missing = before.filter((id) => !seen.includes(id));
    expect(missing).toEqual([]);
  });

  it('sort=-updatedAt returns the first page only; a cursor with it is 400', async () => {
    const target = (await client.listTasks(projectId, 'limit=1&sort=number&externalId=ext-5')).body.tasks[0] as Task;
    server.clock.advance(1000);
    expectStatus(await client.patchTask(projectId, target.id, { notes: 'touched' }), 200);
    const response = await client.listTasks(projectId, 'sort=-updatedAt&limit=10');
    expectStatus(response, 200);
    expect(response.body.tasks[0]?.id).toBe(target.id);
    expect(response.body.nextCursor).toBeNull();
    const cursor = (await client.listTasks(projectId, 'limit=10')).body.nextCursor as string;
    expectStatus(await client.listTasks(projectId, `sort=-updatedAt&cursor=${cursor}`), 400);
    // A cursor of one sort is not a cursor of another.
    expectStatus(await client.listTasks(projectId, `sort=-number&cursor=${cursor}`), 400);
    expectStatus(await client.listTasks(projectId, 'sort=name'), 400);
  });

  it('bad cursors are 400 on cursor', async () => {
    for (const cursor of ['garbage', 'eyJzIjoibnVtYmVyIn0', Buffer.from(JSON.stringify({ s: 'number', n: 'x' })).toString('base64url')]) {
      const response = await client.listTasks(projectId, `cursor=${cursor}`);
      expectStatus(response, 400);
      expect(fieldPaths(response.body)).toContain('cursor');
    }
  });

  // The same tasks on SQLite and PostgreSQL (CI runs this file on both): names are folded
  // by the server, not by either database's lower().
  it('q is case-insensitive for all of Unicode, alike on both stores', async () => {
    const project = await client.createProject({ name: 'Unicode search' });
    const names = ['Été Straße', 'ΣΟΦΊΑ review', 'Ｆｕｌｌ width', 'ﬁnal check', 'İstanbul trip', 'plain'];
    for (const name of names) expectStatus(await client.createTask(project.id, { name }), 201);
    const found = async (q: string) => (await client.listTasks(project.id, `q=${encodeURIComponent(q)}`)).body.tasks.map((t) => t.name);
    expect(await found('été')).toEqual(['Été Straße']);
    expect(await found('ÉTÉ')).toEqual(['Été Straße']);
    expect(await found('STRASSE')).toEqual(['Été Straße']);
    expect(await found('straße')).toEqual(['Été Straße']);
    expect(await found('σοφία')).toEqual(['ΣΟΦΊΑ review']);
    expect(await found('full WIDTH')).toEqual(['Ｆｕｌｌ width']);
    expect(await found('FINAL')).toEqual(['ﬁnal check']);
    expect(await found('i̇stanbul')).toEqual(['İstanbul trip']);
    // Decomposed input (e + combining acute) finds the composed name.
    expect(await found('e\u0301te\u0301')).toEqual(['Été Straße']);
    expect(await found('x')).toEqual([]);
  });

  it('filters: externalId exact, q case-insensitive contains, completed, updatedSince', async () => {
    const exact = await client.listTasks(projectId, 'externalId=ext-12');
    expect(exact.body.tasks.map((t) => t.externalId)).toEqual(['ext-12']);
    expect((await client.listTasks(projectId, 'externalId=ext-1')).body.tasks.map((t) => t.number)).toEqual([1]);
    expect((await client.listTasks(projectId, 'externalId=EXT-12')).body.tasks).toEqual([]);

    const q = await client.listTasks(projectId, 'q=aLPHA%20rev&limit=500');
    expect(q.body.tasks.length).toBe(23);
    expect(q.body.tasks.every((t) => t.name.startsWith('Alpha Review'))).toBe(true);
    // Wildcards are literal.
    expect((await client.listTasks(projectId, 'q=%25')).body.tasks).toEqual([]);
    expect((await client.listTasks(projectId, 'q=_')).body.tasks).toEqual([]);

    const done = (await client.listTasks(projectId, 'externalId=ext-7')).body.tasks[0] as Task;
    expectStatus(await client.patchTask(projectId, done.id, { progressPct: 100 }), 200);
    const completed = await client.listTasks(projectId, 'completed=true&limit=500');
    expect(completed.body.tasks.map((t) => t.id)).toEqual([done.id]);
    const open = await client.listTasks(projectId, 'completed=false&limit=500');
    expect(open.body.tasks.some((t) => t.id === done.id)).toBe(false);
    expect(open.body.tasks.every((t) => !t.completed)).toBe(true);
    expectStatus(await client.listTasks(projectId, 'completed=yes'), 400);

    server.clock.advance(60_000);
    const since = server.clock.now().toISOString();
    server.clock.advance(1000);
    const touched = (await client.listTasks(projectId, 'externalId=ext-100')).body.tasks[0] as Task;
    expectStatus(await client.patchTask(projectId, touched.id, { name: 'touched later' }), 200);
    const recent = await client.listTasks(projectId, `updatedSince=${encodeURIComponent(since)}&limit=500`);
    expect(recent.body.tasks.map((t) => t.id)).toEqual([touched.id]);
    // Offsets other than Z are accepted and compared as instants.
    const offset = since.replace('Z', '+00:00');
    expect((await client.listTasks(projectId, `updatedSince=${encodeURIComponent(offset)}`)).body.tasks.map((t) => t.id)).toEqual([touched.id]);
    expectStatus(await client.listTasks(projectId, 'updatedSince=yesterday'), 400);
  });
});
