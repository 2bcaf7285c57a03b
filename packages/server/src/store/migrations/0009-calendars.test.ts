import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { insertProject, withStoreAt } from '../../../test/support/migration-store.js';

it('adds calendars to the projects stored before it, which keep the Standard calendar', () =>
  withStoreAt('0008-webhook-active-since', async (db, migrateToLatest) => {
    await insertProject(db);
    await migrateToLatest();
    expect((await sql`select calendar_id from projects`.execute(db)).rows).toEqual([{ calendar_id: null }]);

    const calendar = (id: string, baseId: string | null) => sql`insert into calendars (id, project_id, name, time_zone, weekly, exceptions, base_calendar_id, created_at, updated_at)
      values (${id}, 'p1', 'Standard', 'Europe/Berlin', '[[],null,null,null,null,null,[]]', '[]', ${baseId}, '2026-01-01', '2026-01-01')`.execute(db);
    await calendar('c1', null);
    await calendar('c2', 'c1');
    const rows = await sql`select id, base_calendar_id from calendars where project_id = 'p1' order by id`.execute(db);
    expect(rows.rows).toEqual([
      { id: 'c1', base_calendar_id: null },
      { id: 'c2', base_calendar_id: 'c1' },
    ]);
  }));
