import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';

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

/** A private store for the tests of one file: opened before them, closed and dropped after. */
export function usePrivateStore(): { readonly store: Store; readonly storeEnv: TestStoreEnv } {
  const opened = {} as { store: Store; storeEnv: TestStoreEnv };
  beforeAll(async () => {
    opened.storeEnv = await createTestStoreEnv();
    ({ store: opened.store } = await openStore(loadConfig({ ...opened.storeEnv.env, LOG_LEVEL: 'silent' })));
  });
  afterAll(async () => {
    await opened.store.close();
    await opened.storeEnv.drop();
  });
  return opened;
}
