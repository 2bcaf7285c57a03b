import { randomUUID } from 'node:crypto';
import { limits, type Workspace, type WorkspaceRole } from '@gantry/contract';
import type { Actor, DomainContext } from './context.js';
import { nowIso } from './context.js';
import { conflict, invalid, notFound } from './errors.js';
import { normalizeEmail } from './users.js';
import { tooLong } from './validation.js';

/**
 * The caller's workspaces with the caller's role, the caller's personal workspace first (another
 * person's personal workspace the caller was added to is not "personal" for the caller); a
 * restricted key sees only its own.
 */
export async function listWorkspaces(ctx: DomainContext, actor: Actor): Promise<Workspace[]> {
  const rows = await ctx.store.q.workspaces.listForUser(actor.userId, actor.workspaceId);
  const workspaces = rows.map((row) => ({ id: row.id, name: row.name, role: row.role, personal: row.is_personal === 1 && row.created_by === actor.userId }));
  return [...workspaces.filter((w) => w.personal), ...workspaces.filter((w) => !w.personal)];
}

/** Creates a shared workspace owned by the user with that e-mail (operator command). */
export async function createWorkspace(ctx: DomainContext, input: { ownerEmail: string; name: string }): Promise<Workspace> {
  const name = input.name.trim();
  const problems = name ? tooLong('name', name, limits.nameMaxLength) : [{ path: 'name', message: 'must not be empty' }];
  if (problems.length > 0) throw invalid(problems);
  const now = nowIso(ctx);
  const id = randomUUID();
  await ctx.store.transaction(async (tx) => {
    const owner = await tx.users.findByEmail(normalizeEmail(input.ownerEmail));
    if (!owner) throw notFound(`user ${input.ownerEmail}`);
    await tx.workspaces.insert({ id, name, is_personal: 0, created_by: owner.id, created_at: now, updated_at: now });
    await tx.workspaces.putMember({ workspace_id: id, user_id: owner.id, role: 'owner', created_at: now });
  });
  return { id, name, role: 'owner', personal: false };
}

/** Adds a person to a workspace, or changes their role (operator command). */
export async function addWorkspaceMember(
  ctx: DomainContext,
  input: { workspaceId: string; email: string; role: WorkspaceRole },
): Promise<void> {
  const now = nowIso(ctx);
  await ctx.store.transaction(async (tx) => {
    const workspace = await tx.workspaces.findById(input.workspaceId);
    if (!workspace) throw notFound(`workspace ${input.workspaceId}`);
    const user = await tx.users.findByEmail(normalizeEmail(input.email));
    if (!user) throw notFound(`user ${input.email}`);
    const current = await tx.workspaces.findMembership(workspace.id, user.id);
    if (current?.role === 'owner' && input.role !== 'owner') {
      throw conflict(`${user.email} owns workspace ${workspace.id}; a workspace keeps its owner`);
    }
    await tx.workspaces.putMember({ workspace_id: workspace.id, user_id: user.id, role: input.role, created_at: now });
  });
}
