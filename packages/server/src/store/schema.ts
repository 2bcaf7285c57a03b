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

/** A person signed in in a browser: the cookie's token is stored as its SHA-256 digest only. */
export interface WebSessionsTable {
  id: string;
  token_digest: string;
  user_id: string;
  /** Sent back as `X-CSRF-Token`: useless without the cookie, so stored as given. */
  csrf_token: string;
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/** The single-use token of a mailed link, stored as its SHA-256 digest. */
export interface AccountTokensTable {
  digest: string;
  purpose: 'verify_email' | 'reset_password';
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
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
  /** Incremented by every write to the project's tasks, dependencies or assignments. */
  plan_version: number;
  /** The version of what plan writes derive its stored values were computed by (domain/planning/derived-values.ts); 0 before versions were counted. */
  derived_values_version: number;
  /** Set when the project is deleted: the store reads it no more (docs/adr/0008-deletion.md). */
  deleted_at: string | null;
  deleted_by: string | null;
}

/** A link that lets people join a project; only the digest of its token is kept. */
export interface ProjectInvitesTable {
  id: string;
  project_id: string;
  /** SHA-256 of the token, hex. */
  token_hash: string;
  role: 'owner' | 'editor' | 'viewer';
  /** Normalised; null = anyone with the link, until it expires. */
  email: string | null;
  expires_at: string;
  created_by: string;
  created_at: string;
  revoked_at: string | null;
  /** Set when an invite naming an e-mail is used (it is single use). */
  accepted_at: string | null;
  accepted_by: string | null;
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

/** One row per authenticated call, whatever the credential (API key or OAuth grant). */
export interface AuditLogTable {
  id: string;
  credential_kind: 'api_key' | 'oauth' | 'session';
  /** The API key's id, the OAuth grant's, or the sign-in session's uid. */
  credential_id: string;
  /** The OAuth client acting, for OAuth calls. */
  client_id: string | null;
  user_id: string;
  method: string;
  path: string;
  status: number;
  /** The first call's request id. */
  request_id: string;
  /** The longest of the calls. */
  duration_ms: number;
  /** When the first call came. */
  created_at: string;
  /** How many calls the entry stands for: identical reads that came within one write of the log share an entry. */
  calls: number;
}

/**
 * What the OAuth authorization server keeps (clients, grants, sessions, interactions,
 * codes and tokens), one row per artifact. `id` is the SHA-256 of the artifact's id, so
 * the store never holds a usable code, token or session id; `payload` never holds it either.
 */
export interface OAuthArtifactsTable {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  account_id: string | null;
  expires_at: string | null;
  consumed_at: string | null;
  created_at: string;
}

/** Secrets the instance generates once and shares between its processes (cookie and signing keys). */
export interface InstanceSecretsTable {
  name: string;
  value: string;
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
  /** The OAuth app that acted for the person, if one did. */
  actor_client_id: string | null;
  actor_client_name: string | null;
  data: string;
  created_at: string;
  /** 1 once the dispatcher has fanned the event out to the matching webhooks. */
  dispatched: Flag;
}

export interface TasksTable {
  id: string;
  project_id: string;
  number: number;
  parent_id: string | null;
  sort_key: string;
  name: string;
  type: 'summary' | 'task' | 'milestone';
  duration_min: number;
  work_min: number;
  progress_pct: number;
  constraint_kind: string;
  constraint_date: string | null;
  deadline: string | null;
  calendar_id: string | null;
  cost_fixed: number;
  notes: string | null;
  color: string | null;
  wbs: string | null;
  external_id: string | null;
  start_at: string | null;
  finish_at: string | null;
  is_critical: Flag;
  total_float_min: number | null;
  free_float_min: number | null;
  early_start_at: string | null;
  early_finish_at: string | null;
  late_start_at: string | null;
  late_finish_at: string | null;
  actual_start_at: string | null;
  actual_finish_at: string | null;
  actual_duration_min: number | null;
  remaining_duration_min: number | null;
  manually_scheduled: Flag;
  manual_start_at: string | null;
  manual_finish_at: string | null;
  leveling_delay_min: number;
  task_type: 'fixed_units' | 'fixed_duration' | 'fixed_work' | 'fixed_duration_and_units';
  effort_driven: Flag;
  duration_estimated: Flag;
  duration_optimistic_min: number | null;
  duration_pessimistic_min: number | null;
  created_at: string;
  updated_at: string;
  /** `name` folded for case-insensitive search; the store writes it, the domain never sees it. */
  name_folded: string;
}

export interface DependenciesTable {
  id: string;
  project_id: string;
  predecessor_id: string;
  successor_id: string;
  type: 'FS' | 'SS' | 'FF' | 'SF';
  lag_min: number;
  created_at: string;
  updated_at: string;
}

/** Who can be assigned: each project member has one; imports add ones without an account. */
export interface ResourcesTable {
  id: string;
  project_id: string;
  user_id: string | null;
  name: string;
  /** Percent of one full-time person there is at once (Max. Units); leveling keeps the load within it. */
  max_units_pct: number;
  created_at: string;
}

export interface AssignmentsTable {
  task_id: string;
  resource_id: string;
  project_id: string;
  units_pct: number;
}

export interface CommentsTable {
  id: string;
  project_id: string;
  task_id: string;
  user_id: string;
  body: string;
  /** JSON array of user ids. */
  mentions: string;
  created_at: string;
  edited_at: string | null;
}

/** A working calendar of a project: the working times of each weekday in a time zone, with exceptions. */
export interface CalendarsTable {
  id: string;
  project_id: string;
  name: string;
  /** IANA time zone of the working times. */
  time_zone: string;
  /** JSON: 7 entries, Sunday..Saturday, each `[["HH:MM","HH:MM"], …]` or null (inherited from the base calendar). */
  weekly: string;
  /** JSON: `[{name, from, to, intervals}]`, dates `YYYY-MM-DD` inclusive; `intervals: []` = not working. */
  exceptions: string;
  base_calendar_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface BaselinesTable {
  id: string;
  project_id: string;
  name: string;
  slot: number | null;
  is_main: Flag;
  captured_at: string;
  captured_by: string | null;
  task_count: number;
}

export interface BaselineTasksTable {
  baseline_id: string;
  task_id: string;
  start_at: string | null;
  finish_at: string | null;
  duration_min: number;
  work_min: number;
  cost_fixed: number;
}

/** A saved version of a plan: `document` is the plan document's JSON. */
export interface ProjectVersionsTable {
  id: string;
  project_id: string;
  name: string | null;
  document: string;
  task_count: number;
  created_by: string | null;
  created_at: string;
}

/** A POST replayed by `Idempotency-Key`: pending while `status` is null. */
export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  fingerprint: string;
  /** The formula `fingerprint` was made with (domain/operation.ts); 1 for keys claimed before formulas were numbered. */
  fingerprint_formula: number;
  status: number | null;
  response: string | null;
  created_at: string;
}

export interface RateLimitWindowsTable {
  key: string;
  /** Comma-separated milliseconds, ascending. */
  stamps: string;
  allowed: number;
  expires_at: number;
}

export interface MailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  body: string;
  created_at: string;
  sent_at: string | null;
  error: string | null;
}

export interface WebhooksTable {
  id: string;
  owner_id: string;
  workspace_id: string;
  project_id: string | null;
  url: string;
  name: string | null;
  /** JSON array of event types (`*` = all). */
  events: string;
  /** The signing secret: needed in clear to sign, so it is stored as given (never logged). */
  secret: string;
  status: 'active' | 'disabled';
  disabled_reason: string | null;
  disabled_at: string | null;
  /** Events in a row that failed every attempt; a success resets it. */
  consecutive_failures: number;
  /** Since when it receives events: created, or turned on again (only events written since are sent). */
  active_since: string;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  project_id: string | null;
  /** The envelope JSON, exactly as it is sent. */
  payload: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempt_count: number;
  next_attempt_at: string | null;
  /** A worker that claimed the delivery holds it until then. */
  lease_until: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  at: string;
  ok: Flag;
  http_status: number | null;
  response_excerpt: string;
  duration_ms: number;
  error: string | null;
}

/** A template a person saved from a project, for everyone in its workspace. */
export interface TemplatesTable {
  id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  /** The plan: a PlanDocument as JSON. */
  document: string;
  task_count: number;
  duration_days: number;
  created_by: string | null;
  created_at: string;
}

export interface Database {
  users: UsersTable;
  web_sessions: WebSessionsTable;
  account_tokens: AccountTokensTable;
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
  projects: ProjectsTable;
  project_members: ProjectMembersTable;
  project_invites: ProjectInvitesTable;
  api_keys: ApiKeysTable;
  audit_log: AuditLogTable;
  oauth_artifacts: OAuthArtifactsTable;
  instance_secrets: InstanceSecretsTable;
  events: EventsTable;
  tasks: TasksTable;
  dependencies: DependenciesTable;
  resources: ResourcesTable;
  assignments: AssignmentsTable;
  comments: CommentsTable;
  calendars: CalendarsTable;
  baselines: BaselinesTable;
  baseline_tasks: BaselineTasksTable;
  project_versions: ProjectVersionsTable;
  idempotency_keys: IdempotencyKeysTable;
  mail_outbox: MailOutboxTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  templates: TemplatesTable;
  rate_limit_windows: RateLimitWindowsTable;
}

export type { Generated };
