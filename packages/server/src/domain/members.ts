import type { Member, ProjectRole } from '@gantry/contract';
import { nowIso, type Actor, type DomainContext } from './context.js';
import { notFound } from './errors.js';
import { appendEvents } from './outbox.js';
import { effectiveProjectRole, requireProject } from './permissions.js';
import { displayName, normalizeEmail } from './users.js';

/** Everyone with access to the project: direct members and the workspace's members. */
export async function listProjectMembers(ctx: DomainContext, actor: Actor, projectId: string): Promise<Member[]> {
  const { project } = await requireProject(ctx, actor, projectId, 'viewer');
  const people = await ctx.store.q.projects.listPeople(project.id, project.workspace_id);
  return people.flatMap((person) => {
    const role = effectiveProjectRole(person.workspace_role, person.direct_role);
    if (!role) return [];
    const since = [person.direct_since, person.workspace_since].filter((at): at is string => at !== null).sort();
    return [
      {
        userId: person.id,
        name: displayName(person),
        email: person.email,
        role,
        directRole: person.direct_role,
        inherited: person.workspace_role !== null,
        resourceId: null,
        addedAt: since[0] ?? nowIso(ctx),
        avatarUrl: person.avatar_url,
      },
    ];
  });
}

/**
 * Grants a person a direct role on a project, or changes it (operator command).
 * Emits `member.joined` when the person had no direct role before.
 */
export async function addProjectMember(
  ctx: DomainContext,
  input: { projectId: string; email: string; role: ProjectRole },
): Promise<void> {
  const now = nowIso(ctx);
  await ctx.store.transaction(async (tx) => {
    const project = await tx.projects.findById(input.projectId);
    if (!project) throw notFound(`project ${input.projectId}`);
    const user = await tx.users.findByEmail(normalizeEmail(input.email));
    if (!user) throw notFound(`user ${input.email}`);
    const before = await tx.projects.findWithAccess(project.id, user.id);
    await tx.projects.putMember({ project_id: project.id, user_id: user.id, role: input.role, created_at: now });
    if (before?.direct_role == null) {
      await appendEvents(tx, { userId: user.id, name: displayName(user) }, now, [
        {
          type: 'member.joined',
          workspaceId: project.workspace_id,
          projectId: project.id,
          data: { member: { userId: user.id, name: displayName(user), email: user.email, role: input.role } },
        },
      ]);
    }
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
