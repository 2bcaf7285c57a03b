import { randomUUID } from 'node:crypto';
import type { Resource, ResourceCreate, ResourcePatch } from '@gantry/contract';
import type { ResourceRow } from '../../store/store.js';
import { nowIso, type Actor, type DomainContext } from '../context.js';
import { notFound } from '../errors.js';
import { lockProject, requireProject } from '../permissions.js';

/** A new resource of the project: a member's (`userId`), or one without an account; one full-time unit unless told. */
export function newResourceRow(projectId: string, fields: { userId: string | null; name: string; maxUnitsPct?: number }, now: string): ResourceRow {
  return { id: randomUUID(), project_id: projectId, user_id: fields.userId, name: fields.name, max_units_pct: fields.maxUnitsPct ?? 100, created_at: now };
}

export function presentResource(row: ResourceRow): Resource {
  return { id: row.id, userId: row.user_id, name: row.name, maxUnitsPct: row.max_units_pct };
}

export async function listResources(ctx: DomainContext, actor: Actor, projectId: string): Promise<Resource[]> {
  await requireProject(ctx, actor, projectId, 'viewer');
  return (await ctx.store.q.people.listResources(projectId)).map(presentResource);
}

/**
 * Creates a resource without an account (editors and owners). The plan version moves, as
 * the cached plan holds the resources (plan-cache.ts).
 */
export async function createResource(ctx: DomainContext, actor: Actor, projectId: string, input: ResourceCreate): Promise<Resource> {
  await requireProject(ctx, actor, projectId, 'editor');
  const row = newResourceRow(projectId, { userId: null, name: input.name, maxUnitsPct: input.maxUnitsPct }, nowIso(ctx));
  await ctx.store.transaction(async (tx) => {
    const project = await lockProject(tx, projectId);
    await tx.people.insertResource(row);
    await tx.projects.update(projectId, { plan_version: project.plan_version + 1 });
  });
  return presentResource(row);
}

/**
 * Renames a resource or changes its Max. Units (editors and owners). No date moves: Max.
 * Units count when the project is leveled. Tasks show the name in `assignees`, and the
 * cached plan holds the resources, so the plan version moves.
 */
export async function updateResource(ctx: DomainContext, actor: Actor, projectId: string, resourceId: string, patch: ResourcePatch): Promise<Resource> {
  await requireProject(ctx, actor, projectId, 'editor');
  return ctx.store.transaction(async (tx) => {
    const project = await lockProject(tx, projectId);
    const current = await tx.people.findResource(projectId, resourceId);
    if (!current) throw notFound('resource');
    const next: ResourceRow = { ...current, name: patch.name ?? current.name, max_units_pct: patch.maxUnitsPct ?? current.max_units_pct };
    await tx.people.updateResource(resourceId, { name: next.name, max_units_pct: next.max_units_pct });
    await tx.projects.update(projectId, { plan_version: project.plan_version + 1 });
    return presentResource(next);
  });
}
