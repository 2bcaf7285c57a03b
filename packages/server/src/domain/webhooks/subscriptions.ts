import { randomUUID } from 'node:crypto';
import { limits, type Webhook, type WebhookCreate } from '@gantry/contract';
import type { z } from 'zod';
import type { WebhookRow } from '../../store/store.js';
import { nowIso, type Actor, type DomainContext } from '../context.js';
import { AppError, forbidden, invalid, notFound } from '../errors.js';
import { requireProject } from '../permissions.js';
import { generateSigningSecret } from './signing-secret.js';

export function presentWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    name: row.name,
    events: JSON.parse(row.events) as string[],
    scope: row.project_id ? 'project' : 'workspace',
    projectId: row.project_id,
    workspaceId: row.workspace_id,
    status: row.status,
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The caller's own webhook; anyone else's is 404. */
export async function requireWebhook(ctx: DomainContext, actor: Actor, webhookId: string): Promise<WebhookRow> {
  const row = await ctx.store.q.webhooks.findById(webhookId);
  if (!row || row.owner_id !== actor.userId || (actor.workspaceId !== null && row.workspace_id !== actor.workspaceId)) throw notFound('webhook');
  return row;
}

/**
 * Subscribes a webhook to one project (any role on it) or to every project of a
 * workspace (workspace owners and admins). The URL must pass the destination policy; the
 * secret is returned here only.
 */
export async function createWebhook(ctx: DomainContext, actor: Actor, input: z.output<typeof WebhookCreate>): Promise<{ webhook: Webhook; secret: string }> {
  const destination = (await ctx.webhookDestinations?.check(input.url)) ?? { ok: false as const, reason: 'webhooks are not available in this process' };
  if (!destination.ok) throw invalid([{ path: 'url', message: destination.reason }]);

  let workspaceId: string;
  if (input.projectId) {
    workspaceId = (await requireProject(ctx, actor, input.projectId, 'viewer')).project.workspace_id;
  } else {
    workspaceId = input.workspaceId as string;
    const membership = await ctx.store.q.workspaces.findMembership(workspaceId, actor.userId);
    if (!membership) throw notFound('workspace');
    if (actor.workspaceId !== null && actor.workspaceId !== workspaceId) throw forbidden('workspace_restricted', 'this API key is restricted to another workspace');
    if (membership.role !== 'owner' && membership.role !== 'admin') {
      throw forbidden('insufficient_role', 'workspace-wide webhooks need the workspace owner or admin role');
    }
  }

  const now = nowIso(ctx);
  const secret = generateSigningSecret();
  const row: WebhookRow = {
    id: randomUUID(),
    owner_id: actor.userId,
    workspace_id: workspaceId,
    project_id: input.projectId ?? null,
    url: destination.url,
    name: input.name ?? null,
    events: JSON.stringify([...new Set(input.events)]),
    secret,
    status: 'active',
    disabled_reason: null,
    disabled_at: null,
    consecutive_failures: 0,
    active_since: now,
    created_at: now,
    updated_at: now,
  };
  await ctx.store.transaction(async (tx) => {
    await tx.workspaces.lockForWrite(workspaceId);
    if ((await tx.webhooks.countInWorkspace(workspaceId)) >= limits.webhooksPerWorkspace) {
      throw new AppError('limit_exceeded', `a workspace has at most ${limits.webhooksPerWorkspace} webhooks`, { limit: limits.webhooksPerWorkspace });
    }
    await tx.webhooks.insert(row);
  });
  return { webhook: presentWebhook(row), secret };
}

export async function listWebhooks(ctx: DomainContext, actor: Actor): Promise<Webhook[]> {
  return (await ctx.store.q.webhooks.listForOwner(actor.userId, actor.workspaceId)).map(presentWebhook);
}

/** Unsubscribes: pending deliveries are dropped; the delivery log of past ones goes with it. */
export async function deleteWebhook(ctx: DomainContext, actor: Actor, webhookId: string): Promise<void> {
  await requireWebhook(ctx, actor, webhookId);
  await ctx.store.transaction((tx) => tx.webhooks.delete(webhookId));
}

/** A new secret; deliveries are signed when sent, so the old secret is dead at once. */
export async function rotateWebhookSecret(ctx: DomainContext, actor: Actor, webhookId: string): Promise<{ webhook: Webhook; secret: string }> {
  const row = await requireWebhook(ctx, actor, webhookId);
  const secret = generateSigningSecret();
  const updated = { ...row, secret, updated_at: nowIso(ctx) };
  await ctx.store.q.webhooks.update(webhookId, { secret, updated_at: updated.updated_at });
  return { webhook: presentWebhook(updated), secret };
}

/**
 * Turns a disabled webhook on again (the person, in the web app): its address must still
 * pass the destination policy, and the count of failed events starts over. Events of the
 * time it was off are not sent (`active_since`).
 */
export async function enableWebhook(ctx: DomainContext, actor: Actor, webhookId: string): Promise<Webhook> {
  const row = await requireWebhook(ctx, actor, webhookId);
  if (row.status === 'active') return presentWebhook(row);
  const destination = (await ctx.webhookDestinations?.check(row.url)) ?? { ok: false as const, reason: 'webhooks are not available in this process' };
  if (!destination.ok) throw invalid([{ path: 'url', message: `${destination.reason}; subscribe a new address instead` }]);
  const now = nowIso(ctx);
  const changes = { status: 'active' as const, disabled_reason: null, disabled_at: null, consecutive_failures: 0, active_since: now, updated_at: now };
  await ctx.store.q.webhooks.update(webhookId, changes);
  return presentWebhook({ ...row, ...changes });
}
