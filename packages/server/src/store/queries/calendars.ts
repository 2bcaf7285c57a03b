import type { Selectable, Updateable } from 'kysely';
import type { CalendarsTable } from '../schema.js';
import type { Executor } from './executor.js';

export type CalendarRow = Selectable<CalendarsTable>;

export function calendarQueries(db: Executor) {
  return {
    /** Oldest first. */
    listForProject(projectId: string): Promise<CalendarRow[]> {
      return db.selectFrom('calendars').selectAll().where('project_id', '=', projectId).orderBy('created_at').orderBy('id').execute();
    },
    find(projectId: string, id: string): Promise<CalendarRow | undefined> {
      return db.selectFrom('calendars').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
    },
    async insert(row: CalendarRow): Promise<void> {
      await db.insertInto('calendars').values(row).execute();
    },
    async update(id: string, changes: Updateable<CalendarsTable>): Promise<void> {
      await db.updateTable('calendars').set(changes).where('id', '=', id).execute();
    },
    async delete(id: string): Promise<void> {
      await db.deleteFrom('calendars').where('id', '=', id).execute();
    },
    /** The tasks of the project that work on the calendar. */
    async tasksOn(projectId: string, id: string): Promise<string[]> {
      const rows = await db.selectFrom('tasks').select('id').where('project_id', '=', projectId).where('calendar_id', '=', id).orderBy('number').execute();
      return rows.map((row) => row.id);
    },
    /** Whether any task of the project works on one of these calendars. */
    async usedByTasks(projectId: string, ids: readonly string[]): Promise<boolean> {
      if (ids.length === 0) return false;
      const row = await db.selectFrom('tasks').select('id').where('project_id', '=', projectId).where('calendar_id', 'in', ids).limit(1).executeTakeFirst();
      return row !== undefined;
    },
  };
}
