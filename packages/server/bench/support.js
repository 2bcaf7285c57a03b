// Shared by the server benchmarks: free ports, child processes, provisioning through the CLI.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
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

/** The bench user's password, for benchmarks that sign in as a person (the web app). */
export const benchPassword = 'bench-password-1';

/**
 * Starts `gantry serve` on a free port with a user and a write key; returns its address and
 * key, the server's process id, and `cli(...args)`, the gantry CLI on the same store (JSON).
 */
export async function startGantry(env, nodeArgs = []) {
  const { BASE_URL: _vite, DATABASE_URL: _db, ...inherited } = process.env;
  const fullEnv = { ...inherited, ...env };
  const cli = (...args) => JSON.parse(execFileSync(process.execPath, [gantryBin, ...args, '--json'], { env: fullEnv }).toString());
  cli('user', 'create', '--email', 'bench@example.com', '--name', 'Bench', '--password', benchPassword);
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
    pid: child.pid,
    cli,
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

/** Changes per request when a plan is built (the change-set limit). */
const planBatch = 1000;

/** A plan of `phases` summaries with `perPhase` tasks each, chained by FS links (two in three). */
export function planOf(phases, perPhase) {
  const tasks = [];
  const links = [];
  let previous = null;
  for (let phase = 0; phase < phases; phase++) {
    const phaseId = randomUUID();
    tasks.push({ id: phaseId, name: `Phase ${phase + 1}`, type: 'summary' });
    for (let i = 0; i < perPhase; i++) {
      const id = randomUUID();
      tasks.push({ id, name: `Task ${phase + 1}.${i + 1}`, parentId: phaseId, durationMin: 240 + ((phase * perPhase + i) % 7) * 120 });
      if (previous && i % 3 !== 1) links.push({ predecessorId: previous, successorId: id });
      previous = id;
    }
  }
  return { tasks, links };
}

/** Creates a project holding the plan (tasks, then links, in change sets); returns its id and the ids of its leaf tasks. */
export async function createPlan(gantry, name, { tasks, links }) {
  const { json } = await post(gantry, '/api/projects', { name, startDate: '2026-03-02' });
  const projectId = json.project.id;
  for (let i = 0; i < tasks.length; i += planBatch) await post(gantry, `/api/projects/${projectId}/tasks`, { createTasks: tasks.slice(i, i + planBatch) });
  for (let i = 0; i < links.length; i += planBatch) await post(gantry, `/api/projects/${projectId}/dependencies`, { dependencies: links.slice(i, i + planBatch) });
  return { projectId, leafIds: tasks.filter((t) => t.parentId).map((t) => t.id) };
}
