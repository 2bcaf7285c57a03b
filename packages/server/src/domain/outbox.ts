import { randomUUID } from 'node:crypto';
import type { EventData, EventType, OptInEventType } from '@gantry/contract';
import type { Queries } from '../store/store.js';
import { mapSliced } from '../time-slice.js';
import { actingClient, type Actor } from './context.js';

/**
 * An event of a change, as emitters hand it to {@link appendEvents}: one of the contract's
 * event types (of the catalog, or opt-in) with that type's `data`, so a misspelled type or
 * a wrong payload does not compile. Every change concerns a project.
 */
export type DomainEvent = {
  [Type in EventType | OptInEventType]: { type: Type; workspaceId: string; projectId: string; data: EventData<Type> };
}[EventType | OptInEventType];

/**
 * Appends events to the outbox inside the caller's transaction, so an event exists
 * exactly when its change committed. The webhook worker delivers them. Receivers order
 * events by `createdAt` (deliveries are unordered), so events given in the order things
 * happened get strictly increasing times a millisecond apart, after every event already
 * written (a large write stamps a little ahead of the clock; the next write, which waits
 * for its project's lock, follows on).
 */
export async function appendEvents(tx: Queries, actor: Pick<Actor, 'userId' | 'name'> & Partial<Pick<Actor, 'credential'>>, at: string, events: DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  const latest = await tx.events.latestCreatedAt();
  const client = actingClient(actor);
  const start = Math.max(Date.parse(at), latest === null ? -Infinity : Date.parse(latest) + 1);
  // Serialising 10,000 payloads (a write that moves every task of a big plan) takes a while: sliced.
  await tx.events.insert(
    await mapSliced(events, (event, index) => ({
      id: randomUUID(),
      type: event.type,
      workspace_id: event.workspaceId,
      project_id: event.projectId,
      actor_id: actor.userId,
      actor_name: actor.name,
      actor_client_id: client?.id ?? null,
      actor_client_name: client?.name ?? null,
      data: JSON.stringify(event.data),
      created_at: new Date(start + index).toISOString(),
      dispatched: 0,
    })),
  );
}
