import { z } from 'zod';
import { Uuid } from './common.js';
import type { ErrorCode } from './errors.js';
import { MemberList } from './resources/members.js';
import {
  FullProject,
  ProjectCreate,
  ProjectList,
  ProjectListQuery,
  ProjectPatch,
  ProjectPatchResult,
  ProjectResponse,
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

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
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
   */
  credentials?: 'bearer' | 'session' | 'none';
  tag: string;
  summary: string;
  description?: string;
  params?: P;
  query?: Q;
  /**
   * Name of the request body schema in the OpenAPI components, and the schema. `pick`
   * chooses the variant to validate with when the body may take several shapes, so that
   * problems are reported against the shape the client meant.
   */
  body?: { name: string; schema: B; required: boolean; pick?: (body: unknown) => z.ZodType };
  /**
   * The success response; `alsoStatus` documents a second success status with the same
   * body. A 204 has no body (its schema is `z.void()`, and its name is not published).
   */
  response: { status: 200 | 201 | 202 | 204; alsoStatus?: 200 | 201; name: string; schema: R };
  /** Error codes this operation documents beyond the ones every route can answer. */
  errors: ErrorCode[];
}

function route<P extends z.ZodObject, Q extends z.ZodObject, B extends z.ZodType, R extends z.ZodType>(
  def: RouteDef<P, Q, B, R>,
): RouteDef<P, Q, B, R> {
  return def;
}

const projectParams = z.object({ projectId: Uuid });
const taskParams = z.object({ projectId: Uuid, taskId: Uuid });
const webhookParams = z.object({ webhookId: Uuid });

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
    body: { name: 'TaskPatch', schema: TaskPatch, required: true },
    response: { status: 200, name: 'WriteResult', schema: WriteResult },
    errors: ['invalid_request', 'not_found', 'conflict'],
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
};

export type Routes = typeof routes;
export type RouteName = keyof Routes;
