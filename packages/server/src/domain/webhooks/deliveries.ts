import { randomUUID } from 'node:crypto';
import { API_VERSION, isOptInEventType, PING_EVENT, type Delivery, type EventEnvelope, type EventEnvelopeOf, type OptInEventType } from '@gantry/contract';
import type { AttemptRow, DeliveryRow, Queries, WebhookRow } from '../../store/store.js';
import { actingClient, nowIso, type Actor, type DomainContext } from '../context.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { invalid, notFound } from '../errors.js';
import { presentEvent } from '../events.js';
import { queueMail } from '../mail.js';
import { effectiveProjectRole } from '../permissions.js';
import { presentWebhook, requireWebhook } from './subscriptions.js';

/** Events in a row that fail every attempt before a webhook is disabled. */
export const FAILURES_BEFORE_DISABLE = 5;

export function presentDelivery(row: DeliveryRow, attempts: readonly AttemptRow[]): Delivery {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attemptCount: row.attempt_count,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
    // The payload is an envelope this service built (presentEvent, or the ping's) and sent.
    payload: JSON.parse(row.payload) as EventEnvelope,
    attempts: attempts
      .filter((a) => a.delivery_id === row.id)
      .map((a) => ({ attempt: a.attempt, at: a.at, ok: a.ok === 1, httpStatus: a.http_status, responseExcerpt: a.response_excerpt, durationMs: a.duration_ms, error: a.error })),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Whether the webhook covers the project and its event list takes `type`: `*` stands for
 * the catalog only, so an opt-in type must be named (webhooks subscribed to `*` receive
 * what they always have).
 */
function matches(webhook: WebhookRow, type: string, workspaceId: string, projectId: string | null): boolean {
  if (webhook.workspace_id !== workspaceId) return false;
  if (webhook.project_id !== null && webhook.project_id !== projectId) return false;
  const events = JSON.parse(webhook.events) as string[];
  return events.includes(type) || (events.includes('*') && !isOptInEventType(type));
}

/**
 * Which of the opt-in event types `types` an active webhook covering the project names.
 * A write appends an opt-in event only when one does: most plans have no such webhook, and
 * their writes then add nothing to the outbox (webhooks created later only receive what
 * happens after, anyway).
 */
export async function wantedOptInEvents<Type extends OptInEventType>(tx: Queries, workspaceId: string, projectId: string, types: readonly Type[]): Promise<Set<Type>> {
  const webhooks = await tx.webhooks.listActiveInWorkspaces([workspaceId]);
  return new Set(types.filter((type) => webhooks.some((webhook) => matches(webhook, type, workspaceId, projectId))));
}

/**
 * Whether the webhook's owner may still receive its events (webhooks never outlive
 * access): a workspace-wide webhook needs its owner to stay a workspace owner or admin, as
 * creating one does; a project webhook (which only ever matches its project's events)
 * needs its owner to see the project. Memoised per owner and scope in `cache`.
 */
async function ownerSees(tx: Queries, webhook: WebhookRow, cache: Map<string, boolean>): Promise<boolean> {
  const key = `${webhook.owner_id} ${webhook.project_id ?? `workspace ${webhook.workspace_id}`}`;
  let sees = cache.get(key);
  if (sees === undefined) {
    if (webhook.project_id === null) {
      const role = (await tx.workspaces.findMembership(webhook.workspace_id, webhook.owner_id))?.role;
      sees = role === 'owner' || role === 'admin';
    } else {
      // A deleted project's own webhooks still receive its last events (`project.deleted`).
      const access = await tx.projects.findWithAccess(webhook.project_id, webhook.owner_id, { includeDeleted: true });
      sees = access !== undefined && effectiveProjectRole(access.workspace_role, access.direct_role) !== null;
    }
    cache.set(key, sees);
  }
  return sees;
}

/**
 * Fans new outbox events out to every active webhook whose scope and event list match and
 * whose owner can see the project: one delivery per event and webhook, due now. Returns
 * how many events it dispatched (0 = nothing new).
 */
export async function dispatchEvents(ctx: DomainContext, limit = 500): Promise<number> {
  return ctx.store.transaction(async (tx) => {
    const events = await tx.webhooks.claimUndispatchedEvents(limit);
    if (events.length === 0) return 0;
    const webhooks = await tx.webhooks.listActiveInWorkspaces([...new Set(events.map((e) => e.workspace_id))]);
    const now = nowIso(ctx);
    const access = new Map<string, boolean>();
    const deliveries = [];
    for (const event of events) {
      for (const webhook of webhooks) {
        // Only what happened since it was created or turned on again, however late the worker picks it up.
        if (event.created_at < webhook.active_since || !matches(webhook, event.type, event.workspace_id, event.project_id)) continue;
        if (!(await ownerSees(tx, webhook, access))) continue;
        deliveries.push({
          id: randomUUID(),
          webhook_id: webhook.id,
          event_id: event.id,
          event_type: event.type,
          project_id: event.project_id,
          payload: JSON.stringify(presentEvent(event)),
          status: 'pending' as const,
          attempt_count: 0,
          next_attempt_at: now,
          lease_until: null,
          created_at: now,
          updated_at: now,
        });
      }
    }
    await tx.webhooks.insertDeliveries(deliveries);
    await tx.webhooks.markDispatched(events.map((e) => e.id));
    return events.length;
  });
}

export interface ClaimedDelivery {
  delivery: DeliveryRow;
  webhook: WebhookRow;
}

/**
 * Leases due deliveries to this worker for `leaseMs`. Deliveries whose webhook is gone or
 * disabled, or whose owner lost access to the project, are closed as failed instead.
 */
export async function claimDueDeliveries(ctx: DomainContext, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const now = ctx.clock.now();
  return ctx.store.transaction(async (tx) => {
    const rows = await tx.webhooks.claimDueDeliveries(now.toISOString(), new Date(now.getTime() + leaseMs).toISOString(), limit);
    const claimed: ClaimedDelivery[] = [];
    const access = new Map<string, boolean>();
    const webhooks = new Map<string, WebhookRow | undefined>();
    for (const delivery of rows) {
      if (!webhooks.has(delivery.webhook_id)) webhooks.set(delivery.webhook_id, await tx.webhooks.findById(delivery.webhook_id));
      const webhook = webhooks.get(delivery.webhook_id);
      const lostAccess = webhook?.project_id === null ? "the webhook's owner is no longer an owner or admin of the workspace" : "the webhook's owner can no longer see the project";
      const reason = !webhook || webhook.status !== 'active' ? 'the webhook is disabled or deleted' : !(await ownerSees(tx, webhook, access)) ? lostAccess : null;
      if (webhook && reason === null) {
        claimed.push({ delivery, webhook });
      } else {
        await tx.webhooks.updateDelivery(delivery.id, { status: 'failed', lease_until: null, next_attempt_at: null, updated_at: now.toISOString() });
        await tx.webhooks.insertAttempts([{ id: randomUUID(), delivery_id: delivery.id, attempt: delivery.attempt_count + 1, at: now.toISOString(), ok: 0, http_status: null, response_excerpt: '', duration_ms: 0, error: reason }]);
      }
    }
    return claimed;
  });
}

/** Outcome of one delivery attempt, as the sender reports it and the delivery log keeps it. */
export interface AttemptOutcome {
  /** `true` exactly when a 2xx status arrived and the body was read within the deadline. */
  ok: boolean;
  /** HTTP status received, or `null` when no response arrived (refused, network error, timeout). */
  status: number | null;
  /** First 1 000 characters of the response body (UTF-8 decoded); `''` without a response. */
  responseExcerpt: string;
  /** Wall time of the attempt in whole milliseconds. */
  durationMs: number;
  /**
   * `null` when `ok`; otherwise a short description for the delivery log: `'timeout'`,
   * `'webhook destination refused: …'`, `'redirect not followed (HTTP 302)'`,
   * `'unexpected HTTP status 500'`, or a network error such as `'ECONNREFUSED: …'`.
   */
  error: string | null;
  /** The receiver answered 410 Gone: the caller disables the webhook (docs/api.md › Deliveries). */
  gone: boolean;
  /** Not sent: the webhook was turned off or deleted while the delivery waited its turn. Closes it as failed, counting no failure. */
  notSent?: boolean;
}

/**
 * The webhook of a claimed delivery as it is when the delivery's turn comes: signed with
 * its secret now (a rotation stops the old one at once), or null when it is no longer on —
 * deleted, disabled, or gone after a 410 to an earlier delivery of the round.
 */
export async function webhookToSend(ctx: DomainContext, webhookId: string): Promise<WebhookRow | null> {
  const webhook = await ctx.store.q.webhooks.findById(webhookId);
  return webhook?.status === 'active' ? webhook : null;
}

/** A 410 Gone answer disables the webhook at once, before the round's other deliveries go; its owner is e-mailed. */
export async function disableGoneWebhook(ctx: DomainContext, webhookId: string): Promise<void> {
  const now = nowIso(ctx);
  await ctx.store.transaction(async (tx) => {
    const webhook = await tx.webhooks.findById(webhookId);
    if (webhook?.status !== 'active') return;
    const next = { ...webhook };
    disable(next, 'gone', now);
    await saveWebhookState(tx, webhook, next, now);
  });
}

/**
 * Records one attempt per claimed delivery and decides what follows: success closes the
 * delivery and resets the webhook's failure count; a failure schedules the next attempt
 * after `retryDelaysSec[attempt]`, or — after the last — fails the delivery and counts one
 * more failed event: at five in a row the webhook is disabled and its owner e-mailed. 410
 * disables at once.
 */
export async function recordAttempts(
  ctx: DomainContext,
  results: { claimed: ClaimedDelivery; outcome: AttemptOutcome; at: Date }[],
  retryDelaysSec: readonly number[],
): Promise<void> {
  if (results.length === 0) return;
  const now = nowIso(ctx);
  await ctx.store.transaction(async (tx) => {
    const webhooks = new Map<string, WebhookRow>();
    for (const { claimed, outcome, at } of results) {
      const { delivery } = claimed;
      const webhook = webhooks.get(claimed.webhook.id) ?? (await tx.webhooks.findById(claimed.webhook.id));
      const attempt = delivery.attempt_count + 1;
      await tx.webhooks.insertAttempts([
        {
          id: randomUUID(),
          delivery_id: delivery.id,
          attempt,
          at: at.toISOString(),
          ok: outcome.ok ? 1 : 0,
          http_status: outcome.status,
          response_excerpt: outcome.responseExcerpt,
          duration_ms: Math.round(outcome.durationMs),
          error: outcome.error,
        },
      ]);
      if (!webhook) continue;
      const next = { ...webhook };
      let status: DeliveryRow['status'] = 'pending';
      let nextAttemptAt: string | null = null;
      if (outcome.ok) {
        status = 'succeeded';
        next.consecutive_failures = 0;
      } else if (outcome.notSent || outcome.gone || attempt >= retryDelaysSec.length) {
        status = 'failed';
        if (outcome.gone) disable(next, 'gone', now);
        else if (!outcome.notSent && delivery.event_type !== PING_EVENT) next.consecutive_failures += 1;
        if (next.consecutive_failures >= FAILURES_BEFORE_DISABLE && next.status === 'active') disable(next, 'failing', now);
      } else {
        nextAttemptAt = new Date(at.getTime() + (retryDelaysSec[attempt] ?? 0) * 1000).toISOString();
      }
      await tx.webhooks.updateDelivery(delivery.id, { status, attempt_count: attempt, next_attempt_at: nextAttemptAt, lease_until: null, updated_at: now });
      await saveWebhookState(tx, webhook, next, now);
      webhooks.set(webhook.id, next);
    }
  });
}

/** Saves a webhook's status and failure count when they changed, e-mailing its owner when it was just disabled. */
async function saveWebhookState(tx: Queries, before: WebhookRow, next: WebhookRow, now: string): Promise<void> {
  if (next.status === before.status && next.consecutive_failures === before.consecutive_failures) return;
  await tx.webhooks.update(next.id, {
    status: next.status,
    disabled_reason: next.disabled_reason,
    disabled_at: next.disabled_at,
    consecutive_failures: next.consecutive_failures,
    updated_at: now,
  });
  if (next.status === 'disabled' && before.status === 'active') await mailOwnerAboutDisable(tx, next, now);
}

function disable(webhook: WebhookRow, reason: 'gone' | 'failing', now: string): void {
  webhook.status = 'disabled';
  webhook.disabled_reason = reason;
  webhook.disabled_at = now;
}

async function mailOwnerAboutDisable(tx: Queries, webhook: WebhookRow, now: string): Promise<void> {
  const owner = await tx.users.findById(webhook.owner_id);
  if (!owner) return;
  const why =
    webhook.disabled_reason === 'gone'
      ? 'its receiver answered 410 Gone'
      : `${FAILURES_BEFORE_DISABLE} events in a row could not be delivered after every retry`;
  await queueMail(tx, now, [
    {
      to: owner.email,
      subject: `Gantry disabled your webhook ${webhook.name ?? webhook.url}`,
      text: `Your webhook ${webhook.name ? `"${webhook.name}" ` : ''}(${webhook.url}) was disabled because ${why}.\n\nNo further events are sent to it. Check the receiver and its delivery log, then turn the webhook on again from your profile in the web app.\n`,
    },
  ]);
}

async function queueDelivery(ctx: DomainContext, webhook: WebhookRow, eventId: string, eventType: string, projectId: string | null, payload: string): Promise<Delivery> {
  const now = nowIso(ctx);
  const row: DeliveryRow = {
    id: randomUUID(),
    webhook_id: webhook.id,
    event_id: eventId,
    event_type: eventType,
    project_id: projectId,
    payload,
    status: 'pending',
    attempt_count: 0,
    next_attempt_at: now,
    lease_until: null,
    created_at: now,
    updated_at: now,
  };
  await ctx.store.q.webhooks.insertDeliveries([row]);
  return presentDelivery(row, []);
}

/** The nil UUID: the `projectId` of events that concern no project. */
const NO_PROJECT_ID = '00000000-0000-0000-0000-000000000000';

/** Queues the test event `webhook.ping` for an active webhook. */
export async function pingWebhook(ctx: DomainContext, actor: Actor, webhookId: string): Promise<Delivery> {
  const webhook = await requireWebhook(ctx, actor, webhookId);
  if (webhook.status !== 'active') throw invalid([{ path: 'webhookId', message: 'the webhook is disabled; turn it on again in the web app first' }]);
  const { id, name, events } = presentWebhook(webhook);
  const eventId = randomUUID();
  const envelope: EventEnvelopeOf<typeof PING_EVENT> = {
    id: eventId,
    type: PING_EVENT,
    apiVersion: API_VERSION,
    createdAt: nowIso(ctx),
    workspaceId: webhook.workspace_id,
    // The envelope's projectId is a UUID: a workspace-wide webhook's ping concerns no project.
    projectId: webhook.project_id ?? NO_PROJECT_ID,
    actor: { id: actor.userId, name: actor.name, client: actingClient(actor) },
    data: { message: 'Hello from Gantry: this webhook is set up and its signature can be verified.', webhook: { id, name, events } },
  };
  return queueDelivery(ctx, webhook, eventId, PING_EVENT, webhook.project_id, JSON.stringify(envelope));
}

/** Sends a delivery's event again as a new delivery (same event id, so receivers can dedupe). */
export async function resendDelivery(ctx: DomainContext, actor: Actor, webhookId: string, deliveryId: string): Promise<Delivery> {
  const webhook = await requireWebhook(ctx, actor, webhookId);
  const original = await ctx.store.q.webhooks.findDelivery(webhookId, deliveryId);
  if (!original) throw notFound('delivery');
  return queueDelivery(ctx, webhook, original.event_id, original.event_type, original.project_id, original.payload);
}

export async function listDeliveries(ctx: DomainContext, actor: Actor, webhookId: string, input: { limit: number; cursor?: string }): Promise<{ deliveries: Delivery[]; nextCursor: string | null }> {
  await requireWebhook(ctx, actor, webhookId);
  const before = input.cursor
    ? decodeCursor(input.cursor, (p) => (typeof p.c === 'string' && typeof p.i === 'string' ? { createdAt: p.c, id: p.i } : null))
    : undefined;
  const rows = await ctx.store.q.webhooks.listDeliveries(webhookId, input.limit, before);
  const page = rows.slice(0, input.limit);
  const attempts = await ctx.store.q.webhooks.listAttempts(page.map((r) => r.id));
  const last = page.at(-1);
  return { deliveries: page.map((row) => presentDelivery(row, attempts)), nextCursor: rows.length > input.limit && last ? encodeCursor({ c: last.created_at, i: last.id }) : null };
}
