import type { Insertable, Selectable } from 'kysely';
import type { AssignmentsTable, CommentsTable, ResourcesTable } from '../schema.js';
import type { Executor } from './executor.js';

export type ResourceRow = Selectable<ResourcesTable>;
export type AssignmentRow = Selectable<AssignmentsTable>;
export type CommentRow = Selectable<CommentsTable>;

export function peopleQueries(db: Executor) {
  return {
    listResources(projectId: string): Promise<ResourceRow[]> {
      return db.selectFrom('resources').selectAll().where('project_id', '=', projectId).orderBy('name').orderBy('id').execute();
    },
    async insertResource(row: Insertable<ResourcesTable>): Promise<void> {
      await db.insertInto('resources').values(row).execute();
    },
    findResource(projectId: string, id: string): Promise<ResourceRow | undefined> {
      return db.selectFrom('resources').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
    },
    async updateResource(id: string, patch: Pick<ResourceRow, 'name' | 'max_units_pct'>): Promise<void> {
      await db.updateTable('resources').set(patch).where('id', '=', id).execute();
    },
    listAssignments(projectId: string): Promise<AssignmentRow[]> {
      return db.selectFrom('assignments').selectAll().where('project_id', '=', projectId).execute();
    },
    listAssignmentsOfTasks(taskIds: string[]) {
      if (taskIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('assignments as a')
        .innerJoin('resources as r', 'r.id', 'a.resource_id')
        .select(['a.task_id', 'a.resource_id', 'a.units_pct', 'r.user_id', 'r.name'])
        .where('a.task_id', 'in', taskIds)
        .orderBy('r.name')
        .orderBy('r.id')
        .execute();
    },
    async replaceAssignments(taskId: string, rows: readonly Insertable<AssignmentsTable>[]): Promise<void> {
      await db.deleteFrom('assignments').where('task_id', '=', taskId).execute();
      if (rows.length > 0) await db.insertInto('assignments').values(rows).execute();
    },
    listComments(taskId: string) {
      return db
        .selectFrom('comments as c')
        .innerJoin('users as u', 'u.id', 'c.user_id')
        .selectAll('c')
        .select(['u.name as author_name', 'u.email as author_email', 'u.avatar_url as author_avatar_url'])
        .where('c.task_id', '=', taskId)
        .orderBy('c.created_at')
        .orderBy('c.id')
        .execute();
    },
    async insertComment(row: Insertable<CommentsTable>): Promise<void> {
      await db.insertInto('comments').values(row).execute();
    },
  };
}
