import { isChangeSet, listedEvents, listedOptInEvents, routes, type ChangeSet, type DependencyCreate, type RouteName, type Routes, type TaskCreate } from '@gantry/contract';
import { createOwnApiKey, listOwnApiKeys, revokeOwnApiKey } from './api-keys.js';
import { acceptInvite, createInvite, listInvites, previewInvite, revokeInvite } from './invites.js';
import { completePasswordReset, requestPasswordReset, signIn, signUp, updateMe, verifyEmail, type SignedIn } from './accounts.js';
import { listProjectMembers, removeMemberRole, setMemberRole } from './members.js';
import { listGrants, revokeGrant } from './oauth-grants.js';
import { defineOperation, definePublicOperation, RawJson, WithSession, WithStatus, type Operation } from './operation.js';
import { putAssignees } from './planning/assignees.js';
import { forecastFinish } from './planning/forecast.js';
import { levelProject } from './planning/leveling.js';
import { listBaselines, saveBaseline } from './planning/baselines.js';
import { createCalendar, deleteCalendar, getCalendar, listCalendars, updateCalendar } from './planning/calendars.js';
import { createResource, listResources, updateResource } from './planning/resources.js';
import { createComment, listComments } from './planning/comments.js';
import { applyChangeSet, createTask, deleteDependency, deleteTask, getTask, listDependencies, listTasks, updateTask, writeDependencies } from './planning/tasks.js';
import type { PlanWriteResult } from './planning/write-plan.js';
import { duplicateProject } from './projects/duplicate.js';
import { createProject, deleteProject, getFullProjectJson, listProjects, updateProject } from './projects/projects.js';
import { listVersions, restoreVersion, saveVersion } from './projects/versions.js';
import { currentSession, endSession, endSessionById, listSessions } from './sessions.js';
import { getCurrentUser } from './users.js';
import { listDeliveries, pingWebhook, resendDelivery } from './webhooks/deliveries.js';
import { createWebhook, deleteWebhook, enableWebhook, listWebhooks, presentWebhook, requireWebhook, rotateWebhookSecret } from './webhooks/subscriptions.js';
import { listWorkspaces } from './workspaces.js';
import { exportProject, importProject } from './exchange/project-files.js';
import { createProjectFromTemplate, listTemplates, saveTemplate } from './templates/templates.js';

/** The write result without the plan the domain worked on. */
function writeResult<T extends PlanWriteResult>({ plan: _plan, ...result }: T): Omit<T, 'plan'> {
  return result;
}

/** Signed in: the session's cookie for the browser, the person and the CSRF token for the caller. */
function sessionStarted({ token, user, csrfToken }: SignedIn): WithSession<{ user: SignedIn['user']; csrfToken: string }> {
  return new WithSession({ token }, { user, csrfToken });
}

/**
 * Every operation of the public API, by its contract name: what REST binds to routes,
 * and what MCP tools and the web app call. The type makes it complete — an operation of
 * the contract without a domain function here does not compile.
 */
export const operations = {
  getMe: defineOperation(routes.getMe, async (ctx, actor) => ({ user: await getCurrentUser(ctx, actor) })),
  updateMe: defineOperation(routes.updateMe, async (ctx, actor, { body }) => ({ user: await updateMe(ctx, actor, body) })),
  signUp: definePublicOperation(routes.signUp, async (ctx, { body }, client) => {
    await signUp(ctx, body, client);
    return { verificationSent: true as const };
  }),
  verifyEmail: definePublicOperation(routes.verifyEmail, async (ctx, { body }, client) => sessionStarted(await verifyEmail(ctx, body.token, client))),
  createSession: definePublicOperation(routes.createSession, async (ctx, { body }, client) => sessionStarted(await signIn(ctx, body.email, body.password, client))),
  getSession: defineOperation(routes.getSession, (ctx, actor) => currentSession(ctx, actor)),
  deleteSession: defineOperation(routes.deleteSession, async (ctx, actor) => {
    await endSession(ctx, actor);
    return new WithSession(null, undefined);
  }),
  listSessions: defineOperation(routes.listSessions, async (ctx, actor) => ({ sessions: await listSessions(ctx, actor) })),
  endSessionById: defineOperation(routes.endSessionById, async (ctx, actor, { params }) => {
    const { current } = await endSessionById(ctx, actor, params.sessionId);
    // The asking browser signed itself out: its cookie is cleared, as on sign-out.
    return current ? new WithSession(null, undefined) : undefined;
  }),
  requestPasswordReset: definePublicOperation(routes.requestPasswordReset, async (ctx, { body }, client) => {
    await requestPasswordReset(ctx, body.email, client);
    return { resetSent: true as const };
  }),
  completePasswordReset: definePublicOperation(routes.completePasswordReset, async (ctx, { body }, client) =>
    sessionStarted(await completePasswordReset(ctx, body.token, body.password, client)),
  ),
  listOAuthGrants: defineOperation(routes.listOAuthGrants, async (ctx, actor) => ({ grants: await listGrants(ctx, actor) })),
  revokeOAuthGrant: defineOperation(routes.revokeOAuthGrant, async (ctx, actor, { params }) => {
    await revokeGrant(ctx, actor, params.grantId);
    return { id: params.grantId, revoked: true as const };
  }),
  listWorkspaces: defineOperation(routes.listWorkspaces, async (ctx, actor) => ({ workspaces: await listWorkspaces(ctx, actor) })),

  listProjects: defineOperation(routes.listProjects, async (ctx, actor, { query }) => ({
    projects: await listProjects(ctx, actor, { includeArchived: query.archived === '1' }),
  })),
  createProject: defineOperation(routes.createProject, async (ctx, actor, { body }) => ({ project: await createProject(ctx, actor, body) })),
  getProject: defineOperation(routes.getProject, async (ctx, actor, { params }) => new RawJson(await getFullProjectJson(ctx, actor, params.projectId))),
  updateProject: defineOperation(routes.updateProject, (ctx, actor, { params, body }) => updateProject(ctx, actor, params.projectId, body)),
  deleteProject: defineOperation(routes.deleteProject, (ctx, actor, { params, query }) => deleteProject(ctx, actor, params.projectId, query.confirm)),
  listTemplates: defineOperation(routes.listTemplates, async (ctx, actor, { query }) => ({ templates: await listTemplates(ctx, actor, query.locale) })),
  createTemplate: defineOperation(routes.createTemplate, async (ctx, actor, { body }) => ({ template: await saveTemplate(ctx, actor, body) })),
  createProjectFromTemplate: defineOperation(routes.createProjectFromTemplate, (ctx, actor, { body }) => createProjectFromTemplate(ctx, actor, body)),
  importProject: defineOperation(routes.importProject, (ctx, actor, { body }) => importProject(ctx, actor, body)),
  exportProject: defineOperation(routes.exportProject, (ctx, actor, { params, query }) => exportProject(ctx, actor, params.projectId, query.format)),
  duplicateProject: defineOperation(routes.duplicateProject, async (ctx, actor, { params, body }) => {
    const { project, taskCount, conflicts } = await duplicateProject(ctx, actor, params.projectId, body ?? {});
    return { project, taskCount, conflicts };
  }),
  listVersions: defineOperation(routes.listVersions, async (ctx, actor, { params }) => ({ versions: await listVersions(ctx, actor, params.projectId) })),
  saveVersion: defineOperation(routes.saveVersion, async (ctx, actor, { params, body }) => ({ version: await saveVersion(ctx, actor, params.projectId, body?.name) })),
  restoreVersion: defineOperation(routes.restoreVersion, (ctx, actor, { params, query }) => restoreVersion(ctx, actor, params.projectId, params.versionId, query.confirm)),
  listProjectMembers: defineOperation(routes.listProjectMembers, async (ctx, actor, { params }) => ({ members: await listProjectMembers(ctx, actor, params.projectId) })),
  setMemberRole: defineOperation(routes.setMemberRole, async (ctx, actor, { params, body }) => ({ member: await setMemberRole(ctx, actor, params.projectId, params.userId, body.role) })),
  removeMemberRole: defineOperation(routes.removeMemberRole, async (ctx, actor, { params }) => ({ userId: params.userId, member: await removeMemberRole(ctx, actor, params.projectId, params.userId) })),
  listBaselines: defineOperation(routes.listBaselines, async (ctx, actor, { params }) => ({ baselines: await listBaselines(ctx, actor, params.projectId) })),
  saveBaseline: defineOperation(routes.saveBaseline, async (ctx, actor, { params, body }) => ({ baseline: await saveBaseline(ctx, actor, params.projectId, body.name) })),
  listCalendars: defineOperation(routes.listCalendars, async (ctx, actor, { params }) => ({ calendars: await listCalendars(ctx, actor, params.projectId) })),
  createCalendar: defineOperation(routes.createCalendar, async (ctx, actor, { params, body }) => ({ calendar: await createCalendar(ctx, actor, params.projectId, body) })),
  getCalendar: defineOperation(routes.getCalendar, async (ctx, actor, { params }) => ({ calendar: await getCalendar(ctx, actor, params.projectId, params.calendarId) })),
  updateCalendar: defineOperation(routes.updateCalendar, (ctx, actor, { params, body }) => updateCalendar(ctx, actor, params.projectId, params.calendarId, body)),
  deleteCalendar: defineOperation(routes.deleteCalendar, (ctx, actor, { params }) => deleteCalendar(ctx, actor, params.projectId, params.calendarId)),
  listResources: defineOperation(routes.listResources, async (ctx, actor, { params }) => ({ resources: await listResources(ctx, actor, params.projectId) })),
  createResource: defineOperation(routes.createResource, async (ctx, actor, { params, body }) => ({ resource: await createResource(ctx, actor, params.projectId, body) })),
  updateResource: defineOperation(routes.updateResource, async (ctx, actor, { params, body }) => ({
    resource: await updateResource(ctx, actor, params.projectId, params.resourceId, body),
  })),

  getForecast: defineOperation(routes.getForecast, async (ctx, actor, { params, query }) => ({ forecast: await forecastFinish(ctx, actor, params.projectId, query) })),
  levelResources: defineOperation(routes.levelResources, async (ctx, actor, { params, body }) => writeResult(await levelProject(ctx, actor, params.projectId, body))),
  listTasks: defineOperation(routes.listTasks, (ctx, actor, { params, query }) => listTasks(ctx, actor, params.projectId, query)),
  createTasks: defineOperation(routes.createTasks, async (ctx, actor, { params, body }) => {
    if (isChangeSet(body)) return new WithStatus(200, writeResult(await applyChangeSet(ctx, actor, params.projectId, body as ChangeSet)));
    return writeResult(await createTask(ctx, actor, params.projectId, body as TaskCreate));
  }),
  getTask: defineOperation(routes.getTask, async (ctx, actor, { params }) => ({ task: await getTask(ctx, actor, params.projectId, params.taskId) })),
  updateTask: defineOperation(routes.updateTask, async (ctx, actor, { params, body }) => writeResult(await updateTask(ctx, actor, params.projectId, params.taskId, body))),
  deleteTask: defineOperation(routes.deleteTask, async (ctx, actor, { params, query }) => writeResult(await deleteTask(ctx, actor, params.projectId, params.taskId, query.confirm))),
  listComments: defineOperation(routes.listComments, async (ctx, actor, { params }) => ({ comments: await listComments(ctx, actor, params.projectId, params.taskId) })),
  createComment: defineOperation(routes.createComment, async (ctx, actor, { params, body }) => ({ comment: await createComment(ctx, actor, params.projectId, params.taskId, body) })),
  putAssignees: defineOperation(routes.putAssignees, async (ctx, actor, { params, body }) => writeResult(await putAssignees(ctx, actor, params.projectId, params.taskId, body))),
  listDependencies: defineOperation(routes.listDependencies, async (ctx, actor, { params }) => ({ dependencies: await listDependencies(ctx, actor, params.projectId) })),
  createDependencies: defineOperation(routes.createDependencies, async (ctx, actor, { params, body }) =>
    writeResult(await writeDependencies(ctx, actor, params.projectId, body as DependencyCreate | { dependencies: DependencyCreate[] })),
  ),
  deleteDependency: defineOperation(routes.deleteDependency, async (ctx, actor, { params }) => writeResult(await deleteDependency(ctx, actor, params.projectId, params.dependencyId))),

  createInvite: defineOperation(routes.createInvite, (ctx, actor, { params, body }) => createInvite(ctx, actor, params.projectId, body)),
  listInvites: defineOperation(routes.listInvites, async (ctx, actor, { params }) => ({ invites: await listInvites(ctx, actor, params.projectId) })),
  revokeInvite: defineOperation(routes.revokeInvite, async (ctx, actor, { params }) => {
    await revokeInvite(ctx, actor, params.projectId, params.inviteId);
    return { id: params.inviteId, revoked: true as const };
  }),
  previewInvite: definePublicOperation(routes.previewInvite, async (ctx, { body }, client) => ({ invite: await previewInvite(ctx, body.token, client) })),
  acceptInvite: defineOperation(routes.acceptInvite, (ctx, actor, { body }) => acceptInvite(ctx, actor, body.token)),

  createWebhook: defineOperation(routes.createWebhook, (ctx, actor, { body }) => createWebhook(ctx, actor, body)),
  listWebhooks: defineOperation(routes.listWebhooks, async (ctx, actor) => ({ webhooks: await listWebhooks(ctx, actor) })),
  listEventTypes: defineOperation(routes.listEventTypes, async () => ({ events: [...listedEvents], optInEvents: [...listedOptInEvents] })),
  getWebhook: defineOperation(routes.getWebhook, async (ctx, actor, { params }) => ({ webhook: presentWebhook(await requireWebhook(ctx, actor, params.webhookId)) })),
  deleteWebhook: defineOperation(routes.deleteWebhook, async (ctx, actor, { params }) => {
    await deleteWebhook(ctx, actor, params.webhookId);
    return { id: params.webhookId, deleted: true as const };
  }),
  rotateWebhookSecret: defineOperation(routes.rotateWebhookSecret, (ctx, actor, { params }) => rotateWebhookSecret(ctx, actor, params.webhookId)),
  pingWebhook: defineOperation(routes.pingWebhook, async (ctx, actor, { params }) => ({ delivery: await pingWebhook(ctx, actor, params.webhookId) })),
  listDeliveries: defineOperation(routes.listDeliveries, (ctx, actor, { params, query }) => listDeliveries(ctx, actor, params.webhookId, query)),
  resendDelivery: defineOperation(routes.resendDelivery, async (ctx, actor, { params }) => ({ delivery: await resendDelivery(ctx, actor, params.webhookId, params.deliveryId) })),
  enableWebhook: defineOperation(routes.enableWebhook, async (ctx, actor, { params }) => ({ webhook: await enableWebhook(ctx, actor, params.webhookId) })),

  listApiKeys: defineOperation(routes.listApiKeys, async (ctx, actor) => ({ apiKeys: await listOwnApiKeys(ctx, actor) })),
  createApiKey: defineOperation(routes.createApiKey, (ctx, actor, { body }) => createOwnApiKey(ctx, actor, body)),
  revokeApiKey: defineOperation(routes.revokeApiKey, async (ctx, actor, { params }) => ({ apiKey: await revokeOwnApiKey(ctx, actor, params.keyId) })),
} satisfies { [Name in RouteName]: Operation<Routes[Name]> };
