import { API_VERSION, type EventEnvelope } from '@gantry/contract';
import type { EventRow } from '../store/store.js';

/**
 * Task fields added since events were first stored, with the value every task had before.
 * An event is stored once and never rewritten: one stored earlier is presented (sent,
 * resumed, listed) with them, as today's contract describes its task.
 */
const taskFieldsAddedSince = { durationEstimated: false };

function presentData(stored: string): EventEnvelope['data'] {
  const data = JSON.parse(stored) as Record<string, unknown>;
  const task = data.task as Record<string, unknown> | undefined;
  return (task ? { ...data, task: { ...taskFieldsAddedSince, ...task } } : data) as EventEnvelope['data'];
}

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
    data: presentData(row.data),
  } as EventEnvelope;
}
