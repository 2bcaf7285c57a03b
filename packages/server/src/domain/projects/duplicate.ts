import { limits } from '@gantry/contract';
import type { Actor, DomainContext } from '../context.js';
import { requireProject } from '../permissions.js';
import { createProjectFromDocument, documentOfProject, type ProjectFromDocument } from './plan-documents.js';

const copySuffix = ' (copy)';

/** "<name> (copy)", the name shortened to keep it within the length limit (never splitting a character in two). */
export function copyName(name: string): string {
  return `${name.slice(0, limits.nameMaxLength - copySuffix.length).replace(/[\uD800-\uDBFF]$/, '')}${copySuffix}`;
}

/**
 * Copies a project into a new one (viewers of the source, members of the target
 * workspace): its plan as a document, made into a project in one write. By default the
 * copy goes beside the source, in its workspace, when the caller is a member of it.
 */
export async function duplicateProject(
  ctx: DomainContext,
  actor: Actor,
  projectId: string,
  input: { name?: string; key?: string; workspaceId?: string; startDate?: string },
): Promise<ProjectFromDocument> {
  const { project } = await requireProject(ctx, actor, projectId, 'viewer');
  const besideSource = input.workspaceId === undefined && (await ctx.store.q.workspaces.findMembership(project.workspace_id, actor.userId)) ? project.workspace_id : undefined;
  const document = await ctx.store.snapshot((q) => documentOfProject(q, project));
  return createProjectFromDocument(ctx, actor, document, {
    source: 'duplicate',
    name: input.name ?? copyName(project.name),
    key: input.key,
    workspaceId: input.workspaceId ?? besideSource,
    startDate: input.startDate,
  });
}
