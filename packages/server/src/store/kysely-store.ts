import {
  Migrator,
  sql,
  type Kysely,
  type KyselyPlugin,
  type MigrationProvider,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { migrations } from './migrations/index.js';
import { apiKeyQueries } from './queries/api-keys.js';
import { baselineQueries } from './queries/baselines.js';
import { calendarQueries } from './queries/calendars.js';
import { templateQueries } from './queries/templates.js';
import { versionQueries } from './queries/versions.js';
import { oauthQueries } from './queries/oauth.js';
import { outboxQueries } from './queries/outbox.js';
import { peopleQueries } from './queries/people.js';
import { sessionQueries } from './queries/sessions.js';
import { taskQueries } from './queries/tasks.js';
import { webhookQueries } from './queries/webhooks.js';
import { eventQueries } from './queries/events.js';
import type { Dialect, Executor } from './queries/executor.js';
import { projectQueries } from './queries/projects.js';
import { userQueries } from './queries/users.js';
import { workspaceQueries } from './queries/workspaces.js';
import { postgresWindows } from './rate-windows.js';
import type { Database } from './schema.js';
import type { Queries, Store } from './store.js';

function queriesFor(db: Executor, dialect: Dialect): Queries {
  return {
    users: userQueries(db),
    workspaces: workspaceQueries(db, dialect),
    projects: projectQueries(db, dialect),
    apiKeys: apiKeyQueries(db, dialect),
    events: eventQueries(db),
    tasks: taskQueries(db, dialect),
    people: peopleQueries(db),
    baselines: baselineQueries(db),
    calendars: calendarQueries(db),
    templates: templateQueries(db),
    versions: versionQueries(db),
    outbox: outboxQueries(db),
    webhooks: webhookQueries(db, dialect),
    oauth: oauthQueries(db),
    sessions: sessionQueries(db),
  };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** The migrator of a store's migrations (tests also migrate to a given one, as an older version left a store). */
export async function storeMigrator(db: Kysely<Database>, dialect: Dialect): Promise<Migrator> {
  // Kysely looks for its own tables in every schema; pin them to the connection's schema
  // (the first of search_path), so that several schemas in one database each migrate.
  const migrationTableSchema =
    dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  return new Migrator({ db, provider, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
}

/** Applies every pending migration; returns the names applied. Throws on the first failure. */
export async function migrateToLatest(db: Kysely<Database>, dialect: Dialect): Promise<string[]> {
  const { error, results } = await (await storeMigrator(db, dialect)).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/**
 * Counts the writes this process ran (any statement that is not a select), so that
 * `readVersion` changes after each of them; another process's commits show through
 * SQLite's `data_version`.
 */
class WriteCounter implements KyselyPlugin {
  writes = 0;
  private readonly pending = new WeakSet<QueryId>();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (args.node.kind !== 'SelectQueryNode') this.pending.add(args.queryId);
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.pending.has(args.queryId)) this.writes += 1;
    return args.result;
  }
}

/**
 * The store as seen from inside a unit of work: everything runs in its transaction `tx`,
 * and post-commit callbacks wait in `committed` for the unit's commit. Nothing read here
 * may be cached across requests (`readVersion` is null).
 */
function joinedStore(outer: Store, tx: Queries, committed: (() => void)[]): Store {
  const store: Store = {
    dialect: outer.dialect,
    q: tx,
    transaction: (work) => work(tx),
    unitOfWork: (work) => work(store),
    snapshot: (read) => read(tx),
    afterCommit: (callback) => committed.push(callback),
    readVersion: () => null,
    sharedWindows: outer.sharedWindows,
    ping: () => outer.ping(),
    close: () => Promise.reject(new Error('a unit of work cannot close the store it runs in')),
  };
  return store;
}

/**
 * The Store over a Kysely instance; the dialect files only build that instance.
 * `dataVersion`: SQLite's commit counter (readVersion); `counters`: where PostgreSQL's
 * rate-limit counts are written (dialects/postgres.ts), else the data's own connections.
 */
export function createKyselyStore(
  database: Kysely<Database>,
  dialect: Dialect,
  { dataVersion = null, counters = null }: { dataVersion?: (() => number) | null; counters?: Kysely<Database> | null } = {},
): Store {
  const counter = new WriteCounter();
  const db = database.withPlugin(counter);
  const store: Store = {
    dialect,
    q: queriesFor(db, dialect),
    transaction: async (work) => {
      try {
        return await db.transaction().execute((trx) => work(queriesFor(trx, dialect)));
      } finally {
        counter.writes += 1;
      }
    },
    snapshot: (read) => {
      const readOnly = db.transaction().setAccessMode('read only');
      // SQLite's read transactions see one snapshot already; PostgreSQL's default level gives each statement its own.
      return (dialect === 'postgres' ? readOnly.setIsolationLevel('repeatable read') : readOnly).execute((trx) => read(queriesFor(trx, dialect)));
    },
    unitOfWork: async (work) => {
      const committed: (() => void)[] = [];
      const result = await store.transaction((tx) => work(joinedStore(store, tx, committed)));
      for (const callback of committed) callback();
      return result;
    },
    afterCommit: (callback) => callback(),
    readVersion: () => (dataVersion ? `${dataVersion()}:${counter.writes}` : null),
    // The rate-limit statements go around the write counter: counting a request is not a write the caches care about.
    sharedWindows: dialect === 'postgres' ? postgresWindows(counters ?? database) : null,
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await Promise.all([db.destroy(), counters?.destroy()]);
    },
  };
  return store;
}
