import { randomUUID } from 'node:crypto';
import type { Queries } from '../store/store.js';
import type { Actor } from './context.js';

export interface DomainEvent {
  type: string;
  workspaceId: string;
  projectId: string | null;
  data: Record<string, unknown>;
}

/**
 * Appends events to the outbox inside the caller's transaction, so an event exists
 * exactly when its change committed. The webhook worker delivers them.
 */
export async function appendEvents(tx: Queries, actor: Pick<Actor, 'userId' | 'name'>, at: string, events: DomainEvent[]): Promise<void> {
  await tx.events.insert(
    events.map((event) => ({
      id: randomUUID(),
      type: event.type,
      workspace_id: event.workspaceId,
      project_id: event.projectId,
      actor_id: actor.userId,
      actor_name: actor.name,
      data: JSON.stringify(event.data),
      created_at: at,
      dispatched: 0,
    })),
  );
}
