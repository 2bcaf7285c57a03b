import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { DependenciesTable, TasksTable } from '../schema.js';
import type { Executor } from './executor.js';

export type TaskRow = Omit<Selectable<TasksTable>, 'name_folded'>;

/** Every column of a TaskRow, to select (the folded name stays in the store). */
const taskColumns = [
  'id', 'project_id', 'number', 'parent_id', 'sort_key', 'name', 'type', 'duration_min', 'work_min', 'progress_pct',
  'constraint_kind', 'constraint_date', 'deadline', 'calendar_id', 'cost_fixed', 'notes', 'color', 'wbs', 'external_id',
  'start_at', 'finish_at', 'is_critical', 'total_float_min', 'free_float_min', 'early_start_at', 'early_finish_at',
  'late_start_at', 'late_finish_at', 'actual_start_at', 'actual_finish_at', 'actual_duration_min', 'remaining_duration_min',
  'manually_scheduled', 'manual_start_at', 'manual_finish_at', 'leveling_delay_min', 'task_type', 'effort_driven',
  'duration_optimistic_min', 'duration_pessimistic_min', 'created_at', 'updated_at',
] as const satisfies readonly (keyof TaskRow)[];
// A column added to the table but not to the list above fails to compile here.
const everyColumnSelected: Exclude<keyof TaskRow, (typeof taskColumns)[number]> extends never ? true : never = true;
void everyColumnSelected;

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

export function taskQueries(db: Executor) {
  return {
    /** In id order: the engine then indexes the tasks in one pass instead of sorting them. */
    listForProject(projectId: string): Promise<TaskRow[]> {
      return db.selectFrom('tasks').select(taskColumns).where('project_id', '=', projectId).orderBy('id').execute();
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
      return db.selectFrom('dependencies').selectAll().where('project_id', '=', projectId).execute();
    },
    async insertDependencies(rows: Insertable<DependenciesTable>[]): Promise<void> {
      for (let start = 0; start < rows.length; start += insertChunk) {
        await db.insertInto('dependencies').values(rows.slice(start, start + insertChunk)).execute();
      }
    },
    async updateDependency(id: string, changes: Updateable<DependenciesTable>): Promise<void> {
      await db.updateTable('dependencies').set(changes).where('id', '=', id).execute();
    },
    async deleteDependencies(ids: string[]): Promise<void> {
      if (ids.length > 0) await db.deleteFrom('dependencies').where('id', 'in', ids).execute();
    },
  };
}
