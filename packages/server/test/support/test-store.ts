import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * The environment that points a process (server or CLI) at a fresh, private store:
 * a temporary DATA_DIR on SQLite, or — when TEST_DATABASE_URL is set — a new
 * PostgreSQL schema selected through the connection's search_path.
 */
export interface TestStoreEnv {
  env: Record<string, string>;
  dialect: 'sqlite' | 'postgres';
  drop(): Promise<void>;
}

export async function createTestStoreEnv(): Promise<TestStoreEnv> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-test-'));
    return {
      env: { DATA_DIR: dataDir },
      dialect: 'sqlite',
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const schema = `gantry_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    env: { DATABASE_URL: url.toString() },
    dialect: 'postgres',
    drop: async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}
