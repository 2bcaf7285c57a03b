import { z } from 'zod';
import { Uuid } from './common.js';
import { limits } from './limits.js';
import type { ErrorCode } from './errors.js';
import { CalendarCreate, CalendarList, CalendarPatch, CalendarPatchResult, CalendarResponse } from './resources/calendars.js';
import { DeleteConfirmation, InviteAccept, InviteAccepted, InviteCreate, InviteList, InvitePreviewResponse, InviteRevoked, InviteWithUrl, ProjectDeleted } from './resources/invites.js';
import { LevelingRequest, LevelingResult } from './resources/leveling.js';
import { ResourceCreate, ResourceList, ResourcePatch, ResourceResponse } from './resources/resources.js';
import { MemberList, MemberRemoved, MemberResponse, MemberRolePut } from './resources/members.js';
import {
  ForecastQuery,
  ForecastResponse,
  FullProject,
  ProjectCreate,
  ProjectList,
  ProjectListQuery,
  ProjectPatch,
  NewProjectResult,
  ProjectDuplicate,
  ProjectPatchResult,
  ProjectResponse,
  RestoreConfirmation,
  VersionCreate,
  VersionList,
  VersionResponse,
  VersionRestored,
} from './resources/projects.js';
import {
  AssigneesPut,
  AssigneesResult,
  BaselineCreate,
  BaselineList,
  BaselineResponse,
  ChangeSet,
  CommentCreate,
  CommentList,
  CommentResponse,
  DependencyList,
  DependencyListResponse,
  DependencyWrite,
  DependencyCreate,
  isDependencyList,
  isChangeSet,
  TaskCreate,
  TaskList,
  TaskListQuery,
  TaskPatch,
  TaskResponse,
  WriteResult,
} from './resources/tasks.js';
import {
  ApiKeyCreate,
  ApiKeyCreated,
  ApiKeyList,
  ApiKeyResponse,
  EmailVerification,
  MePatch,
  MeResponse,
  OAuthGrantList,
  OAuthGrantRevoked,
  PasswordResetAccepted,
  PasswordResetCompletion,
  PasswordResetRequest,
  SessionCreate,
  SessionResponse,
  SignUp,
  SignUpAccepted,
  WebSessionList,
} from './resources/users.js';
import {
  DeliveryList,
  DeliveryListQuery,
  DeliveryResponse,
  EventCatalogResponse,
  WebhookCreate,
  WebhookDeleted,
  WebhookList,
  WebhookResponse,
  WebhookWithSecret,
} from './resources/webhooks.js';
import { WorkspaceList } from './resources/workspaces.js';
import { ProjectExportQuery, ProjectImport, ProjectImportResult } from './resources/exchange.js';
import { ProjectFromTemplate, TemplateCreate, TemplateList, TemplateListQuery, TemplateResponse } from './resources/templates.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The groups operations are listed under in the OpenAPI documents, each with what it holds. */
export const operationTags = {
  Account: 'The person a credential acts for: their profile and workspaces; in the web app, their API keys and the apps they connected.',
  'Web sessions': 'Signing up, in and out in the browser, verifying the e-mail address and resetting the password: the web session cookie.',
  Projects: 'Projects and their plans as a whole: creating, importing, exporting and duplicating them, saved versions, baselines, forecasts and resource leveling.',
  Templates: 'Ready-made plans to start a project from: the built-in ones and those saved in a workspace.',
  Tasks: 'Tasks, change sets and comments: every write recalculates the dates, float and critical path of the plan.',
  Dependencies: 'Links between tasks (finish-to-start, start-to-start, finish-to-finish, start-to-finish, with lag); a link that would close a cycle is refused.',
  People: 'Who works on a project: members and their roles, invite links and the people assigned to tasks.',
  Resources: 'Who and what can be assigned to tasks, people with an account or not, with their Max. Units.',
  Calendars: 'Working calendars: working times per weekday in a time zone, holidays and special working days.',
  Webhooks: 'Subscriptions to events, their signing secrets, test events and the delivery log.',
} as const;
export type OperationTag = keyof typeof operationTags;
/** `read` suffices for reads; `write` includes `read`. */
export type Scope = 'read' | 'write';

/**
 * One operation of the public API, as data. The server binds a handler to it (and
 * validates with these schemas); the OpenAPI document is generated from the same list.
 */
export interface RouteDef<
  P extends z.ZodObject = z.ZodObject,
  Q extends z.ZodObject = z.ZodObject,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI-style path, `{name}` for parameters. */
  path: string;
  scope: Scope;
  /**
   * Who may call: `bearer` (API keys and OAuth tokens, and the web app's session cookie;
   * the default), `session` (only a person signed in in the browser, for what only the
   * person may do, such as disconnecting apps), or `none` (anyone: signing up and in).
   * `session` and `none` routes are the web app's own: its OpenAPI document lists them,
   * apart from the public one of what keys and OAuth apps may call.
   */
  credentials?: 'bearer' | 'session' | 'none';
  /**
   * Deletes a project or tasks. Only a person signed in in the web app may (`credentials:
   * 'session'`, with an explicit confirmation); an API key or OAuth token is refused with 403
   * `forbidden`, `details.reason = "destructive"`, whatever else the call holds.
   */
  destructive?: true;
  tag: OperationTag;
  summary: string;
  description?: string;
  params?: P;
  query?: Q;
  /**
   * Name of the request body schema in the OpenAPI components, and the schema. `pick`
   * chooses the variant to validate with when the body may take several shapes, so that
   * problems are reported against the shape the client meant.
   */
  body?: {
    name: string;
    schema: B;
    required: boolean;
    pick?: (body: unknown) => z.ZodType;
    /** The longest string a field of this body takes, when one takes more than a description (a whole file). */
    longestString?: number;
    /** The body may also be a file of these media types, sent as is: it is then the value of `field`, the other fields take their defaults. */
    file?: { field: string; mediaTypes: readonly string[] };
  };
  /**
   * The success response; `alsoStatus` documents a second success status with the same
   * body. A 204 has no body (its schema is `z.void()`, and its name is not published).
   */
  response: {
    status: 200 | 201 | 202 | 204;
    alsoStatus?: 200 | 201;
    name: string;
    schema: R;
    /** Set when the body is a file (an export) in one of these media types rather than JSON; its schema is then `z.string()`. */
    media?: readonly string[];
  };
  /** Error codes this operation documents beyond the ones every route can answer. */
  errors: ErrorCode[];
}

function route<P extends z.ZodObject, Q extends z.ZodObject, B extends z.ZodType, R extends z.ZodType>(
  def: RouteDef<P, Q, B, R>,
): RouteDef<P, Q, B, R> {
  return def;
}

/**
 * The query of a plan write that `?dryRun=true` runs in full and then rolls back: the answer
 * says what the write would do; nothing is saved, announced or cached.
 */
const DryRunQuery = z.object({
  dryRun: z
    .enum(['true', 'false'])
    .optional()
    .describe('Additive: `true` runs the write in full (checks, recalculation, conflicts) and saves nothing: the answer is what it would do; no event is sent.'),
});
/** Whether the route is a plan write that takes `?dryRun=true`. */
export function takesDryRun(def: RouteDef): boolean {
  return def.query === DryRunQuery;
}
const projectParams = z.object({ projectId: Uuid });
const taskParams = z.object({ projectId: Uuid, taskId: Uuid });
const calendarParams = z.object({ projectId: Uuid, calendarId: Uuid });
const resourceParams = z.object({ projectId: Uuid, resourceId: Uuid });
const webhookParams = z.object({ webhookId: Uuid });
const inviteParams = z.object({ projectId: Uuid, inviteId: Uuid });
const versionParams = z.object({ projectId: Uuid, versionId: Uuid });
const sessionOnlyDeletion =
  'Signed-in people only, in the web app: API keys and OAuth tokens get 403 `forbidden` with `details.reason = "destructive"`, even with the confirmation.';

export const routes = {
  getMe: route({
    operationId: 'getMe',
    method: 'GET',
    path: '/api/auth/me',
    scope: 'read',
    tag: 'Account',
    summary: 'The user the credential acts for',
    response: { status: 200, name: 'MeResponse', schema: MeResponse },
    errors: [],
  }),
  signUp: route({
    operationId: 'signUp',
    method: 'POST',
    path: '/api/auth/signup',
    scope: 'write',
    credentials: 'none',
    tag: 'Web sessions',
    summary: 'Create an account; a link to verify the e-mail address is mailed',
    description:
      'Always 202, whether or not the address is registered (a registered address is mailed a password-reset link instead), so the answer never tells who has an account. The verification link (`{base_url}/verify-email?token=…`) works once, for 24 hours.',
    body: { name: 'SignUp', schema: SignUp, required: true },
    response: { status: 202, name: 'SignUpAccepted', schema: SignUpAccepted },
    errors: ['invalid_request'],
  }),
  verifyEmail: route({
    operationId: 'verifyEmail',
    method: 'POST',
    path: '/api/auth/verify-email',
    scope: 'write',
    credentials: 'none',
    tag: 'Web sessions',
    summary: 'Verify the e-mail address with the mailed token, and sign in (sets the session cookie)',
    body: { name: 'EmailVerification', schema: EmailVerification, required: true },
    response: { status: 200, name: 'SessionResponse', schema: SessionResponse },
    errors: ['invalid_request'],
  }),
  createSession: route({
    operationId: 'createSession',
    method: 'POST',
    path: '/api/auth/session',
    scope: 'write',
    credentials: 'none',
    tag: 'Web sessions',
    summary: 'Sign in with e-mail and password (sets the session cookie)',
    description:
      'Wrong e-mail or password: 401. An address not verified yet: 403 with `details.reason = "email_unverified"`, and a new verification link is mailed. Failed attempts per e-mail address and all attempts per client address are limited (429), shared with the OAuth sign-in page.',
    body: { name: 'SessionCreate', schema: SessionCreate, required: true },
    response: { status: 200, name: 'SessionResponse', schema: SessionResponse },
    errors: ['invalid_request', 'unauthorized'],
  }),
  getSession: route({
    operationId: 'getSession',
    method: 'GET',
    path: '/api/auth/session',
    scope: 'read',
    credentials: 'session',
    tag: 'Web sessions',
    summary: "The signed-in person and the session's CSRF token",
    response: { status: 200, name: 'SessionResponse', schema: SessionResponse },
    errors: [],
  }),
  deleteSession: route({
    operationId: 'deleteSession',
    method: 'DELETE',
    path: '/api/auth/session',
    scope: 'write',
    credentials: 'session',
    tag: 'Web sessions',
    summary: 'Sign out: the session ends and its cookie is cleared',
    response: { status: 204, name: 'NoContent', schema: z.void() },
    errors: [],
  }),
  listSessions: route({
    operationId: 'listSessions',
    method: 'GET',
    path: '/api/auth/sessions',
    scope: 'read',
    credentials: 'session',
    tag: 'Web sessions',
    summary: 'The browsers where the signed-in person is signed in, the most recently used first',
    response: { status: 200, name: 'WebSessionList', schema: WebSessionList },
    errors: [],
  }),
  endSessionById: route({
    operationId: 'endSessionById',
    method: 'DELETE',
    path: '/api/auth/sessions/{sessionId}',
    scope: 'write',
    credentials: 'session',
    tag: 'Web sessions',
    summary: 'Sign a browser out: its session ends at once',
    description: "One of the signed-in person's own sessions (404 otherwise). Ending the asking browser's own session signs it out, and clears its cookie.",
    params: z.object({ sessionId: Uuid }),
    response: { status: 204, name: 'NoContent', schema: z.void() },
    errors: ['not_found'],
  }),
  requestPasswordReset: route({
    operationId: 'requestPasswordReset',
    method: 'POST',
    path: '/api/auth/password-reset',
    scope: 'write',
    credentials: 'none',
    tag: 'Web sessions',
    summary: 'Mail a password-reset link',
    description:
      'Always 202, whether or not the address is registered. The link (`{base_url}/reset-password?token=…`) works once, for 1 hour.',
    body: { name: 'PasswordResetRequest', schema: PasswordResetRequest, required: true },
    response: { status: 202, name: 'PasswordResetAccepted', schema: PasswordResetAccepted },
    errors: ['invalid_request'],
  }),
  completePasswordReset: route({
    operationId: 'completePasswordReset',
    method: 'POST',
    path: '/api/auth/password-reset/complete',
    scope: 'write',
    credentials: 'none',
    tag: 'Web sessions',
    summary: 'Set a new password with the mailed token, and sign in (sets the session cookie)',
    description: "The e-mail address counts as verified; the person's other web sessions end.",
    body: { name: 'PasswordResetCompletion', schema: PasswordResetCompletion, required: true },
    response: { status: 200, name: 'SessionResponse', schema: SessionResponse },
    errors: ['invalid_request'],
  }),
  updateMe: route({
    operationId: 'updateMe',
    method: 'PATCH',
    path: '/api/auth/me',
    scope: 'write',
    credentials: 'session',
    tag: 'Web sessions',
    summary: "Change the signed-in person's name, avatar or language",
    description: 'Only the fields sent change; null clears `name` or `avatarUrl`.',
    body: { name: 'MePatch', schema: MePatch, required: true },
    response: { status: 200, name: 'MeResponse', schema: MeResponse },
    errors: ['invalid_request'],
  }),
  listOAuthGrants: route({
    operationId: 'listOAuthGrants',
    method: 'GET',
    path: '/api/auth/grants',
    scope: 'read',
    credentials: 'session',
    tag: 'Account',
    summary: 'The apps the signed-in person allowed to act for them (OAuth grants)',
    description: 'Signed-in people only (the web session cookie), not API keys or OAuth tokens.',
    response: { status: 200, name: 'OAuthGrantList', schema: OAuthGrantList },
    errors: [],
  }),
  revokeOAuthGrant: route({
    operationId: 'revokeOAuthGrant',
    method: 'DELETE',
    path: '/api/auth/grants/{grantId}',
    scope: 'write',
    credentials: 'session',
    tag: 'Account',
    summary: "Disconnect an app: every token of the grant stops working at once",
    description: 'Signed-in people only. The app has to ask the person again to get access back.',
    params: z.object({ grantId: z.string().min(1).max(100) }),
    response: { status: 200, name: 'OAuthGrantRevoked', schema: OAuthGrantRevoked },
    errors: ['not_found'],
  }),
  listWorkspaces: route({
    operationId: 'listWorkspaces',
    method: 'GET',
    path: '/api/workspaces',
    scope: 'read',
    tag: 'Account',
    summary: "Workspaces the caller belongs to, with the caller's role",
    description: 'A workspace-restricted key sees only its workspace.',
    response: { status: 200, name: 'WorkspaceList', schema: WorkspaceList },
    errors: [],
  }),
  listProjects: route({
    operationId: 'listProjects',
    method: 'GET',
    path: '/api/projects',
    scope: 'read',
    tag: 'Projects',
    summary: 'Projects visible to the caller (not paginated)',
    query: ProjectListQuery,
    response: { status: 200, name: 'ProjectList', schema: ProjectList },
    errors: ['invalid_request'],
  }),
  createProject: route({
    operationId: 'createProject',
    method: 'POST',
    path: '/api/projects',
    scope: 'write',
    tag: 'Projects',
    summary: 'Create a project',
    description:
      'The creator becomes a direct owner of the project. Emits `project.created` with `data.source = "blank"`.',
    body: { name: 'ProjectCreate', schema: ProjectCreate, required: true },
    response: { status: 201, name: 'ProjectResponse', schema: ProjectResponse },
    errors: ['invalid_request', 'not_found', 'conflict'],
  }),
  getProject: route({
    operationId: 'getProject',
    method: 'GET',
    path: '/api/projects/{projectId}',
    scope: 'read',
    tag: 'Projects',
    summary: 'The full project: project, tasks (with sortKey) and dependencies',
    params: projectParams,
    response: { status: 200, name: 'FullProject', schema: FullProject },
    errors: ['not_found'],
  }),
  updateProject: route({
    operationId: 'updateProject',
    method: 'PATCH',
    path: '/api/projects/{projectId}',
    scope: 'write',
    tag: 'Projects',
    summary: 'Update a project',
    description:
      'Only the fields sent change; null clears a nullable field. Editors and owners may edit; archiving and restoring need the owner role. Emits `project.updated` with `data.changes` (`{field: {from, to}}`).',
    params: projectParams,
    body: { name: 'ProjectPatch', schema: ProjectPatch, required: true },
    response: { status: 200, name: 'ProjectPatchResult', schema: ProjectPatchResult },
    errors: ['invalid_request', 'not_found', 'conflict'],
  }),
  deleteProject: route({
    operationId: 'deleteProject',
    method: 'DELETE',
    path: '/api/projects/{projectId}',
    scope: 'write',
    credentials: 'session',
    destructive: true,
    tag: 'Projects',
    summary: 'Delete a project, with everything in it (project owners only)',
    description: [
      sessionOnlyDeletion,
      '`confirm` must be the project key. Afterwards the project answers 404 everywhere and is absent from listings; its key is free again. Emits `project.deleted` (the project as it was), which workspace-wide webhooks and the project\'s own webhooks receive.',
    ].join('\n\n'),
    params: projectParams,
    query: DeleteConfirmation,
    response: { status: 200, name: 'ProjectDeleted', schema: ProjectDeleted },
    errors: ['invalid_request', 'not_found'],
  }),
  listTemplates: route({
    operationId: 'listTemplates',
    method: 'GET',
    path: '/api/templates',
    scope: 'read',
    tag: 'Templates',
    summary: 'Templates to start a project from: the built-in ones, then those saved in your workspaces',
    description:
      'Built-in templates have their texts in the 24 languages of the service (`locale`); `taskCount` and `durationDays` are computed from the plan each template makes, not typed in.',
    query: TemplateListQuery,
    response: { status: 200, name: 'TemplateList', schema: TemplateList },
    errors: ['invalid_request'],
  }),
  createTemplate: route({
    operationId: 'createTemplate',
    method: 'POST',
    path: '/api/templates',
    scope: 'write',
    tag: 'Templates',
    summary: "Save a project's plan as a template of its workspace",
    description:
      'Editors of the project. The template keeps the phases, tasks, durations, dependencies, constraints and calendars; not progress, assignments or baselines. Everyone in the workspace sees it in the template list (`kind = user`).',
    body: { name: 'TemplateCreate', schema: TemplateCreate, required: true },
    response: { status: 201, name: 'TemplateResponse', schema: TemplateResponse },
    errors: ['invalid_request', 'not_found'],
  }),
  createProjectFromTemplate: route({
    operationId: 'createProjectFromTemplate',
    method: 'POST',
    path: '/api/projects/from-template',
    scope: 'write',
    tag: 'Projects',
    summary: 'Create a project from a template',
    description:
      'The plan starts on `startDate`; task names are in `locale`; `tz` puts the working hours of the project calendar in that time zone. An unknown `templateId` (or one saved in a workspace the caller is not in) is a 400 on that field. Emits `project.created` with `data.source = "template"`, then `task.created` and `dependency.created` for what it holds.',
    body: { name: 'ProjectFromTemplate', schema: ProjectFromTemplate, required: true },
    response: { status: 201, name: 'NewProjectResult', schema: NewProjectResult },
    errors: ['invalid_request', 'not_found', 'conflict'],
  }),
  importProject: route({
    operationId: 'importProject',
    method: 'POST',
    path: '/api/projects/import',
    scope: 'write',
    tag: 'Projects',
    summary: 'Create a project from a Microsoft Project file (MSPDI XML)',
    description:
      'Tasks with their outline, dependencies with lags, constraints, deadlines, calendars with exceptions, resources (as people without an account) and assignments, and baselines. `report` lists what the file held that the plan leaves out or keeps in a nearby form. The file is sent in `data` of a JSON body, or as the body itself with `Content-Type: application/xml` (e.g. `curl --data-binary @plan.xml`), then decoded as the file says (byte order mark, XML declaration, else UTF-8: UTF-16 and the encodings of the WHATWG Encoding Standard are read). A file that cannot be read (not well-formed XML 1.0 with namespaces, not Microsoft Project XML, any DOCTYPE, an encoding not read, over the limits, recurring calendar exceptions beyond the budget) is a 400 on `data` (malformed XML with its line and column), and nothing is created; a value the plan cannot hold as written is listed in `report`, or refused like the JSON API refuses it. Emits `project.created` with `data.source = "import"`, then `task.created` and `dependency.created`.',
    body: {
      name: 'ProjectImport',
      schema: ProjectImport,
      required: true,
      longestString: limits.requestBodyMaxBytes,
      file: { field: 'data', mediaTypes: ['application/xml', 'text/xml'] },
    },
    response: { status: 201, name: 'ProjectImportResult', schema: ProjectImportResult },
    errors: ['invalid_request', 'not_found', 'conflict'],
  }),
  exportProject: route({
    operationId: 'exportProject',
    method: 'GET',
    path: '/api/projects/{projectId}/export',
    scope: 'read',
    tag: 'Projects',
    summary: 'The plan as a file: Microsoft Project XML or CSV',
    description:
      'A download (`Content-Disposition: attachment`, named after the project key). `mspdi` opens in Microsoft Project and tools built on MPXJ, with the dates as scheduled, and imports back as the same plan; `csv` has one row per task in outline order.',
    params: projectParams,
    query: ProjectExportQuery,
    response: { status: 200, name: 'ProjectExport', schema: z.string(), media: ['application/xml', 'text/csv'] },
    errors: ['invalid_request', 'not_found'],
  }),
  duplicateProject: route({
    operationId: 'duplicateProject',
    method: 'POST',
    path: '/api/projects/{projectId}/duplicate',
    scope: 'write',
    tag: 'Projects',
    summary: 'Copy a project into a new one: tasks, dependencies, assignments and baselines, in one write',
    description:
      'Needs the viewer role on the source and membership of the target workspace; the caller becomes a direct owner of the copy. Comments, members, invites, webhooks and saved versions are not copied. People assigned in the source stay assigned where they have access to the copy; others become resources without an account, with the same name. Task keys are numbered anew. Emits `project.created` with `data.source = "duplicate"`, then `task.created` and `dependency.created` for what it holds.',
    params: projectParams,
    body: { name: 'ProjectDuplicate', schema: ProjectDuplicate, required: false },
    response: { status: 201, name: 'NewProjectResult', schema: NewProjectResult },
    errors: ['invalid_request', 'not_found', 'conflict'],
  }),
  listVersions: route({
    operationId: 'listVersions',
    method: 'GET',
    path: '/api/projects/{projectId}/versions',
    scope: 'read',
    tag: 'Projects',
    summary: 'Saved versions of the plan, newest first (without their content)',
    params: projectParams,
    response: { status: 200, name: 'VersionList', schema: VersionList },
    errors: ['not_found'],
  }),
  saveVersion: route({
    operationId: 'saveVersion',
    method: 'POST',
    path: '/api/projects/{projectId}/versions',
    scope: 'write',
    tag: 'Projects',
    summary: 'Save the whole plan as a version, to restore later (editors and owners)',
    description: 'A version holds the project\'s scheduling fields, tasks, dependencies, resources, assignments and baselines as they are now. It emits no event.',
    params: projectParams,
    body: { name: 'VersionCreate', schema: VersionCreate, required: false },
    response: { status: 201, name: 'VersionResponse', schema: VersionResponse },
    errors: ['invalid_request', 'not_found'],
  }),
  restoreVersion: route({
    operationId: 'restoreVersion',
    method: 'POST',
    path: '/api/projects/{projectId}/versions/{versionId}/restore',
    scope: 'write',
    credentials: 'session',
    destructive: true,
    tag: 'Projects',
    summary: 'Make the plan the saved version again (editors and owners)',
    description: [
      sessionOnlyDeletion,
      '`confirm` must be the project key: a restore deletes the tasks created since the version. In one write, the plan as it is is first saved as a version named "Before restore"; then tasks of the version get their saved values and place (tasks deleted since are created again, with new numbers), tasks created since are deleted, dependencies and assignments become the saved ones, and the project\'s start date, deadline and direction the saved ones; everything is recalculated. Baselines are kept as they are. Emits the events of that plan write (`task.*`, `dependency.*`) and one `project.updated` with `data.reason = "restore"` and `data.changes` (the project fields that changed, possibly none).',
    ].join('\n\n'),
    params: versionParams,
    query: RestoreConfirmation,
    response: { status: 200, name: 'VersionRestored', schema: VersionRestored },
    errors: ['invalid_request', 'not_found', 'conflict'],
  }),
  listProjectMembers: route({
    operationId: 'listProjectMembers',
    method: 'GET',
    path: '/api/projects/{projectId}/members',
    scope: 'read',
    tag: 'People',
    summary: 'Everyone with access to the project, with effective and direct roles (not paginated)',
    params: projectParams,
    response: { status: 200, name: 'MemberList', schema: MemberList },
    errors: ['not_found'],
  }),
  setMemberRole: route({
    operationId: 'setMemberRole',
    method: 'PUT',
    path: '/api/projects/{projectId}/members/{userId}',
    scope: 'write',
    tag: 'People',
    summary: "Set a person's direct role on the project (project owners)",
    description:
      'The person must already have access (through the workspace, or a direct role); others join with an invite link. Giving a direct role to someone who had none emits `member.joined`; changing a role emits no event.',
    params: z.object({ projectId: Uuid, userId: Uuid }),
    body: { name: 'MemberRolePut', schema: MemberRolePut, required: true },
    response: { status: 200, name: 'MemberResponse', schema: MemberResponse },
    errors: ['invalid_request', 'not_found'],
  }),
  removeMemberRole: route({
    operationId: 'removeMemberRole',
    method: 'DELETE',
    path: '/api/projects/{projectId}/members/{userId}',
    scope: 'write',
    tag: 'People',
    summary: "Take a person's direct role on the project away (project owners); access through the workspace stays",
    params: z.object({ projectId: Uuid, userId: Uuid }),
    response: { status: 200, name: 'MemberRemoved', schema: MemberRemoved },
    errors: ['not_found'],
  }),
  listBaselines: route({
    operationId: 'listBaselines',
    method: 'GET',
    path: '/api/projects/{projectId}/baseline',
    scope: 'read',
    tag: 'Projects',
    summary: 'Saved baselines of the project',
    params: projectParams,
    response: { status: 200, name: 'BaselineList', schema: BaselineList },
    errors: ['not_found'],
  }),
  saveBaseline: route({
    operationId: 'saveBaseline',
    method: 'POST',
    path: '/api/projects/{projectId}/baseline',
    scope: 'write',
    tag: 'Projects',
    summary: 'Save a baseline: without a name the main baseline (overwritten), with a name a named one',
    description: 'Captures every task\'s start, finish, duration, work and cost. Emits `baseline.saved`.',
    params: projectParams,
    body: { name: 'BaselineCreate', schema: BaselineCreate, required: false },
    response: { status: 201, name: 'BaselineResponse', schema: BaselineResponse },
    errors: ['not_found'],
  }),
  listCalendars: route({
    operationId: 'listCalendars',
    method: 'GET',
    path: '/api/projects/{projectId}/calendars',
    scope: 'read',
    tag: 'Calendars',
    summary: 'Working calendars of the project',
    description: 'The project and its tasks work on one of these (`calendarId`), or on the built-in Standard calendar when it is null.',
    params: projectParams,
    response: { status: 200, name: 'CalendarList', schema: CalendarList },
    errors: ['not_found'],
  }),
  createCalendar: route({
    operationId: 'createCalendar',
    method: 'POST',
    path: '/api/projects/{projectId}/calendars',
    scope: 'write',
    tag: 'Calendars',
    summary: 'Create a working calendar (editors and owners)',
    description:
      'Working times per weekday in an IANA time zone, exceptions (holidays, special working days) and an optional base calendar of the same project. The resolved week must have some working time.',
    params: projectParams,
    body: { name: 'CalendarCreate', schema: CalendarCreate, required: true },
    response: { status: 201, name: 'CalendarResponse', schema: CalendarResponse },
    errors: ['invalid_request', 'not_found'],
  }),
  getCalendar: route({
    operationId: 'getCalendar',
    method: 'GET',
    path: '/api/projects/{projectId}/calendars/{calendarId}',
    scope: 'read',
    tag: 'Calendars',
    summary: 'One working calendar',
    params: calendarParams,
    response: { status: 200, name: 'CalendarResponse', schema: CalendarResponse },
    errors: ['not_found'],
  }),
  updateCalendar: route({
    operationId: 'updateCalendar',
    method: 'PATCH',
    path: '/api/projects/{projectId}/calendars/{calendarId}',
    scope: 'write',
    tag: 'Calendars',
    summary: 'Change a working calendar (editors and owners)',
    description:
      'Only the fields sent change; `exceptions` is replaced whole. When the working times change and the project or a task works on this calendar, or on a calendar based on it, every task is recalculated in the same write (`rescheduled: true`), and tasks that moved emit `task.dates_changed` with cause `reschedule`.',
    params: calendarParams,
    body: { name: 'CalendarPatch', schema: CalendarPatch, required: true },
    response: { status: 200, name: 'CalendarPatchResult', schema: CalendarPatchResult },
    errors: ['invalid_request', 'not_found'],
  }),
  deleteCalendar: route({
    operationId: 'deleteCalendar',
    method: 'DELETE',
    path: '/api/projects/{projectId}/calendars/{calendarId}',
    scope: 'write',
    credentials: 'session',
    destructive: true,
    tag: 'Calendars',
    summary: 'Delete a working calendar that nothing works on (editors and owners)',
    description: [
      sessionOnlyDeletion,
      'Deleting a calendar never moves a date: one that the project, a task or another calendar (as its base) works on is refused with 409 `conflict`, and `details.usedBy` says which (`project`: boolean, `taskIds`, `calendarIds`); move them to another calendar first.',
    ].join('\n\n'),
    params: calendarParams,
    response: { status: 204, name: 'NoContent', schema: z.void() },
    errors: ['not_found', 'conflict'],
  }),
  listResources: route({
    operationId: 'listResources',
    method: 'GET',
    path: '/api/projects/{projectId}/resources',
    scope: 'read',
    tag: 'Resources',
    summary: 'Resources of the project: who and what can be assigned',
    description:
      'Additive. A member gets a resource the first time they are assigned (`userId` set); resources without an account are created here or come with an import. Tasks name them in `assignees[].resourceId`.',
    params: projectParams,
    response: { status: 200, name: 'ResourceList', schema: ResourceList },
    errors: ['not_found'],
  }),
  createResource: route({
    operationId: 'createResource',
    method: 'POST',
    path: '/api/projects/{projectId}/resources',
    scope: 'write',
    tag: 'Resources',
    summary: 'Create a resource without an account (editors and owners)',
    description:
      'Additive. A machine, a team or a contractor to assign to tasks (`PUT …/tasks/{taskId}/assignees` with `resourceIds`). `maxUnitsPct` (default 100) is how much of it there is at once; leveling keeps its load within it. Emits no event: assigning it to a task emits `task.updated`.',
    params: projectParams,
    body: { name: 'ResourceCreate', schema: ResourceCreate, required: true },
    response: { status: 201, name: 'ResourceResponse', schema: ResourceResponse },
    errors: ['invalid_request', 'not_found'],
  }),
  updateResource: route({
    operationId: 'updateResource',
    method: 'PATCH',
    path: '/api/projects/{projectId}/resources/{resourceId}',
    scope: 'write',
    tag: 'Resources',
    summary: "Rename a resource or change its Max. Units (editors and owners)",
    description:
      "Additive. Only the fields sent change. No date moves: Max. Units count when the project is leveled (`POST …/level`). Emits no event (tasks carry the resource's name in `assignees`).",
    params: resourceParams,
    body: { name: 'ResourcePatch', schema: ResourcePatch, required: true },
    response: { status: 200, name: 'ResourceResponse', schema: ResourceResponse },
    errors: ['invalid_request', 'not_found'],
  }),
  getForecast: route({
    operationId: 'getForecast',
    method: 'GET',
    path: '/api/projects/{projectId}/forecast',
    scope: 'read',
    tag: 'Projects',
    summary: 'Forecast the project finish (PERT Monte Carlo): P50, P80 and P95 finish dates',
    description:
      "Additive. Tasks with `durationOptimisticMin` and `durationPessimisticMin` get a duration drawn from their Beta-PERT range in each run; the plan is recalculated (links, constraints, calendars) and its finish noted. Nothing is saved. The same plan and `seed` give the same answer.",
    params: projectParams,
    query: ForecastQuery,
    response: { status: 200, name: 'ForecastResponse', schema: ForecastResponse },
    errors: ['invalid_request', 'not_found'],
  }),
  levelResources: route({
    operationId: 'levelResources',
    method: 'POST',
    path: '/api/projects/{projectId}/level',
    scope: 'write',
    tag: 'Projects',
    summary: 'Level resources: delay tasks so that no resource is assigned beyond its capacity (editors and owners)',
    description: [
      "Additive. Sets each task's `levelingDelayMin` as Microsoft Project's Level Now does in spirit: tasks that may move (scheduled automatically, not started, assigned) lose their delays, then are placed by early start, total float and task number, each where its resources have room; the plan is recalculated. Leveling a leveled plan changes nothing. `?dryRun=true` previews it and saves nothing.",
      'The answer is the write result (with `task.updated` and `task.dates_changed` for what changed) plus `leveling`: each task whose delay changes with its dates before and after, the project finish before and after, and the over-allocations leveling could not resolve. Send an `Idempotency-Key` header to make retries safe.',
    ].join('\n\n'),
    params: projectParams,
    query: DryRunQuery,
    body: { name: 'LevelingRequest', schema: LevelingRequest, required: false },
    response: { status: 200, name: 'LevelingResult', schema: LevelingResult },
    errors: ['invalid_request', 'not_found', 'conflict'],
  }),
  listTasks: route({
    operationId: 'listTasks',
    method: 'GET',
    path: '/api/projects/{projectId}/tasks',
    scope: 'read',
    tag: 'Tasks',
    summary: 'List and search tasks, a page at a time',
    description:
      'Pages never skip or repeat a task, even while tasks are being added: follow `nextCursor` until it is null. `sort=-updatedAt` returns the first page only.',
    params: projectParams,
    query: TaskListQuery,
    response: { status: 200, name: 'TaskList', schema: TaskList },
    errors: ['invalid_request', 'not_found'],
  }),
  createTasks: route({
    operationId: 'createTasks',
    method: 'POST',
    path: '/api/projects/{projectId}/tasks',
    scope: 'write',
    tag: 'Tasks',
    summary: 'Create a task (TaskCreate → 201), or apply a change set (ChangeSet → 200)',
    description: [
      'A body with any of `createTasks`, `updateTasks`, `createDependencies`, `deleteDependencyIds` or `fullReschedule` is a change set: every change is applied in one transaction with one recalculation; any invalid item rejects the whole set (its path, e.g. `createTasks[3].durationMin`, is in `details.fields`) and nothing is saved.',
      'Items refer to tasks created in the same set by giving those tasks an `id` of the client\'s choosing (a UUID) and using it in `parentId`, `afterTaskId`, `beforeTaskId`, `predecessorId`, `successorId` and `updateTasks[].id`.',
      'Send an `Idempotency-Key` header to make retries safe.',
    ].join('\n\n'),
    params: projectParams,
    query: DryRunQuery,
    body: {
      name: 'TaskCreateOrChangeSet',
      schema: z.union([TaskCreate, ChangeSet]),
      required: true,
      pick: (body) => (isChangeSet(body) ? ChangeSet : TaskCreate),
    },
    response: { status: 201, alsoStatus: 200, name: 'WriteResult', schema: WriteResult },
    errors: ['invalid_request', 'not_found', 'conflict', 'dependency_cycle'],
  }),
  getTask: route({
    operationId: 'getTask',
    method: 'GET',
    path: '/api/projects/{projectId}/tasks/{taskId}',
    scope: 'read',
    tag: 'Tasks',
    summary: 'One task',
    params: taskParams,
    response: { status: 200, name: 'TaskResponse', schema: TaskResponse },
    errors: ['not_found'],
  }),
  updateTask: route({
    operationId: 'updateTask',
    method: 'PATCH',
    path: '/api/projects/{projectId}/tasks/{taskId}',
    scope: 'write',
    tag: 'Tasks',
    summary: 'Update a task: only the fields sent change; null clears a nullable field',
    params: taskParams,
    query: DryRunQuery,
    body: { name: 'TaskPatch', schema: TaskPatch, required: true },
    response: { status: 200, name: 'WriteResult', schema: WriteResult },
    errors: ['invalid_request', 'not_found', 'conflict'],
  }),
  deleteTask: route({
    operationId: 'deleteTask',
    method: 'DELETE',
    path: '/api/projects/{projectId}/tasks/{taskId}',
    scope: 'write',
    credentials: 'session',
    destructive: true,
    tag: 'Tasks',
    summary: 'Delete a task with all its subtasks and every dependency touching them (editors and owners)',
    description: [
      sessionOnlyDeletion,
      '`confirm` must be the task key (`WEB-12`). The rest of the plan is recalculated as after any write: emits `task.deleted` per task deleted, `dependency.deleted` per dependency removed, and `task.updated`/`task.dates_changed` for what moved. A parent left without subtasks stays a summary.',
    ].join('\n\n'),
    params: taskParams,
    query: DeleteConfirmation,
    response: { status: 200, name: 'WriteResult', schema: WriteResult },
    errors: ['invalid_request', 'not_found'],
  }),
  listComments: route({
    operationId: 'listComments',
    method: 'GET',
    path: '/api/projects/{projectId}/tasks/{taskId}/comments',
    scope: 'read',
    tag: 'Tasks',
    summary: 'Comments on a task, oldest first',
    params: taskParams,
    response: { status: 200, name: 'CommentList', schema: CommentList },
    errors: ['not_found'],
  }),
  createComment: route({
    operationId: 'createComment',
    method: 'POST',
    path: '/api/projects/{projectId}/tasks/{taskId}/comments',
    scope: 'write',
    tag: 'Tasks',
    summary: 'Comment on a task; each mentioned member is e-mailed',
    params: taskParams,
    body: { name: 'CommentCreate', schema: CommentCreate, required: true },
    response: { status: 201, name: 'CommentResponse', schema: CommentResponse },
    errors: ['invalid_request', 'not_found'],
  }),
  putAssignees: route({
    operationId: 'putAssignees',
    method: 'PUT',
    path: '/api/projects/{projectId}/tasks/{taskId}/assignees',
    scope: 'write',
    tag: 'People',
    summary: 'Replace the people assigned to a task',
    description:
      'Answers the WriteResult of the recalculation (assignments can change duration or work, per the task type) plus `task`, the task with its new `assignees`.',
    params: taskParams,
    body: { name: 'AssigneesPut', schema: AssigneesPut, required: true },
    response: { status: 200, name: 'AssigneesResult', schema: AssigneesResult },
    errors: ['invalid_request', 'not_found'],
  }),
  listDependencies: route({
    operationId: 'listDependencies',
    method: 'GET',
    path: '/api/projects/{projectId}/dependencies',
    scope: 'read',
    tag: 'Dependencies',
    summary: 'Every dependency of the project (not paginated)',
    params: projectParams,
    response: { status: 200, name: 'DependencyList', schema: DependencyListResponse },
    errors: ['not_found'],
  }),
  createDependencies: route({
    operationId: 'createDependencies',
    method: 'POST',
    path: '/api/projects/{projectId}/dependencies',
    scope: 'write',
    tag: 'Dependencies',
    summary: 'Create dependencies, or update the type/lag of existing ones (same predecessor and successor)',
    description: 'One DependencyCreate, or `{dependencies: DependencyCreate[]}`. A link that would close a cycle is refused with 409 `dependency_cycle` and nothing is saved.',
    params: projectParams,
    query: DryRunQuery,
    body: {
      name: 'DependencyWrite',
      schema: DependencyWrite,
      required: true,
      pick: (body) => (isDependencyList(body) ? DependencyList : DependencyCreate),
    },
    response: { status: 201, name: 'WriteResult', schema: WriteResult },
    errors: ['invalid_request', 'not_found', 'dependency_cycle'],
  }),
  deleteDependency: route({
    operationId: 'deleteDependency',
    method: 'DELETE',
    path: '/api/projects/{projectId}/dependencies/{dependencyId}',
    scope: 'write',
    tag: 'Dependencies',
    summary: 'Remove a dependency',
    params: z.object({ projectId: Uuid, dependencyId: Uuid }),
    response: { status: 200, name: 'WriteResult', schema: WriteResult },
    errors: ['not_found'],
  }),
  createInvite: route({
    operationId: 'createInvite',
    method: 'POST',
    path: '/api/projects/{projectId}/invites',
    scope: 'write',
    tag: 'People',
    summary: 'Create an invite link to the project (project owners only)',
    description:
      'The link (`invite.url`) is in this answer only, and in the e-mail sent to `email` when one is given. With `email`, only that person may accept it, once; without, anyone with the link may, until it expires. Emits `member.invited` (never with the link).',
    params: projectParams,
    body: { name: 'InviteCreate', schema: InviteCreate, required: true },
    response: { status: 201, name: 'InviteWithUrl', schema: InviteWithUrl },
    errors: ['invalid_request', 'not_found'],
  }),
  listInvites: route({
    operationId: 'listInvites',
    method: 'GET',
    path: '/api/projects/{projectId}/invites',
    scope: 'read',
    tag: 'People',
    summary: 'Active invites of the project, without their links (project owners only)',
    params: projectParams,
    response: { status: 200, name: 'InviteList', schema: InviteList },
    errors: ['not_found'],
  }),
  revokeInvite: route({
    operationId: 'revokeInvite',
    method: 'POST',
    path: '/api/projects/{projectId}/invites/{inviteId}/revoke',
    scope: 'write',
    tag: 'People',
    summary: 'Revoke an invite: its link stops working at once (project owners only)',
    params: inviteParams,
    response: { status: 200, name: 'InviteRevoked', schema: InviteRevoked },
    errors: ['not_found'],
  }),
  previewInvite: route({
    operationId: 'previewInvite',
    method: 'POST',
    path: '/api/invites/preview',
    scope: 'read',
    credentials: 'none',
    tag: 'People',
    summary: 'What an invite link joins: the project name and the role',
    description:
      'Anyone holding the link may ask (the web app shows it before the person signs in or up). The token goes in the body, never in a URL. An unknown, expired, revoked or used token is 404, the same for each. Counted with sign-ins per client address (429).',
    body: { name: 'InviteAccept', schema: InviteAccept, required: true },
    response: { status: 200, name: 'InvitePreviewResponse', schema: InvitePreviewResponse },
    errors: ['invalid_request', 'not_found'],
  }),
  acceptInvite: route({
    operationId: 'acceptInvite',
    method: 'POST',
    path: '/api/invites/accept',
    scope: 'write',
    credentials: 'session',
    tag: 'People',
    summary: 'Join a project through an invite link',
    description:
      'Signed-in people only. The person gets the invite\'s role on the project (a higher role they already have is kept) and `member.joined` is emitted. An unknown, expired, revoked or used token is 404; an invite for another e-mail address is 403 (`details.reason = "invite_for_another_email"`).',
    body: { name: 'InviteAccept', schema: InviteAccept, required: true },
    response: { status: 200, name: 'InviteAccepted', schema: InviteAccepted },
    errors: ['invalid_request', 'not_found'],
  }),
  createWebhook: route({
    operationId: 'createWebhook',
    method: 'POST',
    path: '/api/webhooks',
    scope: 'write',
    tag: 'Webhooks',
    summary: 'Subscribe a webhook to one project or to every project of a workspace',
    description:
      'The URL must be a public https address. `projectId` needs access to the project; `workspaceId` (every project of the workspace) needs the workspace owner or admin role. At most 50 webhooks per workspace (422 `limit_exceeded`). The signing secret is in this response only.',
    body: { name: 'WebhookCreate', schema: WebhookCreate, required: true },
    response: { status: 201, name: 'WebhookWithSecret', schema: WebhookWithSecret },
    errors: ['invalid_request', 'not_found', 'limit_exceeded'],
  }),
  listWebhooks: route({
    operationId: 'listWebhooks',
    method: 'GET',
    path: '/api/webhooks',
    scope: 'read',
    tag: 'Webhooks',
    summary: "The caller's webhooks",
    response: { status: 200, name: 'WebhookList', schema: WebhookList },
    errors: [],
  }),
  listEventTypes: route({
    operationId: 'listEventTypes',
    method: 'GET',
    path: '/api/webhooks/events',
    scope: 'read',
    tag: 'Webhooks',
    summary: 'The event catalog, with a description per type',
    response: { status: 200, name: 'EventCatalog', schema: EventCatalogResponse },
    errors: [],
  }),
  getWebhook: route({
    operationId: 'getWebhook',
    method: 'GET',
    path: '/api/webhooks/{webhookId}',
    scope: 'read',
    tag: 'Webhooks',
    summary: 'One webhook',
    params: webhookParams,
    response: { status: 200, name: 'WebhookResponse', schema: WebhookResponse },
    errors: ['not_found'],
  }),
  deleteWebhook: route({
    operationId: 'deleteWebhook',
    method: 'DELETE',
    path: '/api/webhooks/{webhookId}',
    scope: 'write',
    tag: 'Webhooks',
    summary: 'Unsubscribe: no further delivery (pending ones are dropped)',
    params: webhookParams,
    response: { status: 200, name: 'WebhookDeleted', schema: WebhookDeleted },
    errors: ['not_found'],
  }),
  rotateWebhookSecret: route({
    operationId: 'rotateWebhookSecret',
    method: 'POST',
    path: '/api/webhooks/{webhookId}/rotate-secret',
    scope: 'write',
    tag: 'Webhooks',
    summary: 'Issue a new signing secret; the old one stops working at once',
    params: webhookParams,
    response: { status: 200, name: 'WebhookWithSecret', schema: WebhookWithSecret },
    errors: ['not_found'],
  }),
  pingWebhook: route({
    operationId: 'pingWebhook',
    method: 'POST',
    path: '/api/webhooks/{webhookId}/ping',
    scope: 'write',
    tag: 'Webhooks',
    summary: 'Send the test event `webhook.ping` now (to check the signature)',
    description: 'Its data: `message`, `webhook {id, name, events}`. Answers the queued delivery; follow it in the delivery log.',
    params: webhookParams,
    response: { status: 202, name: 'DeliveryResponse', schema: DeliveryResponse },
    errors: ['not_found'],
  }),
  listDeliveries: route({
    operationId: 'listDeliveries',
    method: 'GET',
    path: '/api/webhooks/{webhookId}/deliveries',
    scope: 'read',
    tag: 'Webhooks',
    summary: 'The delivery log (kept 30 days): every delivery with its attempts, newest first',
    params: webhookParams,
    query: DeliveryListQuery,
    response: { status: 200, name: 'DeliveryList', schema: DeliveryList },
    errors: ['invalid_request', 'not_found'],
  }),
  resendDelivery: route({
    operationId: 'resendDelivery',
    method: 'POST',
    path: '/api/webhooks/{webhookId}/deliveries/{deliveryId}/resend',
    scope: 'write',
    tag: 'Webhooks',
    summary: 'Send the event of a delivery again, as a new delivery',
    params: z.object({ webhookId: Uuid, deliveryId: Uuid }),
    response: { status: 202, name: 'DeliveryResponse', schema: DeliveryResponse },
    errors: ['not_found'],
  }),
  enableWebhook: route({
    operationId: 'enableWebhook',
    method: 'POST',
    path: '/api/webhooks/{webhookId}/enable',
    scope: 'write',
    credentials: 'session',
    tag: 'Webhooks',
    summary: 'Turn a disabled webhook on again',
    description:
      'Signed-in people only (the web app), as a person should look at why deliveries failed before turning a webhook on again. The address is checked again as at subscription; the count of failed events starts over. Events that happened while it was disabled are not sent.',
    params: webhookParams,
    response: { status: 200, name: 'WebhookResponse', schema: WebhookResponse },
    errors: ['invalid_request', 'not_found'],
  }),
  listApiKeys: route({
    operationId: 'listApiKeys',
    method: 'GET',
    path: '/api/auth/keys',
    scope: 'read',
    credentials: 'session',
    tag: 'Account',
    summary: "The signed-in person's API keys, with when each was last used",
    description: 'Signed-in people only: a key cannot list, create or revoke keys.',
    response: { status: 200, name: 'ApiKeyList', schema: ApiKeyList },
    errors: [],
  }),
  createApiKey: route({
    operationId: 'createApiKey',
    method: 'POST',
    path: '/api/auth/keys',
    scope: 'write',
    credentials: 'session',
    tag: 'Account',
    summary: 'Create a personal API key (shown once)',
    description: 'Signed-in people only. The key acts as its owner, never more, narrowed by its scope and optional workspace and expiry.',
    body: { name: 'ApiKeyCreate', schema: ApiKeyCreate, required: true },
    response: { status: 201, name: 'ApiKeyCreated', schema: ApiKeyCreated },
    errors: ['invalid_request', 'not_found'],
  }),
  revokeApiKey: route({
    operationId: 'revokeApiKey',
    method: 'POST',
    path: '/api/auth/keys/{keyId}/revoke',
    scope: 'write',
    credentials: 'session',
    tag: 'Account',
    summary: 'Revoke an API key: it stops working at once',
    description: 'Signed-in people only. Revoking a revoked key answers it unchanged.',
    params: z.object({ keyId: Uuid }),
    response: { status: 200, name: 'ApiKeyResponse', schema: ApiKeyResponse },
    errors: ['not_found'],
  }),
};

export type Routes = typeof routes;
export type RouteName = keyof Routes;
