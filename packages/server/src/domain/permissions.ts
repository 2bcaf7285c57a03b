import type { ProjectRole, WorkspaceRole } from '@gantry/contract';
import type { ProjectAccessRow, ProjectRow, Queries } from '../store/store.js';
import type { Actor, DomainContext } from './context.js';
import { forbidden, notFound } from './errors.js';

const projectRank: Record<ProjectRole, number> = { viewer: 1, editor: 2, owner: 3 };

/** Workspace owners and admins own every project of the workspace; members edit them. */
export function inheritedProjectRole(workspaceRole: WorkspaceRole | null): ProjectRole | null {
  if (workspaceRole === 'owner' || workspaceRole === 'admin') return 'owner';
  if (workspaceRole === 'member') return 'editor';
  return null;
}

/** The highest of the direct and the inherited role; null = no access. */
export function effectiveProjectRole(workspaceRole: WorkspaceRole | null, directRole: ProjectRole | null): ProjectRole | null {
  const inherited = inheritedProjectRole(workspaceRole);
  if (!inherited) return directRole;
  if (!directRole) return inherited;
  return projectRank[directRole] > projectRank[inherited] ? directRole : inherited;
}

export function roleAtLeast(role: ProjectRole, needed: ProjectRole): boolean {
  return projectRank[role] >= projectRank[needed];
}

export interface ProjectAccess {
  project: ProjectRow;
  role: ProjectRole;
}

/**
 * Loads a project the actor may see with at least `needed`. Invisible projects (no
 * access, or outside a restricted key's workspace) are 404, exactly like missing ones;
 * visible but not allowed is 403.
 */
export async function requireProject(
  ctx: DomainContext,
  actor: Actor,
  projectId: string,
  needed: ProjectRole,
  row?: ProjectAccessRow,
): Promise<ProjectAccess> {
  const lookup = () => ctx.store.q.projects.findWithAccess(projectId, actor.userId);
  const found = row ?? (ctx.memo ? await ctx.memo.get(ctx.store, `access:${projectId}:${actor.userId}`, lookup) : await lookup());
  const role = found ? effectiveProjectRole(found.workspace_role, found.direct_role) : null;
  if (!found || !role || (actor.workspaceId !== null && found.workspace_id !== actor.workspaceId)) {
    throw notFound('project');
  }
  if (!roleAtLeast(role, needed)) {
    throw forbidden('insufficient_role', `this needs the ${needed} role on the project; you are ${role}`);
  }
  // The access row is a project row with two more columns: no copy on this hot path.
  return { project: found, role };
}

/** The project's row, locked for the write transaction `tx` runs (404 when it is gone): every project write starts here. */
export async function lockProject(tx: Queries, projectId: string): Promise<ProjectRow> {
  const project = await tx.projects.findForWrite(projectId);
  if (!project) throw notFound('project');
  return project;
}
