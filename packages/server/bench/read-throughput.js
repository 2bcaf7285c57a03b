#!/usr/bin/env node
// Authenticated `GET /api/projects/{id}` throughput of the real server (SQLite, full
// auth, rate limiter and audit log on), as a ratio against a bare node:http server that
// returns the same bytes. Both run as child processes and are loaded by the same
// autocannon client in alternating rounds, so machine noise hits both alike.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freePort, median, waitFor } from './support.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const gantryBin = path.resolve(here, '../bin/gantry.js');
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const durationSec = Number(process.env.BENCH_SECONDS ?? 3);
const connections = 16;

function start(args, env) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  return child;
}

async function load(url, headers) {
  const result = await autocannon({ url, connections, duration: durationSec, headers, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-bench-'));
const env = {
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  // The bench measures throughput, not the limiter's refusals: raise the budgets so that
  // every request takes the full path (the limiter still counts each one).
  GANTRY_RATE_LIMIT_READS: '1000000000',
  GANTRY_RATE_LIMIT_WRITES: '1000000000',
};
delete process.env.DATABASE_URL;
const cli = (...args) => JSON.parse(execFileSync(process.execPath, [gantryBin, ...args, '--json'], { env: { ...process.env, ...env } }).toString());

cli('user', 'create', '--email', 'bench@example.com', '--name', 'Bench');
const { key } = cli('key', 'create', '--email', 'bench@example.com', '--scope', 'write');
const gantryPort = await freePort();
// BENCH_CPU_PROF_DIR=dir writes a V8 CPU profile of the server, to see where time goes.
const profile = process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : [];
const gantry = start([...profile, gantryBin, 'serve'], { ...env, PORT: String(gantryPort) });
const bare = { child: null, port: await freePort() };
try {
  const base = `http://127.0.0.1:${gantryPort}`;
  await waitFor(`${base}/healthz`);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const created = await fetch(`${base}/api/projects`, { method: 'POST', headers, body: JSON.stringify({ name: 'Bench plan', startDate: '2026-03-02' }) });
  const { project } = await created.json();
  // A plan of realistic size: 40 tasks in 4 phases, chained.
  const createTasks = [];
  for (let phase = 0; phase < 4; phase++) {
    const phaseId = crypto.randomUUID();
    createTasks.push({ id: phaseId, name: `Phase ${phase + 1}` });
    for (let i = 0; i < 9; i++) createTasks.push({ id: crypto.randomUUID(), name: `Task ${phase + 1}.${i + 1}`, parentId: phaseId, durationMin: 480 });
  }
  const leaves = createTasks.filter((task) => task.parentId);
  const createDependencies = leaves.slice(1).map((task, index) => ({ predecessorId: leaves[index].id, successorId: task.id }));
  const planned = await fetch(`${base}/api/projects/${project.id}/tasks`, { method: 'POST', headers, body: JSON.stringify({ createTasks, createDependencies }) });
  if (!planned.ok) throw new Error(`change set failed: ${planned.status} ${await planned.text()}`);
  const url = `${base}/api/projects/${project.id}`;
  const bytes = Buffer.from(await (await fetch(url, { headers })).arrayBuffer());

  const bodyFile = path.join(dataDir, 'body.json');
  fs.writeFileSync(bodyFile, bytes);
  bare.child = start(
    [
      '-e',
      `const body = require('fs').readFileSync(${JSON.stringify(bodyFile)});
       require('http').createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }); res.end(body); }).listen(${bare.port}, '127.0.0.1');`,
    ],
    {},
  );
  const bareUrl = `http://127.0.0.1:${bare.port}/api/projects/${project.id}`;
  await waitFor(bareUrl);

  await load(url, headers); // warm-up
  const gantryRps = [];
  const bareRps = [];
  for (let round = 0; round < rounds; round++) {
    bareRps.push(await load(bareUrl, headers));
    gantryRps.push(await load(url, headers));
  }
  // Each round measures both servers back to back, so a round's ratio shares its noise;
  // the median of the rounds' ratios is the figure.
  const ratio = median(gantryRps.map((rps, round) => rps / bareRps[round]));
  console.log(`GET /api/projects/{id} (${bytes.length} bytes, ${connections} connections, ${rounds}×${durationSec}s):`);
  console.log(`  gantry  ${gantryRps.map((r) => r.toFixed(0)).join(' / ')} req/s`);
  console.log(`  bare    ${bareRps.map((r) => r.toFixed(0)).join(' / ')} req/s`);
  console.log(`  ratio   ${ratio.toFixed(3)} (target ≥ 0.8)`);
  console.log(JSON.stringify({ readThroughputRatio: Number(ratio.toFixed(3)), readThroughputRps: Math.round(median(gantryRps)), bareThroughputRps: Math.round(median(bareRps)) }));
} finally {
  gantry.kill('SIGTERM');
  bare.child?.kill('SIGTERM');
  await new Promise((resolve) => gantry.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
