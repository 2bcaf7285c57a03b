// Benchmarks for @gantry/engine. Plain ESM over the built dist/ (run `tsc -b` first).
// Prints human-readable figures, then as its LAST line one JSON object with
// engineFull10kMs, engineFull100kMs, engineIncremental10kMs and engineFloorRatio10k.
// With `--pairs` it only measures the paired 10k runs and prints them as JSON: the bench
// runs itself that way in fresh processes (see PROCESSES).
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { schedule, Scheduler } from '../dist/index.js';

/** Deterministic PRNG (mulberry32) so every run schedules the same plans. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A plan of `n` tasks (1 summary per 20 tasks), 1.5 links per task between nearby leaves
 * (80% FS, some SS/FF/SF, some lags and leads), ~3% date constraints, 2% milestones,
 * the default (Standard) calendar.
 */
function makePlan(n, seed = 42) {
  const r = rng(seed);
  const tasks = [];
  const leaves = [];
  let summary = null;
  for (let i = 0; i < n; i++) {
    const id = `t${String(i).padStart(6, '0')}`;
    if (i % 20 === 0) {
      summary = id;
      tasks.push({ id, name: `Phase ${i / 20}`, type: 'summary', parentId: null, durationMin: 0 });
      continue;
    }
    const t = { id, key: `P-${i}`, name: `Task ${i}`, parentId: summary, type: 'task', durationMin: 60 * (1 + Math.floor(r() * 40)) };
    const x = r();
    if (x < 0.02) {
      t.type = 'milestone';
      t.durationMin = 0;
    } else if (x < 0.035) {
      t.constraintKind = 'start_no_earlier_than';
      t.constraintDate = new Date(Date.UTC(2026, 2, 2 + Math.floor(r() * 200), 8)).toISOString();
    } else if (x < 0.045) {
      t.constraintKind = 'finish_no_later_than';
      t.constraintDate = new Date(Date.UTC(2026, 2, 2 + Math.floor(r() * 400), 17)).toISOString();
    } else if (x < 0.05) {
      t.deadline = new Date(Date.UTC(2026, 2, 2 + Math.floor(r() * 400), 17)).toISOString();
    }
    tasks.push(t);
    leaves.push(id);
  }
  const deps = [];
  const L = leaves.length;
  const want = Math.round(n * 1.5);
  for (let k = 0; deps.length < want; k++) {
    const b = 1 + Math.floor(r() * (L - 1));
    const a = Math.max(0, b - 1 - Math.floor(r() * 60));
    const y = r();
    const type = y < 0.8 ? 'FS' : y < 0.9 ? 'SS' : y < 0.97 ? 'FF' : 'SF';
    const lagMin = r() < 0.8 ? 0 : Math.floor((r() - 0.3) * 960);
    deps.push({ id: `d${k}`, predecessorId: leaves[a], successorId: leaves[b], type, lagMin });
  }
  return { project: { startAt: '2026-03-02T08:00:00.000Z', scheduleFrom: 'forward' }, calendars: [], tasks, dependencies: deps };
}

/**
 * The same plan with random UUIDs as ids (as Gantry's tasks have), tasks in id order (as
 * the server reads them): ids then say nothing about the plan's order in time.
 */
function withUuidIds(plan, seed = 11) {
  const r = rng(seed);
  const hex = (k) => Array.from({ length: k }, () => Math.floor(r() * 16).toString(16)).join('');
  const uuid = new Map(plan.tasks.map((t) => [t.id, `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`]));
  const tasks = plan.tasks
    .map((t) => ({ ...t, id: uuid.get(t.id), parentId: t.parentId === null ? null : uuid.get(t.parentId) }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  const dependencies = plan.dependencies.map((d) => ({ ...d, predecessorId: uuid.get(d.predecessorId), successorId: uuid.get(d.successorId) }));
  return { ...plan, tasks, dependencies };
}

/**
 * The floor: the same network through a bare CPM on integer minutes (no calendar, no
 * summaries, no constraints): id map, CSR, Kahn topological sort, forward and backward
 * pass, total float, one output object per task.
 */
function bareCpm(input) {
  const n = input.tasks.length;
  const index = new Map();
  for (let i = 0; i < n; i++) index.set(input.tasks[i].id, i);
  const dur = new Float64Array(n);
  for (let i = 0; i < n; i++) dur[i] = input.tasks[i].durationMin ?? 0;
  const m = input.dependencies.length;
  const src = new Int32Array(m);
  const dst = new Int32Array(m);
  const typ = new Int8Array(m);
  const lag = new Float64Array(m);
  const codes = { FS: 0, SS: 1, FF: 2, SF: 3 };
  const outStart = new Int32Array(n + 1);
  const inStart = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    const d = input.dependencies[e];
    src[e] = index.get(d.predecessorId);
    dst[e] = index.get(d.successorId);
    typ[e] = codes[d.type];
    lag[e] = d.lagMin;
    outStart[src[e] + 1]++;
    inStart[dst[e] + 1]++;
  }
  for (let v = 0; v < n; v++) {
    outStart[v + 1] += outStart[v];
    inStart[v + 1] += inStart[v];
  }
  const outE = new Int32Array(m);
  const inE = new Int32Array(m);
  const oc = outStart.slice(0, n);
  const ic = inStart.slice(0, n);
  for (let e = 0; e < m; e++) {
    outE[oc[src[e]]++] = e;
    inE[ic[dst[e]]++] = e;
  }
  const indeg = new Int32Array(n);
  for (let v = 0; v < n; v++) indeg[v] = inStart[v + 1] - inStart[v];
  const topo = new Int32Array(n);
  let h = 0;
  let t = 0;
  for (let v = 0; v < n; v++) if (indeg[v] === 0) topo[t++] = v;
  while (h < t) {
    const v = topo[h++];
    for (let k = outStart[v]; k < outStart[v + 1]; k++) if (--indeg[dst[outE[k]]] === 0) topo[t++] = dst[outE[k]];
  }
  const es = new Float64Array(n);
  const ef = new Float64Array(n);
  let pf = 0;
  for (let k = 0; k < t; k++) {
    const v = topo[k];
    let s = 0;
    for (let q = inStart[v]; q < inStart[v + 1]; q++) {
      const e = inE[q];
      const u = src[e];
      const c = typ[e] === 0 ? ef[u] + lag[e] : typ[e] === 1 ? es[u] + lag[e] : typ[e] === 2 ? ef[u] + lag[e] - dur[v] : es[u] + lag[e] - dur[v];
      if (c > s) s = c;
    }
    es[v] = s;
    ef[v] = s + dur[v];
    if (ef[v] > pf) pf = ef[v];
  }
  const ls = new Float64Array(n);
  const lf = new Float64Array(n);
  for (let k = t - 1; k >= 0; k--) {
    const v = topo[k];
    let f = pf;
    for (let q = outStart[v]; q < outStart[v + 1]; q++) {
      const e = outE[q];
      const x = dst[e];
      const c = typ[e] === 0 ? ls[x] - lag[e] : typ[e] === 1 ? ls[x] - lag[e] + dur[v] : typ[e] === 2 ? lf[x] - lag[e] : lf[x] - lag[e] + dur[v];
      if (c < f) f = c;
    }
    lf[v] = f;
    ls[v] = f - dur[v];
  }
  const out = new Array(n);
  for (let v = 0; v < n; v++) {
    const tf = Math.min(ls[v] - es[v], lf[v] - ef[v]);
    out[v] = { id: input.tasks[v].id, es: es[v], ef: ef[v], ls: ls[v], lf: lf[v], totalFloat: tf, critical: tf <= 0 };
  }
  return out;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const k = s.length >> 1;
  return s.length % 2 ? s[k] : (s[k - 1] + s[k]) / 2;
}

function time(fn, runs, warmup) {
  for (let i = 0; i < warmup; i++) fn(i);
  const xs = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn(i);
    xs.push(performance.now() - t0);
  }
  return median(xs);
}

const round = (x) => Math.round(x * 1000) / 1000;

const plan10k = makePlan(10_000);

// Warm-up runs (not measured) let the JIT finish optimising before timing: the engine's
// code is larger than the floor's and needs ~15-20 runs before it stops recompiling, so both
// get 25 warm-up runs. Then engine and floor run 41 times in pairs, back to back, so both
// see the same machine load; the ratio is the median of the pairs' ratios (the times are
// the medians of each side).
const WARMUP = 25;
function pairs(plan) {
  for (let i = 0; i < WARMUP; i++) {
    schedule(plan);
    bareCpm(plan);
  }
  const engineTimes = [];
  const floorTimes = [];
  for (let i = 0; i < 41; i++) {
    let t0 = performance.now();
    schedule(plan);
    engineTimes.push(performance.now() - t0);
    t0 = performance.now();
    bareCpm(plan);
    floorTimes.push(performance.now() - t0);
  }
  return { engine: median(engineTimes), floor: median(floorTimes), ratio: median(engineTimes.map((t, i) => t / floorTimes[i])) };
}

// The paired 10k runs happen in fresh processes (`--pairs`): V8 compiles the engine a
// little differently in each process (what it inlines, when it replaces a running loop),
// which moves one process's ratio by up to ±8 %. The figures are the medians over
// PROCESSES processes, run one after the other.
if (process.argv[2] === '--pairs') {
  console.log(JSON.stringify({ plan10k: pairs(plan10k), uuid10k: pairs(withUuidIds(plan10k)) }));
  process.exit(0);
}
const PROCESSES = 5;
const samples = [];
for (let k = 0; k < PROCESSES; k++) {
  samples.push(JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--pairs'], { encoding: 'utf8' })));
}
const across = (plan) => ({
  engine: median(samples.map((s) => s[plan].engine)),
  floor: median(samples.map((s) => s[plan].floor)),
  ratio: median(samples.map((s) => s[plan].ratio)),
  ratios: samples.map((s) => s[plan].ratio),
});
const { engine: full10k, floor: floor10k, ratio: floorRatio, ratios: processRatios } = across('plan10k');
const uuid10k = across('uuid10k');

const check = schedule(plan10k);
console.log(`plan 10k: ${plan10k.tasks.length} tasks, ${plan10k.dependencies.length} links, ${check.conflicts.length} conflicts, ${check.cycles.length} cycles, finish ${check.projectFinishAt}`);

// Incremental: a single task's duration edit on the 10k plan, alternating two values. As
// in a server, full runs come first (they optimise the per-node code both paths share);
// then the incremental path gets its own warm-up (the rest of it is other code).
for (let i = 0; i < WARMUP; i++) schedule(plan10k);
const scheduler = new Scheduler(plan10k);
const editIdx = plan10k.tasks.findIndex((t, i) => i > 5000 && t.type === 'task' && !t.constraintKind);
const variants = [0, 1].map((k) => {
  const tasks = plan10k.tasks.slice();
  tasks[editIdx] = { ...tasks[editIdx], durationMin: (plan10k.tasks[editIdx].durationMin ?? 0) + (k ? 120 : 0) };
  return { ...plan10k, tasks };
});
const editId = plan10k.tasks[editIdx].id;
let lastRecomputed = 0;
const inc10k = time(
  (i) => {
    const r = scheduler.update(variants[(i + 1) % 2], { changedTaskIds: [editId] });
    lastRecomputed = r.stats.recomputedCount;
  },
  41,
  WARMUP,
);

// The 100k plan is built only after the 10k figures so its heap does not slow them down.
let plan100k = makePlan(100_000, 7);
const full100k = time(() => schedule(plan100k), 7, 2);
plan100k = null;

console.log(`full reschedule 10k tasks / 15k links: ${round(full10k)} ms median (target ≤ 25)`);
console.log(`full reschedule 100k tasks / 150k links: ${round(full100k)} ms median (target ≤ 400)`);
console.log(`incremental single-task edit on 10k: ${round(inc10k)} ms median, ${lastRecomputed} tasks recomputed (target ≤ 2)`);
console.log(
  `bare integer-minute CPM floor 10k: ${round(floor10k)} ms median; engine/floor = ${round(floorRatio)} (median over ${PROCESSES} processes of their paired runs' median: ${processRatios.map(round).join(', ')}; target ≤ 3)`,
);
console.log(`the same 10k plan with UUIDs as ids, in id order: ${round(uuid10k.engine)} ms median, floor ${round(uuid10k.floor)} ms, engine/floor = ${round(uuid10k.ratio)} (informative)`);
console.log(
  JSON.stringify({
    engineFull10kMs: round(full10k),
    engineFull100kMs: round(full100k),
    engineIncremental10kMs: round(inc10k),
    engineFloorRatio10k: round(floorRatio),
  }),
);
