import type { Insertable, Selectable, Updateable } from 'kysely';
import type { ProjectInvitesTable, ProjectMembersTable, ProjectsTable } from '../schema.js';
import type { Dialect, Executor } from './executor.js';

export type ProjectRow = Selectable<ProjectsTable>;
export type ProjectMemberRow = Selectable<ProjectMembersTable>;
export type InviteRow = Selectable<ProjectInvitesTable>;

/** A project with the two roles that decide what a given user may do with it. */
export type ProjectAccessRow = ProjectRow & {
  workspace_role: 'owner' | 'admin' | 'member' | null;
  direct_role: 'owner' | 'editor' | 'viewer' | null;
};

export function projectQueries(db: Executor, dialect: Dialect) {
  /** Every read of projects goes through here or `live`: a deleted project is read by nothing but the webhook fan-out. */
  function withAccess(userId: string, options: { includeDeleted?: boolean } = {}) {
    const query = db
      .selectFrom('projects as p')
      .leftJoin('workspace_members as wm', (join) =>
        join.onRef('wm.workspace_id', '=', 'p.workspace_id').on('wm.user_id', '=', userId),
      )
      .leftJoin('project_members as pm', (join) =>
        join.onRef('pm.project_id', '=', 'p.id').on('pm.user_id', '=', userId),
      )
      .selectAll('p')
      .select(['wm.role as workspace_role', 'pm.role as direct_role']);
    return options.includeDeleted ? query : query.where('p.deleted_at', 'is', null);
  }
  function live() {
    return db.selectFrom('projects').where('deleted_at', 'is', null);
  }

  return {
    async insert(row: Insertable<ProjectsTable>): Promise<void> {
      await db.insertInto('projects').values(row).execute();
    },
    async update(id: string, changes: Updateable<ProjectsTable>): Promise<void> {
      await db.updateTable('projects').set(changes).where('id', '=', id).execute();
    },
    findById(id: string): Promise<ProjectRow | undefined> {
      return live().selectAll().where('id', '=', id).executeTakeFirst();
    },
    /**
     * The project and the user's roles on it; undefined when the project does not exist (or
     * was deleted, unless `includeDeleted`: for the webhook fan-out of its last events).
     */
    findWithAccess(id: string, userId: string, options: { includeDeleted?: boolean } = {}): Promise<ProjectAccessRow | undefined> {
      return withAccess(userId, options).where('p.id', '=', id).executeTakeFirst();
    },
    /**
     * The project, with writes to it serialised until the transaction ends: its row locked
     * on PostgreSQL (SQLite already has a single writer). Undefined when it does not exist.
     */
    findForWrite(id: string): Promise<ProjectRow | undefined> {
      const query = live().selectAll().where('id', '=', id);
      return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
    },
    async keyExists(workspaceId: string, key: string): Promise<boolean> {
      const row = await live()
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('key', '=', key)
        .executeTakeFirst();
      return row !== undefined;
    },
    /** Ids of the projects whose derived values an older version computed (below `version`), oldest first. */
    async idsDerivedBefore(version: number): Promise<string[]> {
      const rows = await live().select('id').where('derived_values_version', '<', version).orderBy('created_at').orderBy('id').execute();
      return rows.map((row) => row.id);
    },
    /** Keys in the workspace starting with `prefix`, to pick a free derived key. */
    async keysStartingWith(workspaceId: string, prefix: string): Promise<string[]> {
      const rows = await live()
        .select('key')
        .where('workspace_id', '=', workspaceId)
        .where('key', 'like', `${prefix}%`)
        .execute();
      return rows.map((row) => row.key);
    },
    /** Projects the user reaches through a workspace membership or a direct grant. */
    listVisible(userId: string, options: { workspaceId: string | null; includeArchived: boolean }) {
      let query = withAccess(userId)
        .innerJoin('workspaces as w', 'w.id', 'p.workspace_id')
        .select('w.name as workspace_name')
        .where((eb) => eb.or([eb('wm.user_id', 'is not', null), eb('pm.user_id', 'is not', null)]));
      if (options.workspaceId) query = query.where('p.workspace_id', '=', options.workspaceId);
      if (!options.includeArchived) query = query.where('p.archived_at', 'is', null);
      return query.orderBy('p.created_at').orderBy('p.id').execute();
    },
    async putMember(row: Insertable<ProjectMembersTable>): Promise<void> {
      await db
        .insertInto('project_members')
        .values(row)
        .onConflict((oc) => oc.columns(['project_id', 'user_id']).doUpdateSet({ role: row.role }))
        .execute();
    },
    /**
     * Marks the project deleted (nothing reads it any more) and frees its key for a new
     * project: the key column takes the project's id, which no key can equal.
     */
    async markDeleted(id: string, deletedAt: string, deletedBy: string): Promise<void> {
      await db.updateTable('projects').set({ deleted_at: deletedAt, deleted_by: deletedBy, key: id }).where('id', '=', id).execute();
    },
    async insertInvite(row: InviteRow): Promise<void> {
      await db.insertInto('project_invites').values(row).execute();
    },
    /** Invites of a project that can still be accepted at `now`, newest first. */
    listActiveInvites(projectId: string, now: string): Promise<InviteRow[]> {
      return db
        .selectFrom('project_invites')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('revoked_at', 'is', null)
        .where('accepted_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },
    findInvite(projectId: string, id: string): Promise<InviteRow | undefined> {
      return db.selectFrom('project_invites').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
    },
    findInviteByTokenHash(tokenHash: string): Promise<InviteRow | undefined> {
      return db.selectFrom('project_invites').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },
    async updateInvite(id: string, changes: Updateable<ProjectInvitesTable>): Promise<void> {
      await db.updateTable('project_invites').set(changes).where('id', '=', id).execute();
    },
    async removeMember(projectId: string, userId: string): Promise<void> {
      await db.deleteFrom('project_members').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
    },
    /**
     * Everyone with access: direct members and members of the project's workspace, one
     * row per person with both grants (either may be null).
     */
    listPeople(projectId: string, workspaceId: string) {
      return db
        .selectFrom('users as u')
        .leftJoin('project_members as pm', (join) =>
          join.onRef('pm.user_id', '=', 'u.id').on('pm.project_id', '=', projectId),
        )
        .leftJoin('workspace_members as wm', (join) =>
          join.onRef('wm.user_id', '=', 'u.id').on('wm.workspace_id', '=', workspaceId),
        )
        .leftJoin('resources as r', (join) => join.onRef('r.user_id', '=', 'u.id').on('r.project_id', '=', projectId))
        .select([
          'u.id',
          'u.name',
          'u.email',
          'u.avatar_url',
          'pm.role as direct_role',
          'pm.created_at as direct_since',
          'wm.role as workspace_role',
          'wm.created_at as workspace_since',
          'r.id as resource_id',
        ])
        .where((eb) => eb.or([eb('pm.user_id', 'is not', null), eb('wm.user_id', 'is not', null)]))
        .orderBy('u.email')
        .execute();
    },
  };
}
