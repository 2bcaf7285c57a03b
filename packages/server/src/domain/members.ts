import type { FieldProblem, Member, ProjectRole } from '@gantry/contract';
import type { ProjectRow, Queries, UserRow } from '../store/store.js';
import { nowIso, type Actor, type DomainContext } from './context.js';
import { notFound } from './errors.js';
import { appendEvents } from './outbox.js';
import { effectiveProjectRole, requireProject, roleAtLeast } from './permissions.js';
import { displayName, normalizeEmail } from './users.js';

type Person = Awaited<ReturnType<DomainContext['store']['q']['projects']['listPeople']>>[number];

/** Everyone with access to the project (direct or through the workspace), with the effective role, by user id. */
export async function projectMembers(ctx: DomainContext, project: Pick<ProjectRow, 'id' | 'workspace_id'>): Promise<Map<string, Person & { role: ProjectRole }>> {
  const people = await ctx.store.q.projects.listPeople(project.id, project.workspace_id);
  return new Map(
    people.flatMap((person) => {
      const role = effectiveProjectRole(person.workspace_role, person.direct_role);
      return role ? [[person.id, { ...person, role }] as const] : [];
    }),
  );
}

/** A 400 problem (`field[i]`) for every user id that is not a member of the project. */
export function nonMemberProblems(members: ReadonlyMap<string, unknown>, userIds: readonly string[], field: string): FieldProblem[] {
  return userIds.flatMap((userId, index) => (members.has(userId) ? [] : [{ path: `${field}[${index}]`, message: 'is not a member of this project' }]));
}

/** One person with access to the project, as the member list shows them. */
export function presentMember(ctx: DomainContext, project: Pick<ProjectRow, 'created_at'>, person: Person & { role: ProjectRole }): Member {
  // Workspace members have had access since the project exists, not since they joined the workspace.
  const throughWorkspace = person.workspace_since === null ? null : person.workspace_since > project.created_at ? person.workspace_since : project.created_at;
  const since = [person.direct_since, throughWorkspace].filter((at): at is string => at !== null).sort();
  return {
    userId: person.id,
    name: displayName(person),
    email: person.email,
    role: person.role,
    directRole: person.direct_role,
    inherited: person.workspace_role !== null,
    resourceId: person.resource_id,
    addedAt: since[0] ?? nowIso(ctx),
    avatarUrl: person.avatar_url,
  };
}

/** Everyone with access to the project: direct members and the workspace's members. */
export async function listProjectMembers(ctx: DomainContext, actor: Actor, projectId: string): Promise<Member[]> {
  const { project } = await requireProject(ctx, actor, projectId, 'viewer');
  return [...(await projectMembers(ctx, project)).values()].map((person) => presentMember(ctx, project, person));
}

/**
 * Gives a person a direct role on a project, inside the caller's transaction: `role`, or
 * with `keepHigher` the higher of it and the direct role the person has. Emits
 * `member.joined` when the person had no direct role before. Returns the direct role now held.
 */
export async function grantProjectRole(
  tx: Queries,
  project: Pick<ProjectRow, 'id' | 'workspace_id'>,
  user: Pick<UserRow, 'id' | 'name' | 'email'>,
  role: ProjectRole,
  now: string,
  options: { keepHigher?: boolean; actor?: Pick<Actor, 'userId' | 'name' | 'credential'> } = {},
): Promise<ProjectRole> {
  const before = (await tx.projects.findWithAccess(project.id, user.id))?.direct_role ?? null;
  const granted = options.keepHigher && before !== null && roleAtLeast(before, role) ? before : role;
  if (granted !== before) await tx.projects.putMember({ project_id: project.id, user_id: user.id, role: granted, created_at: now });
  if (before === null) {
    await appendEvents(tx, options.actor ?? { userId: user.id, name: displayName(user) }, now, [
      {
        type: 'member.joined',
        workspaceId: project.workspace_id,
        projectId: project.id,
        data: { member: { userId: user.id, name: displayName(user), email: user.email, role: granted } },
      },
    ]);
  }
  return granted;
}

/**
 * Grants a person a direct role on a project, or changes it (operator command).
 * Emits `member.joined` when the person had no direct role before.
 */
export async function addProjectMember(
  ctx: DomainContext,
  input: { projectId: string; email: string; role: ProjectRole },
): Promise<void> {
  await ctx.store.transaction(async (tx) => {
    const project = await tx.projects.findById(input.projectId);
    if (!project) throw notFound(`project ${input.projectId}`);
    const user = await tx.users.findByEmail(normalizeEmail(input.email));
    if (!user) throw notFound(`user ${input.email}`);
    await grantProjectRole(tx, project, user, input.role, nowIso(ctx));
  });
}

/** Takes a person's direct role on a project away (operator command); workspace access stays. */
export async function removeProjectMember(ctx: DomainContext, input: { projectId: string; email: string }): Promise<void> {
  await ctx.store.transaction(async (tx) => {
    const project = await tx.projects.findById(input.projectId);
    if (!project) throw notFound(`project ${input.projectId}`);
    const user = await tx.users.findByEmail(normalizeEmail(input.email));
    if (!user) throw notFound(`user ${input.email}`);
    await tx.projects.removeMember(project.id, user.id);
  });
}

/**
 * Sets a person's direct role on the project (owners only). The person must have access
 * already — through the workspace, or a direct role — as others join by invite. Answers
 * the person as the member list shows them; their effective role is the higher of this
 * and their workspace's.
 */
export async function setMemberRole(ctx: DomainContext, actor: Actor, projectId: string, userId: string, role: ProjectRole): Promise<Member> {
  const { project } = await requireProject(ctx, actor, projectId, 'owner');
  return ctx.store.transaction(async (tx) => {
    const person = await tx.projects.findWithAccess(projectId, userId);
    const user = await tx.users.findById(userId);
    if (!person || !user || effectiveProjectRole(person.workspace_role, person.direct_role) === null) throw notFound('member of this project (invite them first)');
    await grantProjectRole(tx, project, user, role, nowIso(ctx), { actor });
    const member = await memberOf(ctx, tx, project, userId);
    if (!member) throw notFound('member of this project');
    return member;
  });
}

/**
 * Takes a person's direct role away (owners only): access through the workspace stays,
 * as its role. Answers the person as the member list then shows them, or null when they
 * no longer have access.
 */
export async function removeMemberRole(ctx: DomainContext, actor: Actor, projectId: string, userId: string): Promise<Member | null> {
  const { project } = await requireProject(ctx, actor, projectId, 'owner');
  return ctx.store.transaction(async (tx) => {
    const person = await tx.projects.findWithAccess(projectId, userId);
    if (!person?.direct_role) throw notFound('direct member of this project');
    await tx.projects.removeMember(projectId, userId);
    return memberOf(ctx, tx, project, userId);
  });
}

async function memberOf(ctx: DomainContext, tx: Queries, project: Pick<ProjectRow, 'id' | 'workspace_id' | 'created_at'>, userId: string): Promise<Member | null> {
  const person = (await tx.projects.listPeople(project.id, project.workspace_id)).find((candidate) => candidate.id === userId);
  const role = person ? effectiveProjectRole(person.workspace_role, person.direct_role) : null;
  return person && role ? presentMember(ctx, project, { ...person, role }) : null;
}
