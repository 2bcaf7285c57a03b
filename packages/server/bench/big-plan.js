#!/usr/bin/env node
// Writes and reads on a 10,000-task plan, end to end over HTTP, on SQLite and PostgreSQL:
// PATCH of one task (p50), the full-plan GET right after a write (nothing cached for that
// version), and a change set of 1,000 edits. Each store also answers the same PATCH on a
// 10-task plan in the same run: the ratio says how much the cost of a small edit still
// grows with the plan (1.0 = not at all).
import { createPlan, median, onBothStores, planOf, post, withGantry } from './support.js';

const patches = Number(process.env.BENCH_PATCHES ?? 60);
const changeSetRuns = Number(process.env.BENCH_CHANGESET_RUNS ?? 3);
const batch = 1000;

/** PATCHes of one task's duration (after 5 warm-ups); with `read`, a full-plan GET after each. */
async function patchRun(gantry, { projectId, leafIds }, read) {
  const patchMs = [];
  const getMs = [];
  for (let i = 0; i < patches + 5; i++) {
    const taskId = leafIds[(i * 37) % leafIds.length];
    const { elapsed } = await post(gantry, `/api/projects/${projectId}/tasks/${taskId}`, { durationMin: 240 + (i % 5) * 120 }, 'PATCH');
    const got = read ? await post(gantry, `/api/projects/${projectId}`, undefined, 'GET') : null;
    if (i < 5) continue;
    patchMs.push(elapsed);
    if (got) getMs.push(got.elapsed);
  }
  return { patchP50: median(patchMs), getP50: read ? median(getMs) : null };
}

function run(label, url) {
  return withGantry(url, async (gantry) => {
    const big = await createPlan(gantry, 'Big', planOf(500, 19));
    const small = await createPlan(gantry, 'Small', planOf(1, 9));
    // Alternate small and big runs so that machine noise hits both alike.
    const smallFirst = await patchRun(gantry, small, false);
    const bigRun = await patchRun(gantry, big, true);
    const smallAgain = await patchRun(gantry, small, false);
    const smallP50 = (smallFirst.patchP50 + smallAgain.patchP50) / 2;

    const changeSetMs = [];
    for (let r = 0; r < changeSetRuns; r++) {
      const updateTasks = big.leafIds.slice(r * batch, (r + 1) * batch).map((id, i) => ({ id, durationMin: 300 + ((i + r) % 4) * 60 }));
      changeSetMs.push((await post(gantry, `/api/projects/${big.projectId}/tasks`, { updateTasks })).elapsed);
    }
    const figures = { patchP50: bigRun.patchP50, getP50: bigRun.getP50, smallP50, changeSet: median(changeSetMs) };
    console.log(
      `${label}: 10,000-task plan — PATCH p50 ${figures.patchP50.toFixed(1)} ms (10-task plan ${smallP50.toFixed(1)} ms, ratio ${(figures.patchP50 / smallP50).toFixed(2)}), ` +
        `full GET after a write p50 ${figures.getP50.toFixed(1)} ms, 1,000-edit change set ${figures.changeSet.toFixed(0)} ms (median of ${changeSetRuns})`,
    );
    return figures;
  });
}

const { sqlite, postgres } = await onBothStores(run);
const round = (value) => (value === undefined || value === null ? null : Number(value.toFixed(2)));
console.log(
  JSON.stringify({
    patch10kP50MsSqlite: round(sqlite.patchP50),
    patch10kP50MsPostgres: round(postgres?.patchP50),
    patch10kOverSmallPlanSqlite: round(sqlite.patchP50 / sqlite.smallP50),
    patch10kOverSmallPlanPostgres: round(postgres && postgres.patchP50 / postgres.smallP50),
    getPlan10kMs: round(sqlite.getP50),
    getPlan10kMsPostgres: round(postgres?.getP50),
    changeSet1000In10kMs: round(sqlite.changeSet),
    changeSet1000In10kMsPostgres: round(postgres?.changeSet),
  }),
);
