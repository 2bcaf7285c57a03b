import { API_VERSION } from '@gantry/contract';
import type { EventRow } from '../store/store.js';

/** An outbox event as webhooks deliver it (docs/api.md › Events). */
export interface EventEnvelope {
  id: string;
  type: string;
  apiVersion: string;
  createdAt: string;
  workspaceId: string;
  projectId: string | null;
  actor: { id: string | null; name: string };
  data: Record<string, unknown>;
}

export function presentEvent(row: EventRow): EventEnvelope {
  return {
    id: row.id,
    type: row.type,
    apiVersion: API_VERSION,
    createdAt: row.created_at,
    workspaceId: row.workspace_id,
    projectId: row.project_id,
    actor: { id: row.actor_id, name: row.actor_name },
    data: JSON.parse(row.data) as Record<string, unknown>,
  };
}
