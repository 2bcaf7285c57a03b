import { randomUUID } from 'node:crypto';
import { locales, type Locale, type ProjectFromTemplate, type Template, type TemplateCreate } from '@gantry/contract';
import type { z } from 'zod';
import type { TemplateSummaryRow } from '../../store/store.js';
import { nowIso, type Actor, type DomainContext } from '../context.js';
import { invalid } from '../errors.js';
import { documentDurationDays } from '../exchange/schedule-document.js';
import type { PlanDocument } from '../exchange/plan-document.js';
import { requireProject } from '../permissions.js';
import { createProjectFromDocument, documentOfProject, type ProjectFromDocument } from '../projects/plan-documents.js';
import { builtinTemplateDocument, findBuiltinTemplate, presentBuiltinTemplate } from './builtin-documents.js';
import { builtinTemplates } from './builtin/index.js';

/** A list's `locale`: one of ours, a regional form of one (`pt-BR` → `pt`), else English. */
export function templateLocale(requested: string | undefined): Locale {
  const language = requested?.toLowerCase().split(/[-_]/)[0];
  // Norwegian Bokmål and Nynorsk have their own codes; the service's Norwegian is `no`.
  const known = language === 'nb' || language === 'nn' ? 'no' : language;
  return locales.find((locale) => locale === known) ?? 'en';
}

function presentUserTemplate(row: TemplateSummaryRow): Template {
  return { id: row.id, kind: 'user', name: row.name, description: row.description, taskCount: row.task_count, durationDays: row.duration_days };
}

/** The workspaces whose saved templates the actor sees: theirs, or only the key's for a workspace-restricted key. */
async function visibleWorkspaceIds(ctx: DomainContext, actor: Actor): Promise<string[]> {
  const workspaces = await ctx.store.q.workspaces.listForUser(actor.userId, actor.workspaceId);
  return workspaces.map((w) => w.id);
}

/** Built-in templates in `locale`, then the ones saved in the actor's workspaces, newest first. */
export async function listTemplates(ctx: DomainContext, actor: Actor, locale: string | undefined): Promise<Template[]> {
  const language = templateLocale(locale);
  const saved = await ctx.store.q.templates.listInWorkspaces(await visibleWorkspaceIds(ctx, actor));
  return [...builtinTemplates.map((template) => presentBuiltinTemplate(template, language)), ...saved.map(presentUserTemplate)];
}

/**
 * The plan of a template: a built-in one in `locale`, starting on `startDate`; a saved one
 * as it was saved (only for people of its workspace: to others it does not exist).
 */
async function templatePlan(ctx: DomainContext, actor: Actor, templateId: string, locale: Locale, startDate: string): Promise<PlanDocument> {
  const builtin = findBuiltinTemplate(templateId);
  if (builtin) return builtinTemplateDocument(builtin, locale, startDate);
  const row = /^[0-9a-f-]{36}$/.test(templateId) ? await ctx.store.q.templates.findById(templateId) : undefined;
  if (!row || !(await visibleWorkspaceIds(ctx, actor)).includes(row.workspace_id)) {
    throw invalid([{ path: 'templateId', message: 'no such template; GET /api/templates lists the ones you can use' }]);
  }
  return JSON.parse(row.document) as PlanDocument;
}

/** `POST /api/projects/from-template`: the template's plan as a new project starting on `startDate`. */
export async function createProjectFromTemplate(ctx: DomainContext, actor: Actor, input: z.output<typeof ProjectFromTemplate>): Promise<Omit<ProjectFromDocument, 'durationMs'>> {
  const document = await templatePlan(ctx, actor, input.templateId, input.locale ?? 'en', input.startDate);
  const { durationMs: _durationMs, ...created } = await createProjectFromDocument(ctx, actor, document, {
    source: 'template',
    name: input.name,
    key: input.key,
    workspaceId: input.workspaceId,
    startDate: input.startDate,
    timeZone: input.tz,
  });
  return created;
}

/**
 * A project's plan as a template: its phases, tasks, durations, links, constraints and
 * calendars — not what belongs to the project's run (progress, actual dates, who is
 * assigned, baselines).
 */
function templateOf(document: PlanDocument): PlanDocument {
  return {
    ...document,
    resources: [],
    assignments: [],
    baselines: [],
    tasks: document.tasks.map((task) => ({ ...task, progressPct: 0, actualStartAt: null, actualFinishAt: null })),
  };
}

/** Saves a project as a template of its workspace (editors of the project). */
export async function saveTemplate(ctx: DomainContext, actor: Actor, input: z.output<typeof TemplateCreate>): Promise<Template> {
  const { project } = await requireProject(ctx, actor, input.projectId, 'editor');
  const document = templateOf(await ctx.store.snapshot((q) => documentOfProject(q, project)));
  const row = {
    id: randomUUID(),
    workspace_id: project.workspace_id,
    name: input.name ?? project.name,
    description: input.description === undefined ? project.description : input.description,
    document: JSON.stringify(document),
    task_count: document.tasks.length,
    duration_days: documentDurationDays(document),
    created_by: actor.userId,
    created_at: nowIso(ctx),
  };
  await ctx.store.q.templates.insert(row);
  return presentUserTemplate(row);
}
