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
});
