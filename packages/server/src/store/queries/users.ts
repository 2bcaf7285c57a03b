import type { Insertable, Selectable } from 'kysely';
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
    /** `email` must already be normalised (trimmed, lower-case). */
    findByEmail(email: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    },
  };
}
