import type { Selectable } from 'kysely';
import type { TemplatesTable } from '../schema.js';
import type { Executor } from './executor.js';

export type TemplateRow = Selectable<TemplatesTable>;
/** A saved template without its plan: what the template list shows. */
export type TemplateSummaryRow = Omit<TemplateRow, 'document'>;

export function templateQueries(db: Executor) {
  return {
    insert(row: TemplateRow): Promise<unknown> {
      return db.insertInto('templates').values(row).execute();
    },
    /** The templates saved in these workspaces, newest first, without their plans. */
    listInWorkspaces(workspaceIds: readonly string[]): Promise<TemplateSummaryRow[]> {
      if (workspaceIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('templates')
        .select(['id', 'workspace_id', 'name', 'description', 'task_count', 'duration_days', 'created_by', 'created_at'])
        .where('workspace_id', 'in', workspaceIds)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },
    findById(id: string): Promise<TemplateRow | undefined> {
      return db.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst();
    },
  };
}
