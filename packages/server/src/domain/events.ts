import { API_VERSION, type EventEnvelope } from '@gantry/contract';
import type { EventRow } from '../store/store.js';

/** An outbox event as webhooks deliver it (docs/api.md › Events). */
export function presentEvent(row: EventRow): EventEnvelope {
  // The outbox holds only what `appendEvents` wrote from a DomainEvent, which the contract
  // types: a catalog type with its data, a project and a person acting.
  return {
    id: row.id,
    type: row.type,
    apiVersion: API_VERSION,
    createdAt: row.created_at,
    workspaceId: row.workspace_id,
    projectId: row.project_id,
    actor: {
      id: row.actor_id,
      name: row.actor_name,
      client: row.actor_client_id === null ? null : { id: row.actor_client_id, name: row.actor_client_name ?? row.actor_client_id },
    },
    data: JSON.parse(row.data) as EventEnvelope['data'],
  } as EventEnvelope;
}
