import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { withStoreAt } from '../../../test/support/migration-store.js';

it('folds the names of tasks stored before it, so search finds them', () =>
  withStoreAt('0003-webhooks', async (db, migrateToLatest) => {
    // A task as the previous version stored it (the project it belongs to does not matter here).
    await sql`pragma foreign_keys = off`.execute(db);
    await sql`insert into tasks (id, project_id, number, sort_key, name, type, duration_min, work_min, progress_pct, constraint_kind, cost_fixed,
      is_critical, manually_scheduled, leveling_delay_min, task_type, effort_driven, created_at, updated_at)
      values ('t1', 'p1', 1, 'a0', 'Été Straße', 'task', 480, 0, 0, 'asap', 0, 0, 0, 0, 'fixed_units', 0, '2026-01-01', '2026-01-01')`.execute(db);
    await migrateToLatest();
    const { rows } = await sql<{ name_folded: string }>`select name_folded from tasks where id = 't1'`.execute(db);
    expect(rows).toEqual([{ name_folded: 'été strasse' }]);
  }));
