import { createCalendar, STANDARD_CALENDAR, toEpochMinutes, toIsoString } from '@gantry/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinTemplates } from '../../src/domain/templates/builtin/index.js';
import { storedEvents } from '../support/event-check.js';
import { eventData, fieldPaths, planningClient, type Body, type PlanTask } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

interface Template {
  id: string;
  kind: 'builtin' | 'user';
  name: string;
  description: string | null;
  taskCount: number;
  durationDays: number;
}
interface Created {
  project: { id: string; name: string; key: string; calendarId: string | null; startDate: string };
  taskCount: number;
  conflicts: unknown[];
}

const standard = createCalendar(STANDARD_CALENDAR);
/** The finish of a plan `days` working days long that starts on `date` (Standard calendar, UTC). */
const finishAfter = (date: string, days: number) => toIsoString(standard.addWork(standard.nextWorkStart(toEpochMinutes(`${date}T00:00:00.000Z`)!), days * 480));

// docs/api.md › Templates; issue 14: templates in 24 languages, from-template with locale and tz.
describe('templates', () => {
  let server: TestServer;
  let owner: Awaited<ReturnType<typeof provisionUser>>;
  let reader: Awaited<ReturnType<typeof provisionUser>>;
  let stranger: Awaited<ReturnType<typeof provisionUser>>;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await provisionUser(server, 'planner@example.com');
    reader = await provisionUser(server, 'reader@example.com', ['--scope', 'read']);
    stranger = await provisionUser(server, 'stranger@example.com');
  });
  afterAll(() => server.close());

  const list = (key: string, locale?: string) => server.request<Body<{ templates: Template[] }>>('GET', `/api/templates${locale ? `?locale=${locale}` : ''}`, { key });
  const fromTemplate = (body: Record<string, unknown>, key = owner.key) => server.request<Body<Created>>('POST', '/api/projects/from-template', { key, body });
  const projectCount = async () => (await server.request<{ projects: unknown[] }>('GET', '/api/projects', { key: owner.key })).body.projects.length;

  it('lists the eight built-in templates with their size and length, in the language asked for', async () => {
    const english = await list(reader.key);
    expect(english.status).toBe(200);
    const builtin = english.body.templates.filter((t) => t.kind === 'builtin');
    expect(builtin.map((t) => t.id)).toEqual(builtinTemplates.map((t) => `builtin:${t.slug}`));
    for (const template of builtin) {
      expect(template.name).toBe(builtinTemplates.find((t) => `builtin:${t.slug}` === template.id)!.texts.en.name);
      expect(template.taskCount).toBeGreaterThanOrEqual(15);
      expect(template.durationDays).toBeGreaterThan(5);
    }
    const german = await list(reader.key, 'de');
    const brazilian = await list(reader.key, 'pt-BR');
    const unknown = await list(reader.key, 'tlh');
    const release = (answer: typeof english) => answer.body.templates.find((t) => t.id === 'builtin:software-release')!;
    expect(release(german).name).toBe(builtinTemplates.find((t) => t.slug === 'software-release')!.texts.de.name);
    expect(release(german).name).not.toBe(release(english).name);
    expect(release(brazilian).name).toBe(builtinTemplates.find((t) => t.slug === 'software-release')!.texts.pt.name);
    expect(release(unknown).name).toBe(release(english).name);
    // The length does not depend on the language.
    expect(german.body.templates.map((t) => t.durationDays)).toEqual(english.body.templates.map((t) => t.durationDays));
  });

  it.each(builtinTemplates.map((t) => [t.slug]))('%s: a project made from it finishes durationDays working days after its start', async (slug) => {
    const template = (await list(owner.key)).body.templates.find((t) => t.id === `builtin:${slug}`)!;
    const created = await fromTemplate({ templateId: template.id, startDate: '2026-03-02' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.taskCount).toBe(template.taskCount);
    expect(created.body.project.name).toBe(template.name);
    const full = await planningClient(server, owner.key).fullProject(created.body.project.id);
    expect(full.body.tasks).toHaveLength(template.taskCount);
    const finish = full.body.tasks.map((t) => t.finishAt!).sort().at(-1);
    expect(finish).toBe(finishAfter('2026-03-02', template.durationDays));
    expect(full.body.tasks.map((t) => t.startAt!).sort()[0]).toBe('2026-03-02T08:00:00.000Z');
  });

  it('writes the task names in the locale asked for, and announces the project as made from a template', async () => {
    const source = builtinTemplates.find((t) => t.slug === 'hiring')!;
    const created = await fromTemplate({ templateId: 'builtin:hiring', startDate: '2026-03-02', locale: 'ja', key: 'HIRE' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.project).toMatchObject({ name: source.texts.ja.name, key: 'HIRE' });
    const full = await planningClient(server, owner.key).fullProject(created.body.project.id);
    expect(full.body.tasks.map((t: PlanTask) => t.name).sort()).toEqual(Object.values(source.texts.ja.tasks).sort());
    expect(full.body.dependencies).toHaveLength(source.links.length);

    const events = await storedEvents(server, created.body.project.id);
    expect(events[0]!.type).toBe('project.created');
    expect(eventData(events[0]!)).toMatchObject({ source: 'template', project: { id: created.body.project.id } });
    expect(events.filter((e) => e.type === 'task.created')).toHaveLength(source.tasks.length);
    expect(events.filter((e) => e.type === 'dependency.created')).toHaveLength(source.links.length);
  });

  it('puts the working hours in the time zone asked for', async () => {
    const newYork = await fromTemplate({ templateId: 'builtin:event', startDate: '2026-03-02', tz: 'America/New_York', name: 'Summit NY' });
    expect(newYork.status, JSON.stringify(newYork.body)).toBe(201);
    expect(newYork.body.project.calendarId).not.toBeNull();
    const tokyo = await fromTemplate({ templateId: 'builtin:event', startDate: '2026-03-02', tz: 'Asia/Tokyo', name: 'Summit Tokyo' });
    const client = planningClient(server, owner.key);
    const firstStart = async (id: string) => (await client.fullProject(id)).body.tasks.map((t) => t.startAt!).sort()[0];
    // 08:00 on Monday 2 March 2026: EST is UTC-5, JST UTC+9.
    expect(await firstStart(newYork.body.project.id)).toBe('2026-03-02T13:00:00.000Z');
    expect(await firstStart(tokyo.body.project.id)).toBe('2026-03-01T23:00:00.000Z');
  });

  it('refuses bad input with the fields named, and creates nothing', async () => {
    const before = await projectCount();
    const unknown = await fromTemplate({ templateId: 'builtin:moon-landing', startDate: '2026-03-02' });
    expect(unknown.status).toBe(400);
    expect(fieldPaths(unknown.body)).toEqual(['templateId']);
    const bad = await fromTemplate({ templateId: 'builtin:event', startDate: '2026-02-30', locale: 'xx', tz: 'Mars/Olympus_Mons', key: '1A' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_request');
    expect(fieldPaths(bad.body).sort()).toEqual(['key', 'locale', 'startDate', 'tz']);
    const missing = await fromTemplate({});
    expect(fieldPaths(missing.body).sort()).toEqual(['startDate', 'templateId']);
    expect(await projectCount()).toBe(before);
  });

  it('needs a write credential and a workspace of the caller', async () => {
    const readOnly = await fromTemplate({ templateId: 'builtin:event', startDate: '2026-03-02' }, reader.key);
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error).toBe('forbidden');
    const elsewhere = await fromTemplate({ templateId: 'builtin:event', startDate: '2026-03-02', workspaceId: stranger.personalWorkspaceId });
    expect(elsewhere.status).toBe(404);
  });

  describe('templates saved from a project', () => {
    it('saves a plan as a template of its workspace, without its progress, and makes projects from it', async () => {
      const client = planningClient(server, owner.key);
      const project = await client.createProject({ name: 'Audit', key: 'AUD' });
      const newTask = async (body: Record<string, unknown>) => (await client.createTask(project.id, body)).body.tasks.find((t) => t.name === body.name)!;
      const phase = await newTask({ name: 'Fieldwork' });
      const a = await newTask({ name: 'Interviews', durationMin: 960, parentId: phase.id, progressPct: 50 });
      const b = await newTask({ name: 'Report', durationMin: 1440, parentId: phase.id });
      const linked = await client.link(project.id, { predecessorId: a.id, successorId: b.id });
      expect(linked.status, JSON.stringify(linked.body)).toBe(201);

      const saved = await server.request<Body<{ template: Template }>>('POST', '/api/templates', { key: owner.key, body: { projectId: project.id, name: 'Audit plan' } });
      expect(saved.status, JSON.stringify(saved.body)).toBe(201);
      expect(saved.body.template).toMatchObject({ kind: 'user', name: 'Audit plan', taskCount: 3, durationDays: 5 });

      expect((await list(owner.key)).body.templates.at(-1)).toEqual(saved.body.template);
      expect((await list(stranger.key)).body.templates.some((t) => t.id === saved.body.template.id)).toBe(false);
      const foreign = await fromTemplate({ templateId: saved.body.template.id, startDate: '2026-04-06' }, stranger.key);
      expect(fieldPaths(foreign.body)).toEqual(['templateId']);

      const created = await fromTemplate({ templateId: saved.body.template.id, startDate: '2026-04-06', name: 'Audit 2026' });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const tasks = (await client.fullProject(created.body.project.id)).body.tasks;
      expect(tasks.map((t) => [t.name, t.progressPct])).toEqual([
        ['Fieldwork', 0],
        ['Interviews', 0],
        ['Report', 0],
      ]);
      expect(tasks.map((t) => t.finishAt!).sort().at(-1)).toBe(finishAfter('2026-04-06', 5));
    });

    it('refuses viewers, read-only keys and unknown projects', async () => {
      const client = planningClient(server, owner.key);
      const project = await client.createProject({ name: 'Private', key: 'PRV' });
      expect((await server.cli('project', 'add-member', '--project', project.id, '--email', 'reader@example.com', '--role', 'viewer')).code).toBe(0);
      const viewer = await provisionUser(server, 'viewer-writer@example.com');
      expect((await server.cli('project', 'add-member', '--project', project.id, '--email', 'viewer-writer@example.com', '--role', 'viewer')).code).toBe(0);
      const save = (key: string, projectId = project.id) => server.request<Body<{ template: Template }>>('POST', '/api/templates', { key, body: { projectId } });
      expect((await save(reader.key)).status).toBe(403);
      expect((await save(viewer.key)).body).toMatchObject({ error: 'forbidden' });
      expect((await save(stranger.key)).status).toBe(404);
      expect(fieldPaths((await save(owner.key, 'not-a-uuid')).body)).toEqual(['projectId']);
    });
  });
});
