import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { insertProject, withStoreAt } from '../../../test/support/migration-store.js';
import { projectQueries } from '../queries/projects.js';

it('counts the derived values of the projects stored before it as version 0, for the upgrade to recompute', () =>
  withStoreAt('0015-idempotency-fingerprint-formula', async (db, migrateToLatest) => {
    await insertProject(db);
    await migrateToLatest();
    expect((await sql`select derived_values_version from projects`.execute(db)).rows).toEqual([{ derived_values_version: 0 }]);
    const projects = projectQueries(db, 'sqlite');
    expect(await projects.idsDerivedBefore(1)).toEqual(['p1']);
    await projects.update('p1', { derived_values_version: 1 });
    expect(await projects.idsDerivedBefore(1)).toEqual([]);
  }));
