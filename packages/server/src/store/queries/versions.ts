import type { Insertable, Selectable } from 'kysely';
import type { ProjectVersionsTable } from '../schema.js';
import type { Executor } from './executor.js';

export type ProjectVersionRow = Selectable<ProjectVersionsTable>;
/** A version as listings show it: without its document, which may be megabytes. */
export type VersionListRow = Omit<ProjectVersionRow, 'document'>;

export function versionQueries(db: Executor) {
  return {
    /** Newest first. */
    list(projectId: string): Promise<VersionListRow[]> {
      return db
        .selectFrom('project_versions')
        .select(['id', 'project_id', 'name', 'task_count', 'created_by', 'created_at'])
        .where('project_id', '=', projectId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },
    find(projectId: string, id: string): Promise<ProjectVersionRow | undefined> {
      return db.selectFrom('project_versions').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
    },
    async insert(row: Insertable<ProjectVersionsTable>): Promise<void> {
      await db.insertInto('project_versions').values(row).execute();
    },
  };
}
