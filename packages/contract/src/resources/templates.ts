import { z } from 'zod';
import { DateOnly, Uuid } from '../common.js';
import { limits, locales } from '../limits.js';
import { TimeZoneName } from './calendars.js';
import { ProjectKey, ProjectName } from './projects.js';

export const Template = z.object({
  id: z.string().describe('`builtin:<slug>`, or the id of a template saved by a user.'),
  kind: z.enum(['builtin', 'user']),
  name: z.string(),
  description: z.string().nullable(),
  taskCount: z.number().int().describe('Tasks the new project gets, phases and milestones included.'),
  durationDays: z.number().int().describe('Working days from the start to the finish of a project made from it (computed by the scheduling engine).'),
});
export type Template = z.infer<typeof Template>;

export const TemplateListQuery = z.object({
  locale: z
    .string()
    .max(35)
    .optional()
    .describe(`Language of the built-in templates' texts: one of ${locales.join(', ')}; a regional form such as \`pt-BR\` reads as its language, anything else as \`en\`.`),
});
export const TemplateList = z.object({ templates: z.array(Template).describe("Built-in templates first, then those saved in the caller's workspaces, newest first.") });


export const ProjectFromTemplate = z.object({
  templateId: z.string().min(1).max(200).describe('An id from the template list.'),
  startDate: DateOnly,
  name: ProjectName.optional().describe("Defaults to the template's name in `locale`."),
  key: ProjectKey.optional().describe('Derived from the name when omitted.'),
  locale: z.enum(locales).optional().describe('Language of the template texts (task names); default `en`. Templates saved by users keep their own texts.'),
  tz: TimeZoneName.optional().describe('IANA time zone of the project calendar: the working hours (08:00-12:00, 13:00-17:00, Monday to Friday) are in this zone. Default UTC.'),
  workspaceId: Uuid.optional().describe("Defaults to the caller's personal workspace (or the key's workspace for a workspace-restricted key)."),
});

export const TemplateCreate = z.object({
  projectId: Uuid.describe('The project to save as a template: its phases, tasks, durations, links, constraints and calendars (not progress, assignments or baselines).'),
  name: ProjectName.optional().describe("Defaults to the project's name."),
  description: z.string().max(limits.descriptionMaxLength).nullable().optional(),
});
export const TemplateResponse = z.object({ template: Template });
