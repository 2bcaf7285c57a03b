#!/usr/bin/env node
// End-to-end planning writes over HTTP, on SQLite and on PostgreSQL: PATCH of one task in
// a 1,000-task project (validation, recalculation, persistence, outbox) and a change set
// creating 1,000 tasks. Latencies are measured by the client, request to response.
import { randomUUID } from 'node:crypto';
import { median, onBothStores, percentile, post, withGantry } from './support.js';

const patches = Number(process.env.BENCH_PATCHES ?? 100);
const changeSetRuns = Number(process.env.BENCH_CHANGESET_RUNS ?? 3);

/** 1,000 tasks in 50 summaries of 19, and FS links chaining them inside and across summaries (added separately). */
function thousandTaskChangeSet() {
  const createTasks = [];
  const createDependencies = [];
  let previous = null;
  for (let group = 0; group < 50; group++) {
    const summaryId = randomUUID();
    createTasks.push({ id: summaryId, name: `Phase ${group + 1}` });
    for (let i = 0; i < 19; i++) {
      const id = randomUUID();
      createTasks.push({ id, name: `Task ${group + 1}.${i + 1}`, parentId: summaryId, durationMin: 240 + ((group * 19 + i) % 7) * 120 });
      if (previous && i % 3 !== 1) createDependencies.push({ predecessorId: previous, successorId: id, type: 'FS', lagMin: 0 });
      previous = id;
    }
  }
  return { createTasks, createDependencies };
}

function run(label, url) {
  return withGantry(url, async (gantry) => {
    const changeSetMs = [];
    let projectId;
    let taskIds = [];
    for (let runIndex = 0; runIndex < changeSetRuns; runIndex++) {
      const { json } = await post(gantry, '/api/projects', { name: `Bench ${runIndex}`, startDate: '2026-03-02' });
      projectId = json.project.id;
      const { createTasks, createDependencies } = thousandTaskChangeSet();
      const { elapsed, json: result } = await post(gantry, `/api/projects/${projectId}/tasks`, { createTasks });
      if (result.stats.taskCount !== 1000) throw new Error(`expected 1000 tasks, got ${result.stats.taskCount}`);
      changeSetMs.push(elapsed);
      await post(gantry, `/api/projects/${projectId}/dependencies`, { dependencies: createDependencies });
      taskIds = createTasks.filter((t) => t.parentId).map((t) => t.id);
    }
    const patchMs = [];
    for (let i = 0; i < patches + 5; i++) {
      const taskId = taskIds[(i * 37) % taskIds.length];
      const { elapsed } = await post(gantry, `/api/projects/${projectId}/tasks/${taskId}`, { durationMin: 240 + (i % 5) * 120 }, 'PATCH');
      if (i >= 5) patchMs.push(elapsed);
    }
    const figures = { patchP50: median(patchMs), patchP95: percentile(patchMs, 95), changeSet: median(changeSetMs) };
    console.log(`${label}: PATCH in a 1,000-task project p50 ${figures.patchP50.toFixed(1)} ms, p95 ${figures.patchP95.toFixed(1)} ms (${patches} requests); 1,000-create change set ${figures.changeSet.toFixed(0)} ms (median of ${changeSetRuns})`);
    return figures;
  });
}

const { sqlite, postgres } = await onBothStores(run);
const round = (value) => (value === undefined ? null : Number(value.toFixed(1)));
console.log(
  JSON.stringify({
    patch1kP50MsSqlite: round(sqlite.patchP50),
    changeSet1000MsSqlite: round(sqlite.changeSet),
    patch1kP50MsPostgres: round(postgres?.patchP50),
    changeSet1000MsPostgres: round(postgres?.changeSet),
  }),
);
