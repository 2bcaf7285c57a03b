import {
  BaselineCreate,
  CalendarCreate,
  CalendarPatch,
  ChangeSet,
  CommentCreate,
  CommentList,
  jsonSchemaOf,
  LevelingRequest,
  ProjectDuplicate,
  ProjectListQuery,
  ResourcePatch,
  TaskListQuery,
  VersionCreate,
  TaskResponse,
  Uuid,
  type BaselineResponse,
  type Calendar,
  type CalendarList,
  type CalendarPatchResult,
  type CalendarResponse,
  type CommentResponse,
  type FullProject,
  type LevelingResult,
  type NewProjectResult,
  type ProjectList,
  type Resource,
  type ResourceList,
  type ResourceResponse,
  type Scope,
  type TaskList,
  type VersionList,
  type VersionResponse,
  type WorkspaceList,
  type WriteResult,
} from '@gantry/contract';
import { McpServer, type CallToolResult, type StandardSchemaWithJSON, type ToolAnnotations, type Transport } from '@modelcontextprotocol/server';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Actor, DomainContext } from '../domain/context.js';
import { AppError, invalid } from '../domain/errors.js';
import { fieldProblems } from '../domain/validation.js';
import { perform, RawJson, type Operation } from '../domain/operation.js';
import { operations } from '../domain/operations.js';
import { yieldIfBusy } from '../time-slice.js';
import { RequestBudget } from './request-budget.js';

/** Who calls, for one MCP request: what the tools act with. */
export interface McpCaller {
  ctx: DomainContext;
  actor: Actor;
  log: FastifyBaseLogger;
}

type Args = Record<string, unknown>;

/**
 * One MCP tool: an operation of the table (its scope and, unless stated, its answer are
 * the tool's), the arguments it takes, and how its answer reads as text.
 */
interface Tool {
  title: string;
  /** Tells an assistant when to use the tool. */
  description: string;
  operation: Operation;
  /** The tool's arguments: the operation's path, query and body fields side by side. */
  input: z.ZodObject;
  /** The structured answer, when it is not the operation's response. */
  output?: z.ZodType;
  annotations: ToolAnnotations;
  /** How the operation is run: fields every body carries, or as a dry run. */
  options?: RunOptions;
  /** Reads more to complete the answer (a task's comments). */
  complete?(caller: McpCaller, args: Args, result: Answer): Promise<Answer>;
  /** The answer in a sentence or two, for the assistant and the person reading along (`args`: the tool's arguments). */
  summary(result: Answer, args: Args): string;
}

type Answer = Record<string, unknown>;
/** What an operation answered: an object, or the JSON the domain already serialised (a whole plan). */
interface Ran {
  answer: Answer | RawJson;
  /** The call saved a change (it needs the write scope and was no dry run). */
  saved: boolean;
}
interface RunOptions {
  body?: Args;
  dryRun?: boolean;
  /** The tool takes a `dryRun` argument: true runs it as a dry run (`dryRun` above is then ignored). */
  dryRunArgument?: boolean;
  /** The tool takes an `idempotencyKey` argument, as REST takes the `Idempotency-Key` header. */
  idempotent?: boolean;
}

/**
 * Runs one operation of the table for the caller, as REST does: the tool's arguments are
 * split back into the operation's path parameters, query and body (by the contract's
 * schemas), then `perform` checks scope, validates once and runs the domain function.
 */
async function run(caller: McpCaller, operation: Operation, args: Args, options: RunOptions = {}): Promise<Ran> {
  const { def } = operation;
  const params: Args = {};
  const query: Args = {};
  const body: Args = { ...options.body };
  const { idempotencyKey, ...named } = options.idempotent ? args : { ...args, idempotencyKey: undefined };
  const { dryRun, ...fields } = options.dryRunArgument ? named : { ...named, dryRun: options.dryRun };
  // Anything but a boolean could be a preview meant and a write made: refused.
  if (dryRun !== undefined && typeof dryRun !== 'boolean') throw invalid([{ path: 'dryRun', message: 'must be true or false' }]);
  // A key that is not a string would make a retry write twice: refused, not ignored.
  if (idempotencyKey !== undefined && typeof idempotencyKey !== 'string') throw invalid([{ path: 'idempotencyKey', message: 'must be a string of 1-255 characters' }]);
  for (const [name, value] of Object.entries(fields)) {
    if (def.params && name in def.params.shape) params[name] = value;
    else if (def.query && name in def.query.shape) query[name] = value;
    else body[name] = value;
  }
  // Ids are arguments here, not parts of an address: a missing or malformed one is a mistake to name (REST answers 404).
  const ids = def.params?.safeParse(params);
  if (ids && !ids.success) throw invalid(fieldProblems(ids.error, '(arguments)'));
  const outcome = await perform(caller.ctx, caller.actor, operation, { params, query, body: def.body ? body : undefined }, {
    dryRun: dryRun === true,
    idempotencyKey: idempotencyKey as string | undefined,
  });
  return { answer: outcome.body as Answer | RawJson, saved: def.scope === 'write' && dryRun !== true };
}

/** The answer as an object (serialised JSON read back). */
const answerOf = (answer: Answer | RawJson): Answer => (answer instanceof RawJson ? (JSON.parse(answer.bytes.toString('utf8')) as Answer) : answer);

/** The first items of a list, as a person reads them: `a, b, c and 7 more`. */
function listed<T>(items: readonly T[], show: (item: T) => string, max = 10): string {
  const shown = items.slice(0, max).map(show).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

/** `no tasks`, `1 task`, `3 tasks`. */
const plural = (count: number, noun: string) => `${count === 0 ? 'no' : count} ${noun}${count === 1 ? '' : 's'}`;

/** How many, then which: `no tasks`, `1 task: a`, `3 tasks: a, b, c`. */
function counted<T>(items: readonly T[], noun: string, show: (item: T) => string, max = 10): string {
  return items.length === 0 ? plural(0, noun) : `${plural(items.length, noun)}: ${listed(items, show, max)}`;
}

const day = (at: string | null) => (at ? at.slice(0, 10) : '—');
type Of<T extends z.ZodType> = z.infer<T>;

function writeSummary(answer: Answer, saved: boolean): string {
  const result = answer as Of<typeof WriteResult>;
  const moved = counted(result.tasks, 'task', (t) => `${t.key} ${day(t.startAt)}→${day(t.finishAt)}`);
  const conflicts = result.conflicts.length > 0 ? `; ${counted(result.conflicts, 'scheduling conflict', (c) => c.message, 3)}` : '';
  const keys = new Map(result.tasks.map((task) => [task.id, task.key]));
  const reassigned = result.reassignedTaskIds.length > 0 ? `; assignments of ${counted(result.reassignedTaskIds, 'task', (id) => keys.get(id) ?? id)}` : '';
  return saved
    ? `Saved. Created, changed or moved ${moved}${reassigned}; the project now finishes ${day(result.projectFinishAt)}${conflicts}.`
    : `Dry run, nothing saved. Would create, change or move ${moved}${reassigned}; the project would finish ${day(result.projectFinishAt)}${conflicts}.`;
}

const projectArgs = z.object({ projectId: Uuid.describe('The project (ids from list_projects).') });
const taskArgs = projectArgs.extend({ taskId: Uuid.describe('The task (ids from get_plan or search_tasks).') });
const calendarArgs = projectArgs.extend({ calendarId: Uuid.describe('The calendar (ids from list_calendars).') });
const calendarHelp =
  'A calendar: name, timeZone (IANA, e.g. Europe/Berlin), weekly (7 entries Sunday..Saturday, each a list of ["HH:MM","HH:MM"] working intervals, [] = day off, null = as the base calendar), exceptions ([{name, from, to, intervals}], dates YYYY-MM-DD; intervals [] = holiday), baseCalendarId.';

const resourceArgs = projectArgs.extend({ resourceId: Uuid.describe('The resource (ids from list_resources).') });
/** `"Crane" (300 %, no account, id …)`. */
const resourceLine = (resource: Resource) => `"${resource.name}" (${resource.maxUnitsPct} %, ${resource.userId ? 'a member' : 'no account'}, id ${resource.id})`;
/** `Standard (Europe/Berlin, id …)`. */
const calendarLine = (calendar: Calendar) => `"${calendar.name}" (${calendar.timeZone}, ${plural(calendar.exceptions.length, 'exception')}, id ${calendar.id})`;
/** A change set's fields as tool arguments (deleting tasks is not offered: it is refused). */
const { deleteTaskIds: _refused, ...changeFields } = ChangeSet.shape;
const changeArgs = projectArgs.extend(changeFields);
const idempotencyArg = {
  idempotencyKey: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe('Any unique string for this change set. Send the same key when retrying after a lost answer: the changes are applied once and the first answer is returned again (keys are kept 24 hours).'),
};
/** Every body of these tools is a change set, even one that names no change. */
const asChangeSet = { createTasks: [] };
const changeSetHelp =
  'Arguments: createTasks (new tasks; give one an `id` (a UUID of your choosing) to refer to it from parentId, afterTaskId, predecessorId, successorId in the same call; `assignments` [{resourceId, unitsPct}] assigns resources from list_resources as given, keeping durationMin and workMin as sent), updateTasks (`id` plus the fields to change), createDependencies (predecessorId, successorId, type FS|SS|FF|SF, lagMin in working minutes), deleteDependencyIds, fullReschedule. Durations and lags are working minutes (a working day is 480). Dates such as startAt are computed and cannot be set; pin a task with constraintKind and constraintDate instead.';

const read: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
/** A write that only adds (a task, a comment, a version, a calendar, a copy). */
const write: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/**
 * A write that may change or remove what is there (MCP: not "only additive"): task fields,
 * links, leveling delays, the main baseline, a calendar's holidays, a resource. Clients
 * ask the person before such a call. Projects and tasks are never deleted.
 */
const overwrite: ToolAnnotations = { ...write, destructiveHint: true };

/** `LEV-2 +960 min (2026-03-02→2026-03-04)`: a task leveling delays, and where it starts. */
function leveledLine(task: Of<typeof LevelingResult>['leveling']['tasks'][number]): string {
  return `${task.key} ${task.levelingDelayMin.to >= task.levelingDelayMin.from ? '+' : ''}${task.levelingDelayMin.to - task.levelingDelayMin.from} min (${day(task.startAt.from)}→${day(task.startAt.to)})`;
}

function levelingSummary(answer: Answer, saved: boolean): string {
  const { leveling } = answer as Of<typeof LevelingResult>;
  const delayed = counted(leveling.tasks, 'task', leveledLine);
  const { from, to } = leveling.projectFinishAt;
  const left = counted(leveling.overallocations, 'over-allocation', (o) => `resource ${o.resourceId} at ${o.peakUnitsPct}% ${day(o.startAt)}→${day(o.finishAt)} (${o.reason})`, 3);
  return saved
    ? `Saved. Leveling changed the delay of ${delayed}; the project now finishes ${day(to)} (before: ${day(from)}); ${left} left.`
    : `Dry run, nothing saved. Leveling would change the delay of ${delayed}; the project would finish ${day(to)} (now: ${day(from)}); ${left} would be left.`;
}

/** Every MCP tool, by name. No tool deletes anything. */
export const tools = {
  list_workspaces: {
    title: 'List workspaces',
    description: 'The workspaces the user belongs to, with their role in each. Use it to find a workspace id, or to see where projects live.',
    operation: operations.listWorkspaces,
    input: z.object({}),
    annotations: read,
    summary: (answer) => {
      const { workspaces } = answer as Of<typeof WorkspaceList>;
      return `${counted(workspaces, 'workspace', (w) => `${w.name} (${w.role})`)}.`;
    },
  },
  list_projects: {
    title: 'List projects',
    description: 'The projects the user can see, with their workspace, role, task count and finish date. Start here to find a project id; archived projects are included only with archived "1".',
    operation: operations.listProjects,
    input: ProjectListQuery,
    annotations: read,
    summary: (answer) => {
      const { projects } = answer as Of<typeof ProjectList>;
      return `${counted(projects, 'project', (p) => `${p.key} "${p.name}" (id ${p.id}, ${p.taskCount} tasks, finishes ${day(p.finishAt)})`)}.`;
    },
  },
  get_plan: {
    title: 'Read a plan',
    description:
      'The whole plan of a project: every task in outline order with its computed start and finish, total float and whether it is critical, the dependencies, assignments and saved baselines. Use it to answer questions about the schedule, the critical path or slack, and before proposing changes.',
    operation: operations.getProject,
    input: projectArgs,
    annotations: read,
    summary: (answer) => {
      const { project, tasks, dependencies } = answer as Of<typeof FullProject>;
      const critical = tasks.filter((t) => t.isCritical && t.finishAt !== null).sort((a, b) => (a.startAt ?? '').localeCompare(b.startAt ?? ''));
      const finish = tasks.reduce<string | null>((last, t) => (t.finishAt && (!last || t.finishAt > last) ? t.finishAt : last), null);
      const path = critical.length > 0 ? listed(critical, (t) => `${t.key} ${t.name}`, 15) : 'none';
      return `${project.key} "${project.name}": ${plural(tasks.length, 'task')}, ${plural(dependencies.length, 'dependency').replace(/ys$/, 'ies')}, from ${project.startDate} to ${day(finish)}. Critical path: ${path}.`;
    },
  },
  search_tasks: {
    title: 'Search tasks',
    description:
      'Find tasks of a project by name (q: contains, case-insensitive), externalId, completion or last update, a page at a time (pass nextCursor as cursor for the next page). Use it for a large plan instead of reading the whole plan.',
    operation: operations.listTasks,
    input: projectArgs.extend(TaskListQuery.shape),
    annotations: read,
    summary: (answer) => {
      const { tasks, nextCursor } = answer as Of<typeof TaskList>;
      const more = nextCursor ? ` More: call again with cursor "${nextCursor}".` : '';
      return `${counted(tasks, 'task', (t) => `${t.key} "${t.name}" (id ${t.id}, ${day(t.startAt)}→${day(t.finishAt)})`)}.${more}`;
    },
  },
  get_task: {
    title: 'Task detail',
    description: 'One task with everything known about it — dates, float, progress, assignees, notes — and its comments, oldest first. Use it before commenting on or changing a task.',
    operation: operations.getTask,
    input: taskArgs,
    output: TaskResponse.extend(CommentList.shape),
    annotations: read,
    complete: async (caller, args, answer) => ({ ...answer, ...answerOf((await run(caller, operations.listComments, args)).answer) }),
    summary: (answer) => {
      const { task, comments } = answer as Of<typeof TaskResponse> & Of<typeof CommentList>;
      const float = task.totalFloatMin === null ? '' : `, float ${task.totalFloatMin} min${task.isCritical ? ' (critical)' : ''}`;
      return `${task.key} "${task.name}": ${day(task.startAt)}→${day(task.finishAt)}, ${task.progressPct}% done${float}; ${plural(comments.length, 'comment')}.`;
    },
  },
  what_if: {
    title: 'What if (dry run)',
    description: `Try a change set on a project without saving anything: the answer is exactly what apply_changes would answer — every task it would create or move with its new dates, the new project finish and any scheduling conflicts — but nothing is stored, announced or sent to webhooks. Use it to explore options ("what if this slips by two days?") before apply_changes. Needs edit access. ${changeSetHelp}`,
    operation: operations.createTasks,
    input: changeArgs,
    annotations: read,
    options: { body: asChangeSet, dryRun: true },
    summary: (answer) => writeSummary(answer, false),
  },
  apply_changes: {
    title: 'Apply changes',
    description: `Save a change set to a project in one step: create tasks, edit tasks, add or change dependencies, remove dependencies; the schedule is recalculated once and the answer lists every task that was created or moved. Any invalid item rejects the whole set (nothing saved; the error names each field). Prefer what_if first when the user is exploring. Tasks cannot be deleted. ${changeSetHelp}`,
    operation: operations.createTasks,
    input: changeArgs.extend(idempotencyArg),
    annotations: overwrite,
    options: { body: asChangeSet, idempotent: true },
    summary: (answer) => writeSummary(answer, true),
  },
  level_resources: {
    title: 'Level resources',
    description:
      "Resolve over-allocated people and resources by delaying tasks (each task's levelingDelayMin), as Microsoft Project's Level Now: tasks that may move (scheduled automatically, not started, assigned) are placed by early start, float and task number where their resources have room, and the plan is recalculated. The answer lists each task whose delay changes with its dates before and after, the project finish before and after, and what stays over-allocated (e.g. a task needing 200 % of one person). With dryRun true nothing is saved: use it first to show the user what leveling would do. resourceIds limits it to some resources (ids from get_plan's assignees). Leveling twice changes nothing.",
    operation: operations.levelResources,
    input: projectArgs.extend({
      ...LevelingRequest.shape,
      dryRun: z.boolean().optional().describe('true: only answer what leveling would change; nothing is saved or announced.'),
    }),
    annotations: { ...overwrite, idempotentHint: true },
    options: { dryRunArgument: true },
    summary: (answer, args) => levelingSummary(answer, args.dryRun !== true),
  },
  add_comment: {
    title: 'Comment on a task',
    description: 'Add a comment to a task (plain text). Mentioned users (ids of project members) are e-mailed. Use it to leave a note for the team, not to change the plan.',
    operation: operations.createComment,
    input: taskArgs.extend(CommentCreate.shape),
    annotations: write,
    summary: (answer) => {
      const { comment } = answer as Of<typeof CommentResponse>;
      return `Comment ${comment.id} added to task ${comment.taskId}.`;
    },
  },
  save_baseline: {
    title: 'Save a baseline',
    description:
      "Record every task's current dates, duration, work and cost as a baseline to compare the plan against later. Without a name it replaces the main baseline; with a name it adds a named one. Use it when the user agrees on a plan.",
    operation: operations.saveBaseline,
    input: projectArgs.extend(BaselineCreate.shape),
    annotations: overwrite,
    summary: (answer) => {
      const { baseline } = answer as Of<typeof BaselineResponse>;
      return `Baseline "${baseline.name}" saved at ${baseline.capturedAt}.`;
    },
  },
  duplicate_project: {
    title: 'Duplicate a project',
    description:
      'Copy a project into a new one: every task with its fields and progress, the dependencies, assignments and baselines (not comments or members). Give startDate to move the whole copy to another start; workspaceId to put it in another workspace of the user. Use it to start a similar project from one that exists.',
    operation: operations.duplicateProject,
    input: projectArgs.extend(ProjectDuplicate.shape),
    annotations: write,
    summary: (answer) => {
      const { project, taskCount } = answer as Of<typeof NewProjectResult>;
      return `Project ${project.key} "${project.name}" (${project.id}) created with ${plural(taskCount, 'task')}, starting ${project.startDate}.`;
    },
  },
  list_versions: {
    title: 'List saved versions',
    description: 'The saved versions of a project\'s plan, newest first (name, task count, when and by whom). A version is restored only by a person in the web app.',
    operation: operations.listVersions,
    input: projectArgs,
    annotations: read,
    summary: (answer) => {
      const { versions } = answer as Of<typeof VersionList>;
      return counted(versions, 'saved version', (v) => `${v.name ?? 'unnamed'} (${v.createdAt.slice(0, 16)})`);
    },
  },
  save_version: {
    title: 'Save a version',
    description: 'Save the whole plan as it is now as a version (optionally named), which a person can restore later in the web app. Use it before large changes.',
    operation: operations.saveVersion,
    input: projectArgs.extend(VersionCreate.shape),
    annotations: write,
    summary: (answer) => {
      const { version } = answer as Of<typeof VersionResponse>;
      return `Version ${version.name ? `"${version.name}" ` : ''}saved with ${plural(version.taskCount, 'task')} at ${version.createdAt}.`;
    },
  },
  list_calendars: {
    title: 'List calendars',
    description:
      "The working calendars of a project: working hours per weekday in a time zone, and exceptions such as holidays. The project's calendarId and each task's calendarId name one of them (null = the built-in Standard calendar, Monday to Friday 08:00-17:00 UTC).",
    operation: operations.listCalendars,
    input: projectArgs,
    annotations: read,
    summary: (answer) => `${counted((answer as Of<typeof CalendarList>).calendars, 'calendar', calendarLine)}.`,
  },
  get_calendar: {
    title: 'Calendar detail',
    description: 'One working calendar of a project with its weekly working times, exceptions and base calendar. Use it before changing a calendar.',
    operation: operations.getCalendar,
    input: calendarArgs,
    annotations: read,
    summary: (answer) => `Calendar ${calendarLine((answer as Of<typeof CalendarResponse>).calendar)}.`,
  },
  create_calendar: {
    title: 'Create a calendar',
    description: `Add a working calendar to a project (a team's working hours, a country's holidays, a 24-hour shift). Nothing works on it until the project (update the project's calendarId in the web app or REST) or a task (calendarId in apply_changes) names it. ${calendarHelp}`,
    operation: operations.createCalendar,
    input: projectArgs.extend(CalendarCreate.shape),
    annotations: write,
    summary: (answer) => `Calendar ${calendarLine((answer as Of<typeof CalendarResponse>).calendar)} created.`,
  },
  update_calendar: {
    title: 'Change a calendar',
    description: `Change a project's working calendar, e.g. add a holiday (exceptions are replaced whole: send every exception). When the project or a task works on it, every task is rescheduled and the answer says so. ${calendarHelp}`,
    operation: operations.updateCalendar,
    input: calendarArgs.extend(CalendarPatch.shape),
    annotations: overwrite,
    summary: (answer) => {
      const { calendar, rescheduled, conflicts } = answer as Of<typeof CalendarPatchResult>;
      const conflictText = conflicts.length > 0 ? `; ${counted(conflicts, 'scheduling conflict', (c) => c.message, 3)}` : '';
      return `Calendar ${calendarLine(calendar)} saved; ${rescheduled ? 'every task was rescheduled' : 'nothing works on it, no task moved'}${conflictText}.`;
    },
  },
  list_resources: {
    title: 'List resources',
    description:
      "Who and what can be assigned in a project: members (userId set) and resources without an account such as machines or teams, each with its Max. Units (maxUnitsPct: 100 = one full-time person, 300 = three). Tasks name them in assignees[].resourceId; level_resources keeps each one's load within its Max. Units.",
    operation: operations.listResources,
    input: projectArgs,
    annotations: read,
    summary: (answer) => `${counted((answer as Of<typeof ResourceList>).resources, 'resource', resourceLine)}.`,
  },
  update_resource: {
    title: 'Change a resource',
    description:
      "Rename a resource of a project or change its Max. Units (maxUnitsPct, a whole percent from 1: 300 when there are three cranes, 50 for someone half-time). No date moves: run level_resources afterwards to resolve what is over-allocated.",
    operation: operations.updateResource,
    input: resourceArgs.extend(ResourcePatch.shape),
    annotations: { ...overwrite, idempotentHint: true },
    summary: (answer) => `Resource ${resourceLine((answer as Of<typeof ResourceResponse>).resource)} saved.`,
  },
} satisfies Record<string, Tool>;

export type ToolName = keyof typeof tools;

/** The scope a tool needs, named by a JSON-RPC `tools/call` (undefined for an unknown tool). */
export function scopeOfTool(name: unknown): Scope | undefined {
  return typeof name === 'string' && Object.hasOwn(tools, name) ? (tools[name as ToolName] as Tool).operation.def.scope : undefined;
}

/**
 * A contract schema as the SDK takes it: advertised as JSON Schema (the same the OpenAPI
 * document gives), and not validated by the SDK — `perform` validates the arguments, once,
 * so mistakes come back with the API's error code and field paths.
 */
function advertised(schema: z.ZodType, io: 'input' | 'output'): StandardSchemaWithJSON {
  const json = jsonSchemaOf(schema, io);
  return {
    '~standard': {
      version: 1,
      vendor: 'gantry',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => structuredClone(json), output: () => structuredClone(json) },
    },
  };
}

/**
 * Paths as tool arguments name them: `createTasks[0].name`, not `body.createTasks[0].name`;
 * a whole-request path (`body`, `query`) is `(arguments)`, unless an argument has that name
 * (add_comment's `body`).
 */
function argumentPath(path: string, argumentNames: ReadonlySet<string>): string {
  if (path === 'headers.idempotency-key') return 'idempotencyKey';
  if (argumentNames.has(path)) return path;
  return path.replace(/^(body|query|params)\.?/, '') || '(arguments)';
}

/** An error as the tool's result: the API's error code, message and details (field paths as the arguments name them). */
function errorResult(error: AppError, argumentNames: ReadonlySet<string>): CallToolResult {
  const details = error.details && Array.isArray(error.details.fields)
    ? { ...error.details, fields: (error.details.fields as { path: string; message: string }[]).map((field) => ({ ...field, path: argumentPath(field.path, argumentNames) })) }
    : error.details;
  const message = details === error.details ? error.message : error.message.replace(/(^|; )(body|query|params)\./g, '$1').replace(/(^|; )headers\.idempotency-key/g, '$1idempotencyKey');
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: error.code, message, ...(details ? { details } : {}) }) }] };
}

type Schemas = Record<ToolName, { input: StandardSchemaWithJSON; output: StandardSchemaWithJSON; argumentNames: ReadonlySet<string> }>;
let schemas: Schemas | undefined;

/** Converted once per process: the tools' JSON Schemas (and the names of their arguments) do not change. */
function toolSchemas(): Schemas {
  schemas ??= Object.fromEntries(
    (Object.entries(tools) as [ToolName, Tool][]).map(([name, tool]) => [
      name,
      {
        input: advertised(tool.input, 'input'),
        output: advertised(tool.output ?? tool.operation.def.response.schema, 'output'),
        argumentNames: new Set(Object.keys(tool.input.shape)) as ReadonlySet<string>,
      },
    ]),
  ) as Schemas;
  return schemas;
}

/** An MCP server that serves its one exchange within a budget (docs/mcp.md › Limits). */
class BudgetedMcpServer extends McpServer {
  constructor(
    private readonly budget: RequestBudget,
    ...options: ConstructorParameters<typeof McpServer>
  ) {
    super(...options);
  }

  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    this.budget.serve(transport);
  }
}

/**
 * An MCP server for one request: the tools the caller's credential may use (a read
 * credential is not offered the write tools), each running the domain's operations.
 */
export function buildMcpServer(caller: McpCaller, version: string): McpServer {
  const budget = new RequestBudget();
  const server = new BudgetedMcpServer(
    budget,
    { name: 'gantry', title: 'Gantry', version },
    {
      // The tools a credential gets never change while it is connected: no list_changed notifications to expect.
      capabilities: { tools: { listChanged: false } },
      instructions:
        'Gantry plans projects: tasks in a tree, dependencies, and a scheduler that computes dates, float and the critical path after every change. Find a project with list_projects, read it with get_plan or search_tasks, try changes with what_if, and save them with apply_changes. Durations are in working minutes (480 per day).',
    },
  );
  for (const [name, tool] of Object.entries(tools) as [ToolName, Tool][]) {
    if (tool.operation.def.scope === 'write' && caller.actor.scope !== 'write') continue;
    const { input, output, argumentNames } = toolSchemas()[name];
    server.registerTool(name, { title: tool.title, description: tool.description, inputSchema: input, outputSchema: output, annotations: tool.annotations }, async (given: unknown) => {
      const args = (given ?? {}) as Args;
      try {
        const ran = await run(caller, tool.operation, args, tool.options);
        const result = tool.complete ? await tool.complete(caller, args, answerOf(ran.answer)) : ran.answer;
        const json = result instanceof RawJson ? result.bytes : JSON.stringify(result);
        // The answer carries its JSON twice (structured content and text): counted so before either is built.
        const refused = budget.answer(2 * Buffer.byteLength(json), ran.saved);
        // The SDK makes a tool's result of anything the tool returns or throws: the budget sends its JSON-RPC error in its place.
        if (refused) return { isError: true, content: [{ type: 'text', text: refused.message }] };
        const text = typeof json === 'string' ? json : json.toString('utf8');
        const structured = result instanceof RawJson ? (JSON.parse(text) as Answer) : result;
        // Reading megabytes back took its time, and the SDK serialises the answer in one go next: other requests first.
        await yieldIfBusy();
        // The summary for people, then the whole answer as JSON for clients that read only text (MCP: structured content SHOULD also come as text).
        return { structuredContent: structured, content: [{ type: 'text', text: tool.summary(structured, args) }, { type: 'text', text }] };
      } catch (error) {
        if (error instanceof AppError) return errorResult(error, argumentNames);
        caller.log.error({ err: error, tool: name }, 'MCP tool failed');
        return errorResult(new AppError('server_error', 'internal error; retry with exponential backoff'), argumentNames);
      }
    });
  }
  return server;
}
