import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { DependenciesTable, TasksTable } from '../schema.js';
import { selectSliced, type Dialect, type Executor } from './executor.js';

export type TaskRow = Omit<Selectable<TasksTable>, 'name_folded'>;

/**
 * Every column of a TaskRow, to select (the folded name stays in the store). Written as an
 * object so that the compiler checks the list is complete: a column the table gains fails
 * to compile here until it is added.
 */
const taskColumns = Object.keys({
  id: true, project_id: true, number: true, parent_id: true, sort_key: true, name: true, type: true, duration_min: true,
  work_min: true, progress_pct: true, constraint_kind: true, constraint_date: true, deadline: true, calendar_id: true,
  cost_fixed: true, notes: true, color: true, wbs: true, external_id: true, start_at: true, finish_at: true, is_critical: true,
  total_float_min: true, free_float_min: true, early_start_at: true, early_finish_at: true, late_start_at: true,
  late_finish_at: true, actual_start_at: true, actual_finish_at: true, actual_duration_min: true, remaining_duration_min: true,
  manually_scheduled: true, manual_start_at: true, manual_finish_at: true, leveling_delay_min: true, task_type: true,
  effort_driven: true, duration_estimated: true, duration_optimistic_min: true, duration_pessimistic_min: true, created_at: true, updated_at: true,
} satisfies Record<keyof TaskRow, true>) as (keyof TaskRow)[];

/**
 * Text as case-insensitive search compares it, for all of Unicode and alike on both
 * stores: compatibility-normalised (ligatures, full-width letters), then case-folded the
 * way JavaScript's full case mappings allow (upper then lower: `ß` and `SS` both become `ss`).
 */
export function foldForSearch(text: string): string {
  return text.normalize('NFKC').toUpperCase().toLowerCase();
}
export type DependencyRow = Selectable<DependenciesTable>;

export interface TaskPageOptions {
  limit: number;
  sort: 'number' | '-number' | '-updatedAt';
  /** For `number`: tasks after this number; for `-number`: before it. */
  afterNumber?: number;
  externalId?: string;
  nameContains?: string;
  updatedSince?: string;
  completed?: boolean;
}

/** Rows per INSERT statement: well under both dialects' bound-parameter limits. */
const insertChunk = 200;

export function taskQueries(db: Executor, dialect: Dialect) {
  return {
    /** In id order: the engine then indexes the tasks in one pass instead of sorting them. */
    listForProject(projectId: string): Promise<TaskRow[]> {
      return selectSliced(dialect, db.selectFrom('tasks').select(taskColumns).where('project_id', '=', projectId).orderBy('id'));
    },
    findById(projectId: string, id: string): Promise<TaskRow | undefined> {
      return db.selectFrom('tasks').select(taskColumns).where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
    },
    /** Which of these ids a task (of any project) already has. */
    async existingIds(ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom('tasks').select('id').where('id', 'in', ids).execute();
      return rows.map((row) => row.id);
    },
    /**
     * Writes whole rows: inserts new tasks and overwrites existing ones, a few hundred rows
     * per statement. A recalculation can move every task of a project (a new project
     * finish changes every late date and float), so saving row by row would dominate a write.
     */
    async upsertMany(rows: TaskRow[]): Promise<void> {
      for (let start = 0; start < rows.length; start += insertChunk) {
        const chunk = rows.slice(start, start + insertChunk).map((row) => ({ ...row, name_folded: foldForSearch(row.name) }));
        await db
          .insertInto('tasks')
          .values(chunk)
          .onConflict((oc) =>
            oc.column('id').doUpdateSet((eb) => {
              const set: Record<string, unknown> = {};
              for (const column of Object.keys(chunk[0]!)) {
                if (column !== 'id' && column !== 'project_id' && column !== 'created_at') set[column] = eb.ref(`excluded.${column}` as 'excluded.name');
              }
              return set as Updateable<TasksTable>;
            }),
          )
          .execute();
      }
    },
    /** One page of a project's tasks; fetches `limit + 1` rows so the caller knows whether more follow. */
    page(projectId: string, options: TaskPageOptions): Promise<TaskRow[]> {
      let query = db.selectFrom('tasks').select(taskColumns).where('project_id', '=', projectId);
      if (options.externalId !== undefined) query = query.where('external_id', '=', options.externalId);
      if (options.nameContains !== undefined) {
        const pattern = `%${foldForSearch(options.nameContains).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query = query.where(sql<boolean>`name_folded like ${pattern} escape '\\'`);
      }
      if (options.updatedSince !== undefined) query = query.where('updated_at', '>=', options.updatedSince);
      if (options.completed !== undefined) query = query.where('progress_pct', options.completed ? '>=' : '<', 100);
      if (options.sort === 'number') {
        if (options.afterNumber !== undefined) query = query.where('number', '>', options.afterNumber);
        query = query.orderBy('number', 'asc');
      } else if (options.sort === '-number') {
        if (options.afterNumber !== undefined) query = query.where('number', '<', options.afterNumber);
        query = query.orderBy('number', 'desc');
      } else {
        query = query.orderBy('updated_at', 'desc').orderBy('number', 'desc');
      }
      return query.limit(options.limit + 1).execute();
    },
    listDependencies(projectId: string): Promise<DependencyRow[]> {
      return selectSliced(dialect, db.selectFrom('dependencies').selectAll().where('project_id', '=', projectId));
    },
    async insertDependencies(rows: Insertable<DependenciesTable>[]): Promise<void> {
      for (let start = 0; start < rows.length; start += insertChunk) {
        await db.insertInto('dependencies').values(rows.slice(start, start + insertChunk)).execute();
      }
    },
    async updateDependency(id: string, changes: Updateable<DependenciesTable>): Promise<void> {
      await db.updateTable('dependencies').set(changes).where('id', '=', id).execute();
    },
    /** Deletes tasks and their comments; their dependencies and assignments must be gone already. */
    async deleteTasks(ids: string[]): Promise<void> {
      for (let start = 0; start < ids.length; start += insertChunk) {
        const chunk = ids.slice(start, start + insertChunk);
        await db.deleteFrom('comments').where('task_id', 'in', chunk).execute();
        await db.deleteFrom('tasks').where('id', 'in', chunk).execute();
      }
    },
    async deleteDependencies(ids: string[]): Promise<void> {
      if (ids.length > 0) await db.deleteFrom('dependencies').where('id', 'in', ids).execute();
    },
  };
}
