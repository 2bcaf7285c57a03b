import type { Insertable, Selectable } from 'kysely';
import type { WorkspaceMembersTable, WorkspacesTable } from '../schema.js';
import type { Dialect, Executor } from './executor.js';

export type WorkspaceRow = Selectable<WorkspacesTable>;
export type WorkspaceMemberRow = Selectable<WorkspaceMembersTable>;

export function workspaceQueries(db: Executor, dialect: Dialect) {
  return {
    /**
     * Serialises writes that must see the workspace's projects as a whole (picking a
     * unique project key) until the transaction ends; SQLite has a single writer already.
     */
    async lockForWrite(id: string): Promise<void> {
      if (dialect === 'postgres') {
        await db.selectFrom('workspaces').select('id').where('id', '=', id).forUpdate().execute();
      }
    },
    async insert(row: Insertable<WorkspacesTable>): Promise<void> {
      await db.insertInto('workspaces').values(row).execute();
    },
    findById(id: string): Promise<WorkspaceRow | undefined> {
      return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
    },
    findMembership(workspaceId: string, userId: string): Promise<WorkspaceMemberRow | undefined> {
      return db
        .selectFrom('workspace_members')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },
    /** Adds the member, or changes the role of an existing one. */
    async putMember(row: Insertable<WorkspaceMembersTable>): Promise<void> {
      await db
        .insertInto('workspace_members')
        .values(row)
        .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doUpdateSet({ role: row.role }))
        .execute();
    },
    /** The user's workspaces with the user's role, oldest first. */
    listForUser(userId: string, onlyWorkspaceId: string | null) {
      let query = db
        .selectFrom('workspace_members as m')
        .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
        .select(['w.id', 'w.name', 'w.is_personal', 'w.created_by', 'm.role'])
        .where('m.user_id', '=', userId);
      if (onlyWorkspaceId) query = query.where('w.id', '=', onlyWorkspaceId);
      return query.orderBy('w.created_at').orderBy('w.id').execute();
    },
    findPersonal(userId: string): Promise<WorkspaceRow | undefined> {
      return db
        .selectFrom('workspaces')
        .selectAll()
        .where('created_by', '=', userId)
        .where('is_personal', '=', 1)
        .executeTakeFirst();
    },
  };
}
