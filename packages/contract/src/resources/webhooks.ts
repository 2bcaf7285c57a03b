import { z } from 'zod';
import { DateTime, QueryInteger, Uuid } from '../common.js';
import { EventEnvelope, eventTypes, optInEventTypes } from '../events.js';
import { limits } from '../limits.js';

export const Webhook = z.object({
  id: Uuid,
  url: z.string(),
  name: z.string().nullable(),
  events: z.array(z.string()).describe('Event types delivered; `*` = every type of the catalog (its `events`); opt-in types only when named.'),
  scope: z.enum(['project', 'workspace']),
  projectId: Uuid.nullable().describe('Set for a project webhook.'),
  workspaceId: Uuid.describe('The workspace of the project, or the workspace a workspace-wide webhook covers.'),
  status: z.enum(['active', 'disabled']),
  disabledReason: z.string().nullable().describe('`gone` (the receiver answered 410) or `failing` (5 consecutive events failed every attempt).'),
  disabledAt: DateTime.nullable(),
  createdAt: DateTime,
  updatedAt: DateTime,
});
export type Webhook = z.infer<typeof Webhook>;

/** What a webhook may name in `events`, besides `*`: the catalog's change events and the opt-in events. */
const subscribableTypes: readonly string[] = [...eventTypes, ...optInEventTypes];

export const WebhookCreate = z
  .object({
    url: z.string().max(2000).describe('Public https address.'),
    events: z
      .array(z.string().refine((type) => type === '*' || subscribableTypes.includes(type), { message: 'is not an event type of the catalog (GET /api/webhooks/events)' }))
      .min(1)
      .max(50),
    projectId: Uuid.optional().describe('The project to cover.'),
    workspaceId: Uuid.optional().describe('Instead of projectId: every project of this workspace (workspace owners and admins only).'),
    name: z.string().trim().min(1).max(limits.nameMaxLength).optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.projectId === undefined) === (body.workspaceId === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['projectId'], message: 'give exactly one of projectId (one project) or workspaceId (every project of a workspace)' });
    }
  });

export const WebhookWithSecret = z.object({
  webhook: Webhook,
  secret: z.string().describe('The signing secret (`whsec_…`), shown only here.'),
});
export const WebhookResponse = z.object({ webhook: Webhook });
export const WebhookList = z.object({ webhooks: z.array(Webhook) });
export const WebhookDeleted = z.object({ id: Uuid, deleted: z.literal(true) });
const CatalogEntry = z.object({ type: z.string(), description: z.string() });
export const EventCatalogResponse = z.object({
  events: z.array(CatalogEntry).describe('The catalog: the change events (what `*` stands for), then the test event.'),
  optInEvents: z.array(CatalogEntry).describe('Events delivered only to webhooks that name them in `events`; `*` does not include them.'),
});

export const DeliveryAttempt = z.object({
  attempt: z.number().int(),
  at: DateTime,
  ok: z.boolean(),
  httpStatus: z.number().int().nullable(),
  responseExcerpt: z.string().describe('The first 1,000 characters of the response body.'),
  durationMs: z.number().int(),
  error: z.string().nullable(),
});
export const Delivery = z.object({
  id: Uuid,
  webhookId: Uuid,
  eventId: Uuid,
  eventType: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attemptCount: z.number().int(),
  nextAttemptAt: DateTime.nullable(),
  payload: EventEnvelope.describe('The envelope as sent.'),
  attempts: z.array(DeliveryAttempt),
  createdAt: DateTime,
  updatedAt: DateTime,
});
export type Delivery = z.infer<typeof Delivery>;
export const DeliveryResponse = z.object({ delivery: Delivery });
export const DeliveryListQuery = z.object({
  limit: QueryInteger(1, 100, 20),
  cursor: z.string().max(200).optional().describe('The `nextCursor` of the previous page.'),
});
export const DeliveryList = z.object({ deliveries: z.array(Delivery).describe('Newest first.'), nextCursor: z.string().nullable() });
