import type { Insertable, Selectable } from 'kysely';
import type { EventsTable } from '../schema.js';
import type { Executor } from './executor.js';

export type EventRow = Selectable<EventsTable>;

/** Rows per INSERT statement: well under both dialects' bound-parameter limits. */
const insertChunk = 200;

export function eventQueries(db: Executor) {
  return {
    /** A few hundred rows per statement: a big write's events are thousands of rows. */
    async insert(rows: Insertable<EventsTable>[]): Promise<void> {
      for (let start = 0; start < rows.length; start += insertChunk) {
        await db.insertInto('events').values(rows.slice(start, start + insertChunk)).execute();
      }
    },
    /** The newest event's `created_at` (index-only), or null for an empty outbox. */
    async latestCreatedAt(): Promise<string | null> {
      const row = await db.selectFrom('events').select('created_at').orderBy('created_at', 'desc').limit(1).executeTakeFirst();
      return row?.created_at ?? null;
    },
    listForProject(projectId: string): Promise<EventRow[]> {
      return db
        .selectFrom('events')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
  };
}
