import type { Insertable, Selectable, Updateable } from 'kysely';
import type { UsersTable } from '../schema.js';
import type { Executor } from './executor.js';

export type UserRow = Selectable<UsersTable>;

export function userQueries(db: Executor) {
  return {
    async insert(row: Insertable<UsersTable>): Promise<void> {
      await db.insertInto('users').values(row).execute();
    },
    findById(id: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async update(id: string, changes: Updateable<Pick<UsersTable, 'name' | 'avatar_url' | 'locale' | 'email_verified' | 'password_hash' | 'updated_at'>>): Promise<void> {
      await db.updateTable('users').set(changes).where('id', '=', id).execute();
    },
    /** `email` must already be normalised (trimmed, lower-case). */
    findByEmail(email: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    },
  };
}
