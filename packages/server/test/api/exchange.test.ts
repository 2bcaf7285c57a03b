import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedEvents } from '../support/event-check.js';
import { GOLDEN_MSPDI, notImportedFeatures } from '../support/golden-files.js';
import { eventData, fieldPaths, planningClient, type Body, type PlanTask } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

const FIXTURES = GOLDEN_MSPDI;
const planFileOf = (file: string) => `mpxj-${file.replace(/-mspdi\.xml$|\.xml$/, '')}.json`;
const xmlFiles = readdirSync(FIXTURES).filter((name) => name.endsWith('.xml'));
const files = xmlFiles.filter((file) => notImportedFeatures(planFileOf(file)).length === 0);

interface Fixture {
  tasks: { uid: number; name: string | null; expected: { start: string; finish: string } }[];
}
interface Imported {
  project: { id: string; name: string; key: string };
  taskCount: number;
  conflicts: unknown[];
  report: { dropped: { message: string; count: number }[]; approximated: { message: string; count: number }[] };
}

const utc = (wallClock: string) => `${wallClock.slice(0, 19)}.000Z`;
/** The fixture's normalized plan beside each file. */
const fixtureOf = (file: string) => JSON.parse(readFileSync(join(FIXTURES, planFileOf(file)), 'utf8')) as Fixture;

// docs/api.md › Import and export; issue 14: Microsoft Project round trips.
describe('Microsoft Project import and export', () => {
  let server: TestServer;
  let owner: Awaited<ReturnType<typeof provisionUser>>;
  let reader: Awaited<ReturnType<typeof provisionUser>>;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await provisionUser(server, 'planner@example.com');
    reader = await provisionUser(server, 'reader@example.com', ['--scope', 'read']);
  });
  afterAll(() => server.close());

  const importFile = (data: string, extra: Record<string, unknown> = {}, key = owner.key) =>
    server.request<Body<Imported>>('POST', '/api/projects/import', { key, body: { format: 'mspdi', data, ...extra } });
  const exportFile = (projectId: string, format: string, key = owner.key) => fetch(`${server.url}/api/projects/${projectId}/export?format=${format}`, { headers: { authorization: `Bearer ${key}` } });
  const projectCount = async () => (await server.request<{ projects: unknown[] }>('GET', '/api/projects', { key: owner.key })).body.projects.length;
  /** What a plan is, without what a new project gives new values (ids, keys, times of writing). */
  const planShape = (tasks: PlanTask[]) =>
    tasks.map((t) => ({ name: t.name, type: t.type, durationMin: t.durationMin, startAt: t.startAt, finishAt: t.finishAt, constraintKind: t.constraintKind, constraintDate: t.constraintDate, manuallyScheduled: t.manuallyScheduled }));

  /** The links by task names, in one order (links written together have no order of their own). */
  const linksOf = (plan: { tasks: PlanTask[]; dependencies: { predecessorId: string; successorId: string; type: string; lagMin: number }[] }) => {
    const names = new Map(plan.tasks.map((t) => [t.id, t.name]));
    return plan.dependencies.map((d) => `${names.get(d.predecessorId)} ${d.type}${d.lagMin} ${names.get(d.successorId)}`).sort();
  };

  for (const file of xmlFiles.filter((name) => !files.includes(name))) it.skip(`${file}: ${notImportedFeatures(planFileOf(file)).join(', ')} not imported yet`);

  it.each(files)('%s: imports with the dates Microsoft Project computed, and exports to a file that imports as the same plan', async (file) => {
    const xml = readFileSync(join(FIXTURES, file), 'utf8');
    const imported = await importFile(xml);
    expect(imported.status, JSON.stringify(imported.body).slice(0, 2000)).toBe(201);
    const client = planningClient(server, owner.key);
    const full = await client.fullProject(imported.body.project.id);
    const expected = fixtureOf(file).tasks.filter((t) => t.uid !== 0 && t.name !== null);
    expect(imported.body.taskCount).toBe(expected.length);
    // The plan lists tasks in outline order, as the file does.
    expect(full.body.tasks.map((t) => [t.name, t.startAt, t.finishAt])).toEqual(expected.map((t) => [t.name, utc(t.expected.start), utc(t.expected.finish)]));

    const events = await storedEvents(server, imported.body.project.id);
    expect(events[0]!.type).toBe('project.created');
    expect(eventData(events[0]!)).toMatchObject({ source: 'import' });
    expect(events.filter((e) => e.type === 'task.created')).toHaveLength(expected.length);

    const exported = await exportFile(imported.body.project.id, 'mspdi');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(exported.headers.get('content-disposition')).toBe(`attachment; filename="${imported.body.project.key}.xml"`);
    const again = await importFile(await exported.text(), { name: `${imported.body.project.name} again` });
    expect(again.status, JSON.stringify(again.body).slice(0, 2000)).toBe(201);
    const second = await client.fullProject(again.body.project.id);
    expect(planShape(second.body.tasks)).toEqual(planShape(full.body.tasks));
    expect(linksOf(second.body)).toEqual(linksOf(full.body));
  });

  it('takes the file as the body itself (curl --data-binary @plan.xml), and XML nowhere else', async () => {
    const xml = readFileSync(join(FIXTURES, 'mspdirelations.xml'), 'utf8');
    const sent = await server.request<Body<Imported>>('POST', '/api/projects/import', { key: owner.key, rawBody: xml, headers: { 'content-type': 'application/xml' } });
    expect(sent.status, JSON.stringify(sent.body).slice(0, 500)).toBe(201);
    expect(sent.body.taskCount).toBe(fixtureOf('mspdirelations.xml').tasks.filter((t) => t.uid !== 0).length);
    const elsewhere = await server.request<Body<unknown>>('POST', '/api/projects', { key: owner.key, rawBody: '<Project/>', headers: { 'content-type': 'application/xml' } });
    expect(elsewhere.status).toBe(400);
    expect(fieldPaths(elsewhere.body)).toEqual(['headers.content-type']);
  });

  it('imports tasks without a name (Microsoft Project allows them) as "Task <ID>", and says so', async () => {
    const xml = `<?xml version="1.0"?><Project xmlns="http://schemas.microsoft.com/project"><Title>  </Title><StartDate>2026-03-02T08:00:00</StartDate><Tasks>
      <Task><UID>1</UID><ID>1</ID><Name>Named</Name><OutlineLevel>1</OutlineLevel><Duration>PT8H0M0S</Duration></Task>
      <Task><UID>2</UID><ID>2</ID><OutlineLevel>1</OutlineLevel><Duration>PT16H0M0S</Duration></Task>
      <Task><UID>3</UID><ID>3</ID><Name>   </Name><OutlineLevel>1</OutlineLevel><Duration>PT8H0M0S</Duration></Task></Tasks></Project>`;
    const imported = await importFile(xml);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body.project.name).toBe('Imported plan');
    expect((await planningClient(server, owner.key).fullProject(imported.body.project.id)).body.tasks.map((t) => t.name)).toEqual(['Named', 'Task 2', 'Task 3']);
    expect(imported.body.report.approximated).toContainEqual(expect.objectContaining({ message: 'tasks without a name are named "Task" and their row number (ID)', count: 2 }));
  });

  it('exports a spreadsheet with one row per task', async () => {
    const imported = await importFile(readFileSync(join(FIXTURES, files[0]!), 'utf8'), { name: 'Spreadsheet' });
    const csv = await exportFile(imported.body.project.id, 'csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await csv.text()).trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^Outline,Name,/);
    expect(lines).toHaveLength(imported.body.taskCount + 1);
  });

  it.each([
    ['entity expansion', `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><Project xmlns="http://schemas.microsoft.com/project"><Name>&lol2;</Name></Project>`],
    ['an external entity', `<?xml version="1.0"?><!DOCTYPE p [<!ENTITY x SYSTEM "file:///etc/passwd">]><Project xmlns="http://schemas.microsoft.com/project"><Name>&x;</Name></Project>`],
    ['malformed XML', `<Project xmlns="http://schemas.microsoft.com/project"><Tasks><Task></Tasks>`],
    ['another XML document', `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>`],
    ['no XML at all', 'Name,Start\nA,2026-03-02'],
  ])('refuses %s with a clear 400 and creates nothing', async (_what, data) => {
    const before = await projectCount();
    const refused = await importFile(data);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_request');
    expect(fieldPaths(refused.body)).toEqual(['data']);
    expect(await projectCount()).toBe(before);
  });

  it('refuses a file over the request limit and bad fields with a 400 naming them', async () => {
    const before = await projectCount();
    const huge = await importFile(`<Project xmlns="http://schemas.microsoft.com/project"><Notes>${'x'.repeat(4.5 * 1024 * 1024)}</Notes></Project>`);
    expect(huge.status).toBe(400);
    expect(fieldPaths(huge.body)).toEqual(['data']);
    const hugeXml = await server.request<Body<Imported>>('POST', '/api/projects/import', { key: owner.key, rawBody: `<Project>${' '.repeat(4.5 * 1024 * 1024)}</Project>`, headers: { 'content-type': 'application/xml' } });
    expect(fieldPaths(hugeXml.body)).toEqual(['data']);
    expect(await projectCount()).toBe(before);
    // Elsewhere a body over the limit stays a 413.
    expect((await server.request('POST', '/api/projects', { key: owner.key, rawBody: `{"name":"${'x'.repeat(4.5 * 1024 * 1024)}"}`, headers: { 'content-type': 'application/json' } })).status).toBe(413);
    const bad = await server.request<Body<Imported>>('POST', '/api/projects/import', { key: owner.key, body: { format: 'mpp', key: '1' } });
    expect(fieldPaths(bad.body).sort()).toEqual(['data', 'format', 'key']);
  });

  it('needs a write credential to import and read access to export', async () => {
    const xml = readFileSync(join(FIXTURES, files[0]!), 'utf8');
    expect((await importFile(xml, {}, reader.key)).status).toBe(403);
    const imported = await importFile(xml, { name: 'Not yours' });
    const stranger = await provisionUser(server, 'stranger@example.com');
    expect((await exportFile(imported.body.project.id, 'mspdi', stranger.key)).status).toBe(404);
    expect((await exportFile(imported.body.project.id, 'pdf')).status).toBe(400);
  });
});
