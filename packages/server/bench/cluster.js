#!/usr/bin/env node
// A cluster under load on one PostgreSQL: 2 API nodes (GANTRY_SERVE_WORKER=0) and 2
// workers, mixed reads and writes from many keys (autocannon, one instance per node), every
// write's event delivered to a receiver on loopback. Then the same load on one node that
// does everything (the baseline of this run). Reports throughput and p99, and checks that
// no acknowledged write and no event was lost.
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import autocannon from 'autocannon';
import { benchStore, freePort, gantryBin, waitFor } from './support.js';

const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const durationSec = Number(process.env.BENCH_CLUSTER_SECONDS ?? 10);
const connectionsPerNode = Number(process.env.BENCH_CLUSTER_CONNECTIONS ?? 16);
const keyCount = 8;
const tasksPerProject = 200;
/** One request in five is a write. */
const writeShare = 0.2;

const { BASE_URL: _vite, DATABASE_URL: _db, ...inherited } = process.env;

function cli(env, ...args) {
  return JSON.parse(execFileSync(process.execPath, [gantryBin, ...args, '--json'], { env: { ...inherited, ...env } }).toString());
}

function startProcess(command, env) {
  const child = spawn(process.execPath, [gantryBin, command], { env: { ...inherited, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  return {
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/** The webhook receiver: every delivered task.updated (its task, notes and time), once per event id. */
function startReceiver() {
  const notesByEvent = new Map();
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const event = JSON.parse(body);
      if (event.type === 'task.updated') notesByEvent.set(event.id, { taskId: event.data.task.id, notes: event.data.task.notes, createdAt: event.createdAt });
      response.writeHead(200).end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/hooks`, notesByEvent })));
}

async function api(base, key, method, path, body) {
  const response = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${await response.text()}`);
  return response.json();
}

/** Keys, each with a project of `tasksPerProject` tasks and a webhook on task.updated. */
async function provision(env, base, receiverUrl) {
  cli(env, 'user', 'create', '--email', 'cluster@example.com', '--name', 'Cluster');
  const owners = [];
  for (let i = 0; i < keyCount; i++) {
    const { key } = cli(env, 'key', 'create', '--email', 'cluster@example.com', '--scope', 'write', '--name', `load ${i}`);
    const { project } = await api(base, key, 'POST', '/api/projects', { name: `Load ${i}`, startDate: '2026-03-02' });
    const taskIds = Array.from({ length: tasksPerProject }, () => randomUUID());
    await api(base, key, 'POST', `/api/projects/${project.id}/tasks`, {
      createTasks: taskIds.map((id, t) => ({ id, name: `Task ${t}`, durationMin: 480 })),
      createDependencies: taskIds.slice(1).map((id, t) => ({ predecessorId: taskIds[t], successorId: id, type: 'FS' })),
    });
    await api(base, key, 'POST', '/api/webhooks', { url: receiverUrl, events: ['task.updated'], projectId: project.id });
    owners.push({ key, projectId: project.id, taskIds });
  }
  return owners;
}

/**
 * Mixed traffic against one node: each request picks a key (and its project); reads are
 * the full plan, a page of tasks or one task; writes change one task's notes to a value
 * never used before, so each acknowledged write must show up as one task.updated event.
 */
async function loadNode(base, owners, label, acknowledged) {
  let sequence = 0;
  const pick = (list) => list[Math.floor(Math.random() * list.length)];
  const result = await autocannon({
    url: base,
    connections: connectionsPerNode,
    duration: durationSec,
    requests: [
      {
        setupRequest(request, context) {
          const owner = pick(owners);
          const task = pick(owner.taskIds);
          const headers = { authorization: `Bearer ${owner.key}`, 'content-type': 'application/json' };
          context.notes = undefined;
          if (Math.random() < writeShare) {
            context.notes = `${label}-${(sequence += 1)}`;
            context.task = task;
            return { ...request, method: 'PATCH', path: `/api/projects/${owner.projectId}/tasks/${task}`, headers, body: JSON.stringify({ notes: context.notes }) };
          }
          const path = pick([`/api/projects/${owner.projectId}`, `/api/projects/${owner.projectId}/tasks?limit=50`, `/api/projects/${owner.projectId}/tasks/${task}`]);
          return { ...request, method: 'GET', path, headers, body: undefined };
        },
        onResponse(status, _body, context) {
          if (context.notes !== undefined && status === 200) acknowledged.set(context.notes, context.task);
        },
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${base}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result;
}

/** Runs the load against `nodeCount` API nodes and `workerCount` workers (0: each node does the background work). */
async function run(nodeCount, workerCount) {
  const store = await benchStore(databaseUrl);
  const receiver = await startReceiver();
  const env = { ...store.env, GANTRY_WEBHOOK_ALLOW_PRIVATE: '1', GANTRY_SERVE_WORKER: workerCount > 0 ? '0' : '1' };
  const processes = [];
  try {
    const bases = [];
    for (let i = 0; i < nodeCount; i++) {
      const port = await freePort();
      processes.push(startProcess('serve', { ...env, PORT: String(port) }));
      bases.push(`http://127.0.0.1:${port}`);
    }
    for (const base of bases) await waitFor(`${base}/healthz`);
    for (let i = 0; i < workerCount; i++) processes.push(startProcess('worker', env));
    const owners = await provision(env, bases[0], receiver.url);

    /** Acknowledged writes: the notes value each set, and the task it set it on. */
    const acknowledged = new Map();
    const results = await Promise.all(bases.map((base, i) => loadNode(base, owners, `n${i}`, acknowledged)));
    const requests = results.reduce((sum, result) => sum + result.requests.total, 0);
    const seconds = Math.max(...results.map((result) => result.duration));
    // Every acknowledged write's event, delivered (at least once) within a minute.
    const deadline = Date.now() + 60_000;
    const delivered = () => new Set([...receiver.notesByEvent.values()].map((event) => event.notes));
    while ([...acknowledged.keys()].some((notes) => !delivered().has(notes)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    const lostEvents = [...acknowledged.keys()].filter((notes) => !delivered().has(notes)).length;
    // The writes still in flight when the load stopped committed too: give their events a moment.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // Every task written to holds what its last event says (writes still in flight when the
    // load stopped count too: they committed, unacknowledged, and sent their event).
    const latest = new Map();
    for (const event of receiver.notesByEvent.values()) {
      const previous = latest.get(event.taskId);
      if (!previous || event.createdAt > previous.createdAt) latest.set(event.taskId, { createdAt: event.createdAt, notes: [event.notes] });
      else if (event.createdAt === previous.createdAt) previous.notes.push(event.notes);
    }
    let lostWrites = 0;
    for (const owner of owners) {
      const { tasks } = await api(bases[0], owner.key, 'GET', `/api/projects/${owner.projectId}`);
      for (const task of tasks) if (latest.has(task.id) && !latest.get(task.id).notes.includes(task.notes)) lostWrites += 1;
    }
    return {
      reqPerSec: requests / seconds,
      p50Ms: Math.max(...results.map((result) => result.latency.p50)),
      p99Ms: Math.max(...results.map((result) => result.latency.p99)),
      writes: acknowledged.size,
      lostEvents,
      lostWrites,
    };
  } finally {
    for (const process of processes) await process.stop();
    receiver.server.close();
    await store.drop();
  }
}

try {
  const pgReachable = await benchStore(databaseUrl).then(
    (store) => store.drop().then(() => true),
    () => false,
  );
  if (!pgReachable) {
    console.log(`cluster: skipped (PostgreSQL at ${databaseUrl} cannot be reached)`);
  } else {
    const single = await run(1, 0);
    const cluster = await run(2, 2);
    console.log(
      `cluster (2 API nodes + 2 workers, PostgreSQL, ${keyCount} keys, ${Math.round(writeShare * 100)} % writes, ${durationSec} s): ${cluster.reqPerSec.toFixed(0)} req/s, p50 ${cluster.p50Ms} ms, p99 ${cluster.p99Ms} ms; ${cluster.writes} writes acknowledged, ${cluster.lostWrites} lost, ${cluster.lostEvents} events lost`,
    );
    console.log(`single node doing everything (same load, same run): ${single.reqPerSec.toFixed(0)} req/s, p99 ${single.p99Ms} ms; ${single.writes} writes, ${single.lostWrites} lost, ${single.lostEvents} events lost`);
    console.log(
      JSON.stringify({
        clusterReqPerSec: Math.round(cluster.reqPerSec),
        clusterP99Ms: cluster.p99Ms,
        clusterP50Ms: cluster.p50Ms,
        clusterThroughputVsSingleNode: Number((cluster.reqPerSec / single.reqPerSec).toFixed(2)),
        clusterLostWrites: cluster.lostWrites + single.lostWrites,
        clusterLostEvents: cluster.lostEvents + single.lostEvents,
      }),
    );
  }
} catch (error) {
  console.error(error);
  process.exit(1);
}
