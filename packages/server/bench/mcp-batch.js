#!/usr/bin/env node
// One POST /mcp holding a JSON-RPC batch of 50 get_plan calls on a 5,000-task plan, sent
// with a read key (docs/mcp.md › Limits): the bytes it answers, how much the server's
// memory grows while it runs (its peak resident set, counted by the kernel in /proc, which
// a busy event loop cannot delay), and the longest a /healthz poller (a request every
// 20 ms) waits meanwhile. Baselines of the same run: one get_plan call alone (bytes and
// memory), and the poller while the server has nothing else to do. On SQLite only: the
// budget and the answers are built above the store, and the plan is read from the read cache.
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { createPlan, planOf, withGantry } from './support.js';

const calls = 50;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const kilobytes = (pid, field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);

/** POSTs `body` to /mcp with `key` as a 2025-11-25 client; answers the response as text. */
async function mcp(gantry, key, body) {
  const response = await fetch(`${gantry.base}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST /mcp → ${response.status} ${(await response.text()).slice(0, 300)}`);
  return response.text();
}

/**
 * A /healthz poller (a request every 20 ms) on a thread of its own, so that reading the
 * large answers on this thread does not delay it; `stop()` answers its waits (ms).
 */
function startPoller(base) {
  const worker = new Worker(
    `const { parentPort, workerData: base } = require('node:worker_threads');
    let polling = true;
    parentPort.once('message', () => (polling = false));
    (async () => {
      const waits = [];
      while (polling) {
        const started = performance.now();
        await (await fetch(base + '/healthz')).arrayBuffer();
        waits.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      parentPort.postMessage(waits);
    })();`,
    { eval: true, workerData: base },
  );
  return {
    stop: () =>
      new Promise((resolve) => {
        worker.once('message', (waits) => void worker.terminate().then(() => resolve(waits)));
        worker.postMessage('stop');
      }),
  };
}

/**
 * Runs `work` while polling /healthz: its result, the growth of the server's resident set
 * at its peak (MB, from the peak reset just before), and the poller's longest wait.
 */
async function measured(gantry, work) {
  fs.writeFileSync(`/proc/${gantry.pid}/clear_refs`, '5');
  const residentBefore = kilobytes(gantry.pid, 'VmRSS');
  const poller = startPoller(gantry.base);
  const result = await work();
  const waits = await poller.stop();
  return { result, growthMb: (kilobytes(gantry.pid, 'VmHWM') - residentBefore) / 1024, worstWaitMs: Math.max(...waits), polls: waits.length };
}

const figures = await withGantry(undefined, async (gantry) => {
  const { projectId } = await createPlan(gantry, 'Big', planOf(250, 19));
  const { key: readKey } = gantry.cli('key', 'create', '--email', 'bench@example.com', '--scope', 'read');
  const getPlan = (id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_plan', arguments: { projectId } } });
  // Warm-up: the plan serialised into the read cache, the server's code paths compiled.
  await mcp(gantry, readKey, getPlan(1));

  const quiet = await measured(gantry, () => sleep(2000));
  const one = await measured(gantry, () => mcp(gantry, readKey, getPlan(1)));
  const batch = await measured(gantry, () => mcp(gantry, readKey, Array.from({ length: calls }, (_, index) => getPlan(index + 1))));

  const answers = batch.result
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)));
  const refused = answers.filter((answer) => answer.error?.data?.error === 'limit_exceeded').length;
  const bytes = { one: Buffer.byteLength(one.result), batch: Buffer.byteLength(batch.result) };
  console.log(
    `${calls}-call get_plan batch on a 5,000-task plan (read key): ${answers.length - refused} answered, ${refused} refused (limit exceeded); ` +
      `${(bytes.batch / 1e6).toFixed(1)} MB (one call ${(bytes.one / 1e6).toFixed(1)} MB); ` +
      `server memory +${batch.growthMb.toFixed(0)} MB at its peak (one call +${one.growthMb.toFixed(0)} MB); ` +
      `/healthz every 20 ms waited at most ${batch.worstWaitMs.toFixed(0)} ms over ${batch.polls} polls (quiet ${quiet.worstWaitMs.toFixed(0)} ms, one call ${one.worstWaitMs.toFixed(0)} ms)`,
  );
  return { bytes, one, quiet, batch };
});

const round = (value) => Number(value.toFixed(2));
console.log(
  JSON.stringify({
    mcpBatchBytes: figures.bytes.batch,
    mcpBatchBytesOverOneCall: round(figures.bytes.batch / figures.bytes.one),
    mcpBatchHeapMb: round(figures.batch.growthMb),
    mcpBatchHeapOverOneCall: round(figures.batch.growthMb / figures.one.growthMb),
    mcpBatchHealthzWorstMs: round(figures.batch.worstWaitMs),
    mcpBatchHealthzOverQuiet: round(figures.batch.worstWaitMs / figures.quiet.worstWaitMs),
  }),
);
