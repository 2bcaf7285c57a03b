#!/usr/bin/env node
// Authenticated `GET /api/projects/{id}` throughput of the real server (SQLite, full
// auth, rate limiter and audit log on), as a ratio against a bare node:http server that
// returns the same bytes. Both run as child processes and are loaded by the same
// autocannon client in alternating rounds, so machine noise hits both alike. Beside the
// throughput ratio: each server's CPU time per request, and their ratio (bare / Gantry),
// which does not depend on how fast the load generator can ask.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort, gantryBin, median, waitFor } from './support.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const durationSec = Number(process.env.BENCH_SECONDS ?? 3);
const connections = 16;

/**
 * The load generator (this process: autocannon runs in it) and the servers share the
 * machine's cores; on a small machine the scheduler may put any of them anywhere, and the
 * bare server's figure is then mostly the load generator's own limit. With `taskset` and
 * at least two cores, the load generator is pinned to the first core and each server to
 * the second, for the bare server and Gantry alike (BENCH_PIN=0 turns this off).
 */
const cores = os.availableParallelism();
const pinned = process.env.BENCH_PIN !== '0' && cores >= 2 && spawnSync('taskset', ['-p', '-c', '0', String(process.pid)], { stdio: 'ignore' }).status === 0;

function start(args, env) {
  const [command, commandArgs] = pinned ? ['taskset', ['-c', String(cores - 1), process.execPath, ...args]] : [process.execPath, args];
  return spawn(command, commandArgs, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** CPU time (user + system, ms) a child process has used so far, from /proc (null elsewhere). */
function cpuMsOf(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return null;
  }
}

/** Loads `url` for one round: requests per second, and the CPU time per request of the server and of this load generator (µs). */
async function load(url, headers, pid) {
  const serverBefore = pid ? cpuMsOf(pid) : null;
  const clientBefore = process.cpuUsage();
  const result = await autocannon({ url, connections, duration: durationSec, headers, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const client = process.cpuUsage(clientBefore);
  const serverAfter = pid ? cpuMsOf(pid) : null;
  const total = result.requests.total;
  return {
    rps: result.requests.average,
    serverCpuUs: serverBefore === null || serverAfter === null ? null : ((serverAfter - serverBefore) * 1000) / total,
    clientCpuUs: (client.user + client.system) / total,
  };
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
  const gantryRounds = [];
  const bareRounds = [];
  for (let round = 0; round < rounds; round++) {
    bareRounds.push(await load(bareUrl, headers, bare.child.pid));
    gantryRounds.push(await load(url, headers, gantry.pid));
  }
  const gantryRps = gantryRounds.map((r) => r.rps);
  const bareRps = bareRounds.map((r) => r.rps);
  const cpu = (rounds_, key) => (rounds_.some((r) => r[key] === null) ? null : median(rounds_.map((r) => r[key])));
  // Each round measures both servers back to back, so a round's ratio shares its noise;
  // the median of the rounds' ratios is the figure.
  const ratio = median(gantryRps.map((rps, round) => rps / bareRps[round]));
  console.log(`GET /api/projects/{id} (${bytes.length} bytes, ${connections} connections, ${rounds}×${durationSec}s, ${pinned ? 'load generator and server pinned to separate cores' : 'not pinned'}):`);
  console.log(`  gantry  ${gantryRps.map((r) => r.toFixed(0)).join(' / ')} req/s`);
  console.log(`  bare    ${bareRps.map((r) => r.toFixed(0)).join(' / ')} req/s`);
  console.log(`  ratio   ${ratio.toFixed(3)} (target ≥ 0.8)`);
  // CPU per request tells what the machine could not: the load generator shares the two
  // cores with the server, so the bare server's rate is mostly the generator's own limit.
  const figures = {
    gantryCpuUs: cpu(gantryRounds, 'serverCpuUs'),
    bareCpuUs: cpu(bareRounds, 'serverCpuUs'),
    clientCpuUsGantry: cpu(gantryRounds, 'clientCpuUs'),
    clientCpuUsBare: cpu(bareRounds, 'clientCpuUs'),
  };
  const us = (value) => (value === null ? null : Number(value.toFixed(1)));
  console.log(
    `  CPU per request: gantry ${us(figures.gantryCpuUs)} µs, bare ${us(figures.bareCpuUs)} µs; load generator ${us(figures.clientCpuUsGantry)} / ${us(figures.clientCpuUsBare)} µs`,
  );
  console.log(
    JSON.stringify({
      readThroughputRatio: Number(ratio.toFixed(3)),
      readThroughputRps: Math.round(median(gantryRps)),
      bareThroughputRps: Math.round(median(bareRps)),
      readCpuUsPerRequest: us(figures.gantryCpuUs),
      bareCpuUsPerRequest: us(figures.bareCpuUs),
      loadGeneratorCpuUsPerRequest: us(figures.clientCpuUsBare),
      readCpuRatio: figures.gantryCpuUs && figures.bareCpuUs ? Number((figures.bareCpuUs / figures.gantryCpuUs).toFixed(3)) : null,
      readThroughputPinned: pinned,
    }),
  );
} finally {
  gantry.kill('SIGTERM');
  bare.child?.kill('SIGTERM');
  await new Promise((resolve) => gantry.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
