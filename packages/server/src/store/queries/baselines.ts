import type { Insertable, Selectable } from 'kysely';
import type { BaselinesTable, BaselineTasksTable } from '../schema.js';
import type { Executor } from './executor.js';

export type BaselineRow = Selectable<BaselinesTable>;
export type BaselineTaskRow = Selectable<BaselineTasksTable>;

export function baselineQueries(db: Executor) {
  return {
    list(projectId: string): Promise<BaselineRow[]> {
      return db.selectFrom('baselines').selectAll().where('project_id', '=', projectId).orderBy('captured_at').orderBy('id').execute();
    },
    findMain(projectId: string): Promise<BaselineRow | undefined> {
      return db.selectFrom('baselines').selectAll().where('project_id', '=', projectId).where('is_main', '=', 1).executeTakeFirst();
    },
    /** Replaces the baseline row (and its task values) with the same id, or inserts it. */
    async put(row: Insertable<BaselinesTable>, tasks: Insertable<BaselineTasksTable>[]): Promise<void> {
      await db.deleteFrom('baseline_tasks').where('baseline_id', '=', row.id).execute();
      await db.deleteFrom('baselines').where('id', '=', row.id).execute();
      await db.insertInto('baselines').values(row).execute();
      for (let start = 0; start < tasks.length; start += 500) {
        await db.insertInto('baseline_tasks').values(tasks.slice(start, start + 500)).execute();
      }
    },
    listTasksOfProject(projectId: string): Promise<BaselineTaskRow[]> {
      return db
        .selectFrom('baseline_tasks as bt')
        .innerJoin('baselines as b', 'b.id', 'bt.baseline_id')
        .selectAll('bt')
        .where('b.project_id', '=', projectId)
        .execute();
    },
  };
}
