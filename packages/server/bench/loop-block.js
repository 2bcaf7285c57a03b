#!/usr/bin/env node
// How long one big write holds the server's event loop, on SQLite and PostgreSQL: a valid
// change set of 1,000 changes (600 created tasks and 400 links between them), into an empty plan and into
// a 10,000-task plan, and the import of a 2.6 MB Microsoft Project file (777 tasks), against a
// PATCH of one task in a 10-task plan measured in the same run (alternating), and the first
// full read of the 10,000-task plan after an edit (every task selected and serialised) and
// its export as a Microsoft Project file, and a new project start date (all 10,000 tasks
// saved again). The server runs with a timer probe (loop-probe.js); a request's
// figure is the longest gap between the probe's ticks within its window: the longest time
// every other request on that server had to wait, whatever it wanted.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, onBothStores, post, withGantry } from './support.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const runs = Number(process.env.BENCH_LOOP_RUNS ?? 3);
const epochNow = () => performance.timeOrigin + performance.now();

/**
 * `groups` summaries of `perGroup` tasks each, and FS links between consecutive leaves up to
 * `links` (a change set holds at most 1,000 changes: 600 tasks and 400 links make one).
 */
function changeSet(groups, perGroup, links = 0) {
  const createTasks = [];
  const createDependencies = [];
  let previous = null;
  for (let group = 0; group < groups; group++) {
    const summaryId = randomUUID();
    createTasks.push({ id: summaryId, name: `Phase ${group + 1}` });
    for (let i = 0; i < perGroup; i++) {
      const id = randomUUID();
      createTasks.push({ id, name: `Task ${group + 1}.${i + 1}`, parentId: summaryId, durationMin: 240 + ((group * perGroup + i) % 7) * 120 });
      if (previous && createDependencies.length < links) createDependencies.push({ predecessorId: previous, successorId: id, type: 'FS', lagMin: 0 });
      previous = id;
    }
  }
  return { createTasks, createDependencies };
}

/**
 * A 2.6 MB Microsoft Project file: the largest fixture's tasks seven times over, numbered
 * anew (parsing is what an import's size costs; the file's dates do not matter here).
 */
function bigMspdi() {
  const xml = fs.readFileSync(path.join(here, '../../engine/test/golden/mspdi/task-durations-project2019-mspdi.xml'), 'utf8');
  const tasks = /<Tasks>([\s\S]*)<\/Tasks>/.exec(xml)[1];
  let uid = 0;
  return xml.replace(tasks, tasks.repeat(7)).replace(/<UID>\d+<\/UID>/g, () => `<UID>${++uid}</UID>`);
}

async function newProject(gantry, name) {
  return (await post(gantry, '/api/projects', { name, startDate: '2026-03-02' })).json.project.id;
}

/** Sends one request and notes its window in epoch milliseconds under `label`. */
async function timed(windows, label, gantry, urlPath, body, method) {
  const started = epochNow();
  const result = await post(gantry, urlPath, body, method);
  windows.push({ label, from: started, to: epochNow() });
  return result;
}

function run(label, url) {
  const probeFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-loop-')), 'gaps.json');
  const windows = [];
  const mspdi = bigMspdi();
  return withGantry(
    url,
    async (gantry) => {
      const bigId = await newProject(gantry, 'Big');
      for (let i = 0; i < 10; i++) await post(gantry, `/api/projects/${bigId}/tasks`, changeSet(50, 19));
      const smallId = await newProject(gantry, 'Small');
      const small = changeSet(1, 9);
      await post(gantry, `/api/projects/${smallId}/tasks`, small);
      const smallLeaves = small.createTasks.filter((t) => t.parentId).map((t) => t.id);
      const patchSmall = async (i) =>
        timed(windows, 'patch10', gantry, `/api/projects/${smallId}/tasks/${smallLeaves[i % smallLeaves.length]}`, { durationMin: 240 + (i % 5) * 120 }, 'PATCH');
      for (let i = 0; i < 5; i++) await post(gantry, `/api/projects/${smallId}/tasks/${smallLeaves[i]}`, { durationMin: 300 }, 'PATCH'); // warm-up
      for (let r = 0; r < runs; r++) {
        for (let i = 0; i < 10; i++) await patchSmall(r * 10 + i);
        const emptyId = await newProject(gantry, `Empty ${r}`);
        await timed(windows, 'empty', gantry, `/api/projects/${emptyId}/tasks`, changeSet(30, 19, 400));
        for (let i = 0; i < 10; i++) await patchSmall(r * 10 + i + 5);
        await timed(windows, 'big', gantry, `/api/projects/${bigId}/tasks`, changeSet(30, 19, 400));
        for (let i = 0; i < 10; i++) await patchSmall(r * 10 + i + 10);
        await timed(windows, 'import', gantry, '/api/projects/import', { format: 'mspdi', data: mspdi, name: `Imported ${r}` });
        for (let i = 0; i < 10; i++) await patchSmall(r * 10 + i + 15);
        // A new start date moves every task: all 10,000 rows are saved again in one transaction.
        await timed(windows, 'shift', gantry, `/api/projects/${bigId}`, { startDate: r % 2 === 0 ? '2026-03-09' : '2026-03-02' }, 'PATCH');
        for (let i = 0; i < 10; i++) await patchSmall(r * 10 + i + 25);
        // A project edit moves the read version: the next full read selects and serialises all 10,000 tasks.
        await post(gantry, `/api/projects/${bigId}`, { description: `Edited ${r}` }, 'PATCH');
        await timed(windows, 'read', gantry, `/api/projects/${bigId}`, undefined, 'GET');
        for (let i = 0; i < 10; i++) await patchSmall(r * 10 + i + 20);
        const exportStarted = epochNow();
        const exported = await fetch(`${gantry.base}/api/projects/${bigId}/export?format=mspdi`, { headers: gantry.headers });
        if (!exported.ok || (await exported.text()).length < 1_000_000) throw new Error(`export → ${exported.status}`);
        windows.push({ label: 'export', from: exportStarted, to: epochNow() });
      }
    },
    { env: { LOOP_PROBE_FILE: probeFile }, nodeArgs: ['--import', path.join(here, 'loop-probe.js')] },
  ).then(() => {
    const gaps = JSON.parse(fs.readFileSync(probeFile, 'utf8'));
    // Beside a CPU profile, the gaps tell which samples fell in the longest blocks.
    if (process.env.BENCH_CPU_PROF_DIR) fs.copyFileSync(probeFile, path.join(process.env.BENCH_CPU_PROF_DIR, `loop-gaps-${label}.json`));
    fs.rmSync(path.dirname(probeFile), { recursive: true, force: true });
    // A gap [end - length, end] counts for a window it overlaps: its wall time, and the CPU
    // time the server used in it (less sensitive to other processes on a shared machine).
    const longest = (w, index) => Math.max(0, ...gaps.filter(([end, length]) => end - length < w.to && end > w.from).map((gap) => gap[index]));
    const of = (kind, index) => windows.filter((w) => w.label === kind).map((w) => longest(w, index));
    const figures = {};
    for (const [suffix, index] of [['', 1], ['Cpu', 2]]) {
      figures[`patch10${suffix}`] = median(of('patch10', index));
      figures[`empty${suffix}`] = median(of('empty', index));
      figures[`big${suffix}`] = median(of('big', index));
      figures[`changeSet${suffix}`] = Math.max(figures[`empty${suffix}`], figures[`big${suffix}`]);
      figures[`import${suffix}`] = median(of('import', index));
      figures[`read${suffix}`] = median(of('read', index));
      figures[`export${suffix}`] = median(of('export', index));
      figures[`shift${suffix}`] = median(of('shift', index));
    }
    console.log(
      `${label}: longest event-loop block — 1,000-change set (600 tasks, 400 links) into an empty plan ${figures.empty.toFixed(1)} ms, into a 10,000-task plan ${figures.big.toFixed(1)} ms ` +
        `(medians of ${runs}); PATCH in a 10-task plan ${figures.patch10.toFixed(1)} ms; ratio ${(figures.changeSet / figures.patch10).toFixed(1)}; ` +
        `CPU time in the longest block ${figures.emptyCpu.toFixed(1)} / ${figures.bigCpu.toFixed(1)} / ${figures.patch10Cpu.toFixed(1)} ms; ` +
        `import of a 2.6 MB Microsoft Project file ${figures.import.toFixed(1)} ms (CPU ${figures.importCpu.toFixed(1)} ms); ` +
        `first full read of the 10,000-task plan after an edit ${figures.read.toFixed(1)} ms (CPU ${figures.readCpu.toFixed(1)} ms); ` +
        `its Microsoft Project export ${figures.export.toFixed(1)} ms (CPU ${figures.exportCpu.toFixed(1)} ms); ` +
        `a new start date moving all 10,000 tasks ${figures.shift.toFixed(1)} ms (CPU ${figures.shiftCpu.toFixed(1)} ms)`,
    );
    return figures;
  });
}

const { sqlite, postgres } = await onBothStores(run);
const round = (value) => (value === undefined || value === null ? null : Number(value.toFixed(1)));
console.log(
  JSON.stringify({
    changeSet1000LoopBlockMaxMs: round(sqlite.changeSet),
    changeSet1000LoopBlockOverPatch10: round(sqlite.changeSet / sqlite.patch10),
    changeSet1000LoopBlockMaxMsPostgres: round(postgres?.changeSet),
    changeSet1000LoopBlockOverPatch10Postgres: round(postgres && postgres.changeSet / postgres.patch10),
    changeSet1000LoopBlockCpuMs: round(sqlite.changeSetCpu),
    changeSet1000LoopBlockCpuMsPostgres: round(postgres?.changeSetCpu),
    mspdiImport2600kbLoopBlockMaxMs: round(sqlite.import),
    mspdiImport2600kbLoopBlockOverPatch10: round(sqlite.import / sqlite.patch10),
    mspdiImport2600kbLoopBlockMaxMsPostgres: round(postgres?.import),
    uncachedRead10kLoopBlockMaxMs: round(sqlite.read),
    uncachedRead10kLoopBlockOverPatch10: round(sqlite.read / sqlite.patch10),
    uncachedRead10kLoopBlockMaxMsPostgres: round(postgres?.read),
    mspdiExport10kLoopBlockMaxMs: round(sqlite.export),
    mspdiExport10kLoopBlockMaxMsPostgres: round(postgres?.export),
    reschedule10kLoopBlockMaxMs: round(sqlite.shift),
    reschedule10kLoopBlockMaxMsPostgres: round(postgres?.shift),
  }),
);
