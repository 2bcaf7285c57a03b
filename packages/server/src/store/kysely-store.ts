import { Migrator, sql, type Kysely, type MigrationProvider } from 'kysely';
import { migrations } from './migrations/index.js';
import { apiKeyQueries } from './queries/api-keys.js';
import { baselineQueries } from './queries/baselines.js';
import { outboxQueries } from './queries/outbox.js';
import { peopleQueries } from './queries/people.js';
import { taskQueries } from './queries/tasks.js';
import { webhookQueries } from './queries/webhooks.js';
import { eventQueries } from './queries/events.js';
import type { Dialect, Executor } from './queries/executor.js';
import { projectQueries } from './queries/projects.js';
import { userQueries } from './queries/users.js';
import { workspaceQueries } from './queries/workspaces.js';
import type { Database } from './schema.js';
import type { Queries, Store } from './store.js';

function queriesFor(db: Executor, dialect: Dialect): Queries {
  return {
    users: userQueries(db),
    workspaces: workspaceQueries(db, dialect),
    projects: projectQueries(db, dialect),
    apiKeys: apiKeyQueries(db),
    events: eventQueries(db),
    tasks: taskQueries(db),
    people: peopleQueries(db),
    baselines: baselineQueries(db),
    outbox: outboxQueries(db),
    webhooks: webhookQueries(db, dialect),
  };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Applies every pending migration; returns the names applied. Throws on the first failure. */
export async function migrateToLatest(db: Kysely<Database>, dialect: Dialect): Promise<string[]> {
  // Kysely looks for its own tables in every schema; pin them to the connection's schema
  // (the first of search_path), so that several schemas in one database each migrate.
  const migrationTableSchema =
    dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({ db, provider, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/** The Store over a Kysely instance; the dialect files only build that instance. */
export function createKyselyStore(db: Kysely<Database>, dialect: Dialect, onClose: () => Promise<void> = async () => {}): Store {
  return {
    dialect,
    q: queriesFor(db, dialect),
    transaction: (work) => db.transaction().execute((trx) => work(queriesFor(trx, dialect))),
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
      await onClose();
    },
  };
}
