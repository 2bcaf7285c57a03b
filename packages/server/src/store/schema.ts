/**
 * Table row types, as stored. Instants are ISO-8601 UTC text (`toISOString()`), dates
 * `YYYY-MM-DD` text, booleans 0/1 and JSON text, identically on SQLite and PostgreSQL,
 * so both dialects return byte-identical rows (see docs/adr/0002-store.md).
 */
import type { Generated } from 'kysely';

export type Flag = 0 | 1;

export interface UsersTable {
  id: string;
  email: string;
  name: string | null;
  avatar_url: string | null;
  locale: string;
  email_verified: Flag;
  password_hash: string | null;
  created_at: string;
  updated_at: string;
}

export interface WorkspacesTable {
  id: string;
  name: string;
  is_personal: Flag;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface WorkspaceMembersTable {
  workspace_id: string;
  user_id: string;
  role: 'owner' | 'admin' | 'member';
  created_at: string;
}

export interface ProjectsTable {
  id: string;
  workspace_id: string;
  key: string;
  key_locked: Flag;
  name: string;
  description: string | null;
  start_date: string;
  calendar_id: string | null;
  currency: string;
  schedule_from: 'forward' | 'backward';
  deadline: string | null;
  color: string | null;
  settings: string;
  archived_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  /** Computed by the scheduler: the latest task finish (the start when there are no tasks). */
  finish_at: string;
  task_count: number;
  /** Next task number; numbers are never reused. */
  next_task_number: number;
}

export interface ProjectMembersTable {
  project_id: string;
  user_id: string;
  role: 'owner' | 'editor' | 'viewer';
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string | null;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  token_hash: string;
  /** First characters of the key, safe to show (`gnt_AbCd`). */
  token_prefix: string;
  scope: 'read' | 'write';
  workspace_id: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface ApiAuditLogTable {
  id: string;
  api_key_id: string;
  user_id: string;
  method: string;
  path: string;
  status: number;
  request_id: string;
  duration_ms: number;
  created_at: string;
}

/** The outbox: events appended in the same transaction as the change they describe. */
export interface EventsTable {
  id: string;
  type: string;
  workspace_id: string;
  project_id: string | null;
  actor_id: string | null;
  actor_name: string;
  data: string;
  created_at: string;
}

export interface Database {
  users: UsersTable;
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
  projects: ProjectsTable;
  project_members: ProjectMembersTable;
  api_keys: ApiKeysTable;
  api_audit_log: ApiAuditLogTable;
  events: EventsTable;
}

export type { Generated };
