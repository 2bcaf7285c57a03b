/**
 * The store interface the domain depends on: query modules over either a connection
 * or a transaction. Only `store/` knows Kysely, SQL and the drivers.
 */
import type { ApiKeyRow } from './queries/api-keys.js';
import type { apiKeyQueries } from './queries/api-keys.js';
import type { BaselineRow, baselineQueries, BaselineTaskRow } from './queries/baselines.js';
import type { calendarQueries, CalendarRow } from './queries/calendars.js';
import type { OAuthArtifactRow, oauthQueries } from './queries/oauth.js';
import type { IdempotencyRow, MailRow, outboxQueries } from './queries/outbox.js';
import type { AssignmentRow, CommentRow, peopleQueries, ResourceRow } from './queries/people.js';
import type { sessionQueries } from './queries/sessions.js';
import type { ProjectVersionRow, VersionListRow, versionQueries } from './queries/versions.js';
import type { DependencyRow, TaskPageOptions, taskQueries, TaskRow } from './queries/tasks.js';
import type { TemplateRow, templateQueries, TemplateSummaryRow } from './queries/templates.js';
import type { AttemptRow, DeliveryRow, OutboxEventRow, webhookQueries, WebhookRow } from './queries/webhooks.js';
import type { Dialect } from './queries/executor.js';
import type { eventQueries, EventRow } from './queries/events.js';
import type { InviteRow, ProjectAccessRow, projectQueries, ProjectRow } from './queries/projects.js';
import type { userQueries, UserRow } from './queries/users.js';
import type { WorkspaceRow, workspaceQueries } from './queries/workspaces.js';
import type { StoreWindows } from './rate-windows.js';

export interface Queries {
  users: ReturnType<typeof userQueries>;
  workspaces: ReturnType<typeof workspaceQueries>;
  projects: ReturnType<typeof projectQueries>;
  apiKeys: ReturnType<typeof apiKeyQueries>;
  events: ReturnType<typeof eventQueries>;
  tasks: ReturnType<typeof taskQueries>;
  people: ReturnType<typeof peopleQueries>;
  baselines: ReturnType<typeof baselineQueries>;
  calendars: ReturnType<typeof calendarQueries>;
  versions: ReturnType<typeof versionQueries>;
  outbox: ReturnType<typeof outboxQueries>;
  webhooks: ReturnType<typeof webhookQueries>;
  oauth: ReturnType<typeof oauthQueries>;
  sessions: ReturnType<typeof sessionQueries>;
  templates: ReturnType<typeof templateQueries>;
}

export interface Store {
  readonly dialect: Dialect;
  /** Queries outside a transaction: each statement commits on its own. */
  readonly q: Queries;
  /**
   * Runs `work` in one transaction: all of it commits, or none of it on a throw. Inside a
   * unit of work it joins the unit's transaction.
   */
  transaction<T>(work: (tx: Queries) => Promise<T>): Promise<T>;
  /**
   * Runs `work` in one transaction with this store as seen from inside it: every query,
   * `transaction` and `afterCommit` of `work` joins it, so several domain writes (and the
   * record of their response) commit together or not at all.
   */
  unitOfWork<T>(work: (store: Store) => Promise<T>): Promise<T>;
  /**
   * Runs the reads of `read` on one consistent view of the database, which writes committed
   * meanwhile do not change (PostgreSQL: a read-only repeatable-read transaction; SQLite: a
   * read transaction, which never takes the write lock). Inside a unit of work it reads as
   * the unit does.
   */
  snapshot<T>(read: (q: Queries) => Promise<T>): Promise<T>;
  /**
   * Runs `callback` once what was written so far has committed: at once outside a unit
   * of work, after its commit inside one (never, if it rolls back). For caches that must
   * only ever hold committed state.
   */
  afterCommit(callback: () => void): void;
  /**
   * A token that changes whenever a write may have committed — by this process or any
   * other — so results read under one token may be reused while it stays the same. Null
   * when the store cannot tell cheaply (PostgreSQL: callers must not cache).
   */
  readVersion(): string | null;
  /**
   * Rate-limit windows every process on this store shares (PostgreSQL); null for the
   * embedded store, whose one process counts in its memory.
   */
  readonly sharedWindows: StoreWindows | null;
  /** Throws when the database cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type {
  ApiKeyRow,
  AttemptRow,
  DeliveryRow,
  OutboxEventRow,
  WebhookRow,
  AssignmentRow,
  BaselineRow,
  BaselineTaskRow,
  CalendarRow,
  CommentRow,
  DependencyRow,
  Dialect,
  EventRow,
  IdempotencyRow,
  InviteRow,
  MailRow,
  OAuthArtifactRow,
  ProjectAccessRow,
  ProjectRow,
  ProjectVersionRow,
  ResourceRow,
  TaskPageOptions,
  TaskRow,
  TemplateRow,
  TemplateSummaryRow,
  UserRow,
  VersionListRow,
  WorkspaceRow,
};
export type { Database, Flag } from './schema.js';

/** Connection-level failures (Node network codes, PostgreSQL classes 08 and 57P: connection exceptions, shutdowns). */
const unavailableCodes = /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|08\w{3}|57P0[1-3])$/;

/**
 * Whether `error` says the database cannot be reached right now (refused, restarting, the
 * connection cut), rather than that a statement is wrong: such a request may be retried.
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && unavailableCodes.test(code)) return true;
  // pg reports by message only a connection that ended mid-query, and a query (a rollback) on a client whose connection failed.
  return /^Connection terminated|timeout exceeded when trying to connect|is not queryable$/.test(error.message);
}
