import { toIsoString } from './instant.js';
import { K_BEFORE_START, K_DEADLINE, K_LINK, K_MANUAL, NEG, POS, type ScheduleState } from './state.js';
import type { Conflict, ScheduleResult, TaskResult } from './types.js';

/**
 * Turns the state into the result: a row per recomputed task (full runs: every task),
 * compared with the previous row to list the tasks that changed, then the project span
 * and the conflicts, which are cheap enough to list again on every run.
 */
export function buildResult(st: ScheduleState, prev: ScheduleResult | null, full: boolean): ScheduleResult {
  const net = st.net;
  const n = net.n;
  // A full run compares with the previous result's row of the same id: at the same index
  // when the task set did not change, else found through a map built on first need.
  let prevById: Map<string, TaskResult> | null = null;
  const previousRow = (i: number, id: string): TaskResult | undefined => {
    const p = prev!.tasks[i];
    if (p && p.id === id) return p;
    prevById ??= new Map(prev!.tasks.map((r) => [r.id, r]));
    return prevById.get(id);
  };
  // Without a previous result every task is new.
  const changed: string[] = full && !prev ? net.ids.slice() : [];
  let recomputed = 0;
  // The previous result owns the current rows array: copy before changing it in place.
  if (!full) st.rows = st.rows.slice();
  const rows = st.rows;
  for (let i = 0; i < n; i++) {
    if (!full && !st.touched[i] && !st.dirtyT[i]) continue;
    recomputed++;
    const row = makeRow(st, i);
    const old = full ? (prev ? previousRow(i, row.id) : null) : rows[i];
    rows[i] = row;
    if (old !== null && (!old || !sameRow(old, row))) changed.push(row.id);
  }
  st.dirtyT.fill(0);
  st.touched.fill(0);
  let pStart = POS;
  let pFinish = NEG;
  for (let i = 0; i < n; i++) {
    if (net.isSummary[i]) continue;
    if (st.start[i]! < pStart) pStart = st.start[i]!;
    if (st.finish[i]! > pFinish) pFinish = st.finish[i]!;
  }
  const conflicts: Conflict[] = [];
  for (let i = 0; i < n; i++) {
    const bits = st.conflictBits[i]!;
    if (bits) addConflicts(st, i, bits, conflicts);
  }
  return {
    tasks: rows,
    conflicts,
    cycles: net.cycles.slice(),
    projectStartAt: Number.isFinite(pStart) ? toIsoString(pStart) : null,
    projectFinishAt: Number.isFinite(pFinish) ? toIsoString(pFinish) : null,
    stats: { taskCount: n, recomputedCount: recomputed },
    changedTaskIds: changed,
  };
}

function addConflicts(st: ScheduleState, i: number, bits: number, out: Conflict[]): void {
  const net = st.net;
  const id = net.ids[i]!;
  const name = net.tasks[i]!.name ?? net.tasks[i]!.key ?? id;
  const startAt = toIsoString(st.start[i]!);
  const finishAt = toIsoString(st.finish[i]!);
  const dep = st.linkDep[i]! >= 0 ? net.deps[st.linkDep[i]!]!.id : undefined;
  if (bits & K_LINK) {
    const c: Conflict = {
      kind: 'constraint_vs_link',
      taskId: id,
      message: `Constraint on "${name}" schedules it before its predecessors allow (${toIsoString(st.linkReq[i]!)}).`,
      requiredStartAt: toIsoString(st.linkReq[i]!),
      startAt,
      finishAt,
    };
    if (dep !== undefined) c.dependencyId = dep;
    if (Number.isFinite(net.cdate[i]!)) c.constraintDate = toIsoString(net.cdate[i]!);
    out.push(c);
  }
  if (bits & K_MANUAL) {
    const c: Conflict = {
      kind: 'manual_vs_link',
      taskId: id,
      message: `Manually scheduled "${name}" starts before its predecessors allow (${toIsoString(st.linkReq[i]!)}).`,
      requiredStartAt: toIsoString(st.linkReq[i]!),
      startAt,
      finishAt,
    };
    if (dep !== undefined) c.dependencyId = dep;
    out.push(c);
  }
  if (bits & K_BEFORE_START) {
    const c: Conflict = {
      kind: 'before_project_start',
      taskId: id,
      message: `"${name}" is scheduled before the project start.`,
      requiredStartAt: toIsoString(st.projectStartEff),
      startAt,
      finishAt,
    };
    if (Number.isFinite(net.cdate[i]!)) c.constraintDate = toIsoString(net.cdate[i]!);
    out.push(c);
  }
  if (bits & K_DEADLINE) {
    out.push({
      kind: 'deadline_missed',
      taskId: id,
      message: `"${name}" finishes after its deadline.`,
      startAt,
      finishAt,
      deadline: toIsoString(net.deadline[i]!),
    });
  }
}

function makeRow(st: ScheduleState, i: number): TaskResult {
  const net = st.net;
  const sum = net.isSummary[i] === 1;
  const es = sum ? st.sumES[i]! : st.es[i]!;
  const ef = sum ? st.sumEF[i]! : st.ef[i]!;
  const ls = sum ? st.sumLS[i]! : st.ls[i]!;
  const lf = sum ? st.sumLF[i]! : st.lf[i]!;
  let duration = net.dur[i]!;
  let progress = net.progress[i]!;
  let actualStart = net.actualStart[i]!;
  let actualFinish = net.actualFinish[i]!;
  if (sum) {
    duration = net.cals[i]!.workBetween(st.start[i]!, st.finish[i]!);
    ({ progress, actualStart, actualFinish } = summaryActuals(st, i));
  }
  // Most dates coincide (start = early start, …): reuse their strings.
  const start = st.start[i]!;
  const finish = st.finish[i]!;
  const sStart = iso(start);
  const sFinish = finish === start ? sStart : iso(finish);
  const sEs = es === start ? sStart : iso(es);
  const sEf = ef === finish ? sFinish : ef === es ? sEs : iso(ef);
  const sLs = ls === es ? sEs : ls === start ? sStart : iso(ls);
  const sLf = lf === ef ? sEf : lf === finish ? sFinish : iso(lf);
  return {
    id: net.ids[i]!,
    startAt: sStart,
    finishAt: sFinish,
    earlyStartAt: sEs,
    earlyFinishAt: sEf,
    lateStartAt: sLs,
    lateFinishAt: sLf,
    totalFloatMin: Math.round(st.tf[i]!) || 0,
    freeFloatMin: Math.round(st.ff[i]!) || 0,
    isCritical: st.crit[i] === 1,
    durationMin: duration,
    isSummary: sum,
    isMilestone: !sum && net.milestone[i] === 1,
    pertDurationMin: Number.isFinite(net.pert[i]!) ? net.pert[i]! : null,
    progressPct: Math.round(progress * 100) / 100,
    actualStartAt: Number.isFinite(actualStart) ? toIsoString(actualStart) : null,
    actualFinishAt: Number.isFinite(actualFinish) ? toIsoString(actualFinish) : null,
  };
}

/**
 * What a summary rolls up from its leaf descendants, as Microsoft Project does: progress
 * (Σ actual duration ÷ Σ duration), the earliest actual start, and — once every leaf is
 * complete — the latest actual finish (a leaf completed without one: its finish).
 */
function summaryActuals(st: ScheduleState, s: number): { progress: number; actualStart: number; actualFinish: number } {
  const net = st.net;
  let a = 0;
  let d = 0;
  let open = false;
  let actualStart = Infinity;
  let actualFinish = -Infinity;
  let allComplete = true;
  const stack = [s];
  while (stack.length) {
    const v = stack.pop()!;
    for (const c of net.children[v]!) {
      if (net.isSummary[c]) stack.push(c);
      else {
        a += net.actualDur[c]!;
        d += net.dur[c]!;
        if (net.dur[c]! > 0 && !net.complete[c]) open = true;
        if (net.started[c] && net.actualStart[c]! < actualStart) actualStart = net.actualStart[c]!;
        if (!net.complete[c]) allComplete = false;
        else actualFinish = Math.max(actualFinish, Number.isFinite(net.actualFinish[c]!) ? net.actualFinish[c]! : st.finish[c]!);
      }
    }
  }
  const pct = d > 0 ? (100 * a) / d : 0;
  return {
    // Actual minutes are whole: a 99.99 % subtask may count its full duration as done.
    progress: open && pct > 99.99 ? 99.99 : pct,
    actualStart,
    actualFinish: allComplete && Number.isFinite(actualStart) ? actualFinish : NaN,
  };
}

/** An instant's ISO string; '' for an unbounded date. */
function iso(t: number): string {
  return Number.isFinite(t) ? toIsoString(t) : '';
}

/** True when two task results carry the same computed values. */
export function sameRow(a: TaskResult, b: TaskResult): boolean {
  return (
    a.startAt === b.startAt &&
    a.finishAt === b.finishAt &&
    a.earlyStartAt === b.earlyStartAt &&
    a.earlyFinishAt === b.earlyFinishAt &&
    a.lateStartAt === b.lateStartAt &&
    a.lateFinishAt === b.lateFinishAt &&
    a.totalFloatMin === b.totalFloatMin &&
    a.freeFloatMin === b.freeFloatMin &&
    a.isCritical === b.isCritical &&
    a.durationMin === b.durationMin &&
    a.progressPct === b.progressPct &&
    a.actualStartAt === b.actualStartAt &&
    a.actualFinishAt === b.actualFinishAt &&
    a.pertDurationMin === b.pertDurationMin &&
    a.isMilestone === b.isMilestone &&
    a.isSummary === b.isSummary &&
    a.id === b.id
  );
}
