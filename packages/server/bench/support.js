// Shared by the server benchmarks: free ports, child processes, provisioning through the CLI.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

// BENCH_GANTRY_BIN=path/to/bin/gantry.js benchmarks another build (an A/B against a baseline checkout).
export const gantryBin = process.env.BENCH_GANTRY_BIN ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/gantry.js');

export function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function waitFor(url) {
  for (let attempt = 0; attempt < 150; attempt++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
export const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];

/**
 * A private store for one benchmark: a temporary DATA_DIR, or a fresh schema in the
 * PostgreSQL database at `databaseUrl`. Budgets are raised so that the limiter never
 * refuses (it still counts every request).
 */
export async function benchStore(databaseUrl) {
  const base = { LOG_LEVEL: 'warn', GANTRY_RATE_LIMIT_READS: '1000000000', GANTRY_RATE_LIMIT_WRITES: '1000000000' };
  if (!databaseUrl) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-bench-'));
    return { env: { ...base, DATA_DIR: dataDir }, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const schema = `gantry_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    env: { ...base, DATABASE_URL: url.toString() },
    drop: async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}

/** Starts `gantry serve` on a free port with a user and a write key; returns its address and key. */
export async function startGantry(env, nodeArgs = []) {
  const { BASE_URL: _vite, DATABASE_URL: _db, ...inherited } = process.env;
  const fullEnv = { ...inherited, ...env };
  const cli = (...args) => JSON.parse(execFileSync(process.execPath, [gantryBin, ...args, '--json'], { env: fullEnv }).toString());
  cli('user', 'create', '--email', 'bench@example.com', '--name', 'Bench');
  const { key } = cli('key', 'create', '--email', 'bench@example.com', '--scope', 'write');
  const port = await freePort();
  // BENCH_CPU_PROF_DIR=dir writes a V8 CPU profile of the server, to see where time goes.
  const profile = process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, ...nodeArgs, gantryBin, 'serve'], { env: { ...fullEnv, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/healthz`);
  return {
    base,
    key,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** One request to a started gantry, timed by the client from request to whole response; throws on a non-2xx. */
export async function post(gantry, path, body, method = 'POST') {
  const started = performance.now();
  const response = await fetch(`${gantry.base}${path}`, { method, headers: gantry.headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const elapsed = performance.now() - started;
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text.slice(0, 300)}`);
  return { elapsed, json: JSON.parse(text) };
}

/**
 * Runs `fn(gantry)` against a fresh server over a private store (SQLite, or PostgreSQL at
 * `databaseUrl`), then stops and drops both. `env` and `nodeArgs` go to the server process.
 */
export async function withGantry(databaseUrl, fn, { env = {}, nodeArgs = [] } = {}) {
  const store = await benchStore(databaseUrl);
  const gantry = await startGantry({ ...store.env, ...env }, nodeArgs);
  try {
    return await fn(gantry);
  } finally {
    await gantry.stop();
    await store.drop();
  }
}

/** `run(label, databaseUrl)` on SQLite, then on PostgreSQL (null, with the reason printed, when it cannot be reached). */
export async function onBothStores(run) {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const sqlite = await run('SQLite', undefined);
  let postgres = null;
  try {
    postgres = await run('PostgreSQL', databaseUrl);
  } catch (error) {
    console.log(`PostgreSQL: skipped (${error.message})`);
  }
  return { sqlite, postgres };
}
