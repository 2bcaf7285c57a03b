import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite } from './sqlite.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('openSqlite', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  // ADR 0004 › Versioned memo: `PRAGMA data_version` costs several µs and every request
  // asked for it twice; it is read once per turn of the event loop.
  it("reads data_version once per turn of the event loop: another connection's commit shows from the next turn", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-sqlite-'));
    dirs.push(dir);
    const server = openSqlite(dir);
    const other = openSqlite(dir);
    try {
      await nextTurn();
      const before = server.dataVersion();
      await sql`create table probe (x integer)`.execute(other.db);
      expect(server.dataVersion()).toBe(before);
      await nextTurn();
      expect(server.dataVersion()).not.toBe(before);
    } finally {
      await server.db.destroy();
      await other.db.destroy();
    }
  });

  it('in a long-running process, leaves WAL checkpoints to a thread of their own: a big commit copies nothing into the file itself', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-sqlite-'));
    dirs.push(dir);
    const server = openSqlite(dir, { background: true });
    const file = path.join(dir, 'gantry.sqlite');
    try {
      await sql`create table filler (x text)`.execute(server.db);
      // About 8 MB: some 2,000 pages, twice what makes a committing connection checkpoint.
      await server.db.transaction().execute(async (tx) => {
        for (let i = 0; i < 40; i++) await sql`insert into filler (x) select hex(randomblob(1000)) from (with recursive n(k) as (select 1 union all select k + 1 from n where k < 100) select k from n)`.execute(tx);
      });
      expect(fs.statSync(file).size).toBeLessThan(1_000_000);
      const deadline = Date.now() + 10_000;
      while (fs.statSync(file).size < 7_000_000 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(fs.statSync(file).size).toBeGreaterThan(7_000_000);
    } finally {
      await server.db.destroy();
    }
  });
});
