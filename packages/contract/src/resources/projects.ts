import { z } from 'zod';
import { DateOnly, DateTime, fieldChanges, QueryInteger, Uuid } from '../common.js';
import { limits } from '../limits.js';
import { Calendar, TimeZoneName } from './calendars.js';
import { ProjectRole } from './members.js';
import { Resource } from './resources.js';
import { Assignment, Baseline, Conflict, Dependency, PlanTask } from './tasks.js';

export const ScheduleFrom = z.enum(['forward', 'backward']);

export const Project = z.object({
  id: Uuid,
  workspaceId: Uuid,
  key: z.string().describe('Project key; task keys are `<key>-<number>`.'),
  keyLocked: z.boolean().describe('True once the first task exists: task keys are derived from the project key, so it can no longer change.'),
  name: z.string(),
  description: z.string().nullable(),
  startDate: DateOnly,
  calendarId: Uuid.nullable().describe('The project calendar, one of the project\'s calendars; null = the built-in Standard calendar (UTC).'),
  currency: z.string(),
  scheduleFrom: ScheduleFrom,
  deadline: DateOnly.nullable(),
  color: z.string().nullable(),
  settings: z.record(z.string(), z.unknown()),
  archivedAt: DateTime.nullable(),
  createdBy: Uuid.nullable(),
  createdAt: DateTime,
  updatedAt: DateTime,
});
export type Project = z.infer<typeof Project>;

/** The `changes` of `project.updated`: only the fields that changed, each `{from, to}`. */
export const ProjectChanges = fieldChanges(Project.shape);
export type ProjectChanges = z.infer<typeof ProjectChanges>;

export const ProjectListItem = Project.extend({
  workspaceName: z.string(),
  role: ProjectRole.describe("The caller's effective role on the project."),
  taskCount: z.number().int(),
  finishAt: DateTime.describe('Latest task finish; the project start when it has no tasks.'),
});
export type ProjectListItem = z.infer<typeof ProjectListItem>;

/** A project's name as a client sends it. */
export const ProjectName = z.string().trim().min(1).max(limits.nameMaxLength);

/** A project key as a client sends it: stored upper-case. */
export const ProjectKey = z
  .string()
  .regex(limits.projectKeyPattern, '2-5 letters or digits, starting with a letter')
  .transform((key) => key.toUpperCase());
const currency = z
  .string()
  .regex(/^[A-Za-z]{3}$/, 'an ISO 4217 code such as USD')
  .transform((code) => code.toUpperCase());
const color = z.string().max(32);
const description = z.string().max(limits.descriptionMaxLength);

export const ProjectCreate = z.object({
  name: ProjectName,
  workspaceId: Uuid.optional().describe("Defaults to the caller's personal workspace (or the key's workspace for a workspace-restricted key)."),
  key: ProjectKey.optional().describe('Derived from the name when omitted; stored upper-case.'),
  description: description.nullable().optional(),
  startDate: DateOnly.optional().describe('Defaults to today (UTC).'),
  deadline: DateOnly.nullable().optional(),
  currency: currency.optional().describe('Defaults to USD.'),
  scheduleFrom: ScheduleFrom.optional().describe('Defaults to `forward`; `backward` needs a `deadline`.'),
  color: color.nullable().optional(),
  timeZone: TimeZoneName.optional().describe('Additive: the project gets a calendar "Standard" (the Standard week) in this zone, as its calendar. Omitted: the built-in Standard calendar in UTC.'),
});

export const ProjectPatch = z.object({
  name: ProjectName.optional(),
  key: ProjectKey.optional().describe('Accepted only while `keyLocked` is false.'),
  description: description.nullable().optional(),
  startDate: DateOnly.optional(),
  deadline: DateOnly.nullable().optional(),
  currency: currency.optional(),
  scheduleFrom: ScheduleFrom.optional(),
  color: color.nullable().optional(),
  calendarId: Uuid.nullable().optional().describe('One of the project\'s calendars, or null for the built-in Standard calendar; a change reschedules every task.'),
  archived: z.boolean().optional().describe('true archives the project (owners only); false restores it.'),
});

export const ProjectListQuery = z.object({
  archived: z.literal('1').optional().describe('`1` includes archived projects.'),
});

export const ProjectResponse = z.object({ project: Project });
export const ProjectList = z.object({ projects: z.array(ProjectListItem) });
export const ProjectPatchResult = z.object({
  project: Project,
  conflicts: z.array(Conflict),
  rescheduled: z.boolean().describe('True when the schedule was recalculated because start date, calendar or direction changed.'),
});

export const BaselineWithTasks = Baseline.extend({
  tasks: z.array(
    z.object({
      taskId: Uuid,
      startAt: DateTime.nullable(),
      finishAt: DateTime.nullable(),
      durationMin: z.number().int(),
      workMin: z.number().int(),
      costFixed: z.number(),
    }),
  ),
});

export const FullProject = z.object({
  project: Project,
  tasks: z.array(PlanTask).describe('In outline order: parents before their subtasks, siblings by sortKey.'),
  dependencies: z.array(Dependency),
  resources: z.array(Resource).describe('Additive: who can be assigned.'),
  assignments: z.array(Assignment).describe('Additive: who is assigned to which task.'),
  baselines: z.array(BaselineWithTasks).describe('Additive: saved baselines with their task values, to compare with the plan.'),
  calendars: z.array(Calendar).describe('Additive: the working calendars of the project (oldest first), which `calendarId` of the project and of tasks name.'),
});
export type FullProject = z.infer<typeof FullProject>;

export const ProjectDuplicate = z.object({
  name: ProjectName.optional().describe('Defaults to the source\'s name followed by " (copy)", shortened to fit the length limit.'),
  key: ProjectKey.optional().describe('Derived from the name when omitted; stored upper-case.'),
  workspaceId: Uuid.optional().describe("Defaults to the source's workspace when the caller is a member of it, else as for a new project."),
  startDate: DateOnly.optional().describe("Defaults to the source's; another date moves the whole plan by as many days."),
});

/** A project made whole in one write (duplicated, from a template, imported): the project, its size and the conflicts of its schedule. */
export const NewProjectResult = z.object({
  project: Project,
  taskCount: z.number().int(),
  conflicts: z.array(Conflict).describe('Scheduling conflicts of the new plan, as after any write.'),
});

export const Version = z.object({
  id: Uuid,
  projectId: Uuid,
  name: z.string().nullable().describe('Null for versions saved without a name.'),
  taskCount: z.number().int(),
  createdBy: Uuid.nullable(),
  createdAt: DateTime,
});
export type Version = z.infer<typeof Version>;

export const VersionCreate = z.object({ name: ProjectName.optional() });
export const VersionResponse = z.object({ version: Version });
export const VersionList = z.object({ versions: z.array(Version).describe('Newest first.') });

export const RestoreConfirmation = z.object({
  confirm: z
    .string({ error: 'is required: the key of the project, e.g. WEB' })
    .max(100)
    .describe('The project key, exactly: the person\'s explicit confirmation (a restore deletes the tasks created since the version).'),
});

export const VersionRestored = ProjectPatchResult.extend({
  rescheduled: z.literal(true),
  taskCount: z.number().int(),
  savedBefore: Version.describe('The version saved automatically ("Before restore") just before: restoring it undoes the restore.'),
});

export const ForecastQuery = z.object({
  runs: QueryInteger(1, limits.forecastRunsMax, limits.forecastRunsDefault).describe(
    `Plans to simulate; fewer for large plans (at most ${limits.forecastTaskRunsMax.toLocaleString('en')} task schedulings in all): \`runs\` in the answer says how many ran.`,
  ),
  seed: QueryInteger(0, 2_147_483_647, 1).describe('The random seed: the same plan and seed give the same forecast.'),
});

export const Forecast = z
  .object({
    runs: z.number().int(),
    seed: z.number().int(),
    uncertainTaskCount: z.number().int().describe('Tasks with both an optimistic and a pessimistic duration: the ones whose duration is drawn.'),
    finishAt: DateTime.describe("The plan's own finish, with every duration as planned."),
    p50FinishAt: DateTime.describe('Half of the simulated plans finish by then.'),
    p80FinishAt: DateTime.describe('80 % of the simulated plans finish by then.'),
    p95FinishAt: DateTime.describe('95 % of the simulated plans finish by then.'),
  })
  .describe(
    'Additive: a Monte Carlo forecast of the project finish. Each run draws every uncertain duration from its Beta-PERT distribution (optimistic, planned, pessimistic) and recalculates the plan.',
  );
export type Forecast = z.infer<typeof Forecast>;
export const ForecastResponse = z.object({ forecast: Forecast });
