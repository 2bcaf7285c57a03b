import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { openSqlite } from '../dialects/sqlite.js';
import { migrations } from './index.js';

const dataDirs: string[] = [];
afterEach(() => {
  for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

it('folds the names of tasks stored before it, so search finds them', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-migration-'));
  dataDirs.push(dataDir);
  const { db } = openSqlite(dataDir);
  try {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0003-webhooks')).error).toBeUndefined();
    // A task as the previous version stored it (the project it belongs to does not matter here).
    await sql`pragma foreign_keys = off`.execute(db);
    await sql`insert into tasks (id, project_id, number, sort_key, name, type, duration_min, work_min, progress_pct, constraint_kind, cost_fixed,
      is_critical, manually_scheduled, leveling_delay_min, task_type, effort_driven, created_at, updated_at)
      values ('t1', 'p1', 1, 'a0', 'Été Straße', 'task', 480, 0, 0, 'asap', 0, 0, 0, 0, 'fixed_units', 0, '2026-01-01', '2026-01-01')`.execute(db);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const { rows } = await sql<{ name_folded: string }>`select name_folded from tasks where id = 't1'`.execute(db);
    expect(rows).toEqual([{ name_folded: 'été strasse' }]);
  } finally {
    await db.destroy();
  }
});
