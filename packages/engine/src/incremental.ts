import type { Network } from './network.js';
import type { ScheduleState } from './state.js';
import type { ScheduleInput } from './types.js';

/** What changed since the previous run, for `Scheduler.update`. */
export interface ScheduleChanges {
  /** Tasks whose own fields changed (not added/removed/re-parented: those need a rebuild). */
  changedTaskIds?: readonly string[];
  /** Dependencies whose lag (or whether it is elapsed) changed (added/removed/retargeted ones need a rebuild). */
  changedDependencyIds?: readonly string[];
}

/**
 * Finds tasks of a new input by id: first at the position the task had in the previous
 * input (the usual case: the same tasks in the same order), else through an id map built
 * on the first miss. With duplicate ids the earliest wins, as in `Network`.
 */
export type TaskFinder = (id: string) => ScheduleInput['tasks'][number] | undefined;

export function taskFinder(input: ScheduleInput, net: Network): TaskFinder {
  let byId: Map<string, ScheduleInput['tasks'][number]> | null = null;
  return (id) => {
    const i = net.index.get(id);
    const t = i === undefined ? undefined : input.tasks[net.inputPos[i]!];
    if (t && t.id === id) return t;
    if (byId === null) {
      byId = new Map();
      for (const task of input.tasks) if (task && typeof task.id === 'string' && !byId.has(task.id)) byId.set(task.id, task);
    }
    return byId.get(id);
  };
}

/**
 * True when `input` differs from `old` (the input `net` was built from) only in the named
 * tasks' and links' scalar fields: then the network keeps its shape and an incremental run
 * can reuse it.
 */
export function sameShape(net: Network, old: ScheduleInput, input: ScheduleInput, changes: ScheduleChanges, find: TaskFinder): boolean {
  if (input.project !== old.project && JSON.stringify(input.project) !== JSON.stringify(old.project)) return false;
  if (input.calendars !== old.calendars && JSON.stringify(input.calendars ?? []) !== JSON.stringify(old.calendars ?? [])) return false;
  if (!Array.isArray(input.tasks) || input.tasks.length !== old.tasks.length) return false;
  if ((input.dependencies ?? []).length !== (old.dependencies ?? []).length) return false;
  for (const id of changes.changedTaskIds ?? []) {
    const i = net.index.get(id);
    if (i === undefined) return false;
    const t = find(id);
    const o = net.tasks[i]!;
    if (!t || (t.parentId ?? null) !== (o.parentId ?? null) || (t.calendarId ?? null) !== (o.calendarId ?? null)) return false;
    if ((t.type === 'summary') !== (o.type === 'summary')) return false;
    if ((t.constraintKind === 'alap') !== (o.constraintKind === 'alap')) return false;
    // The calendar a duration runs on is fixed when the network is built.
    if ((t.durationElapsed === true) !== (o.durationElapsed === true)) return false;
  }
  for (const id of changes.changedDependencyIds ?? []) {
    const k = net.depIndex.get(id);
    if (k === undefined) return false;
    const d = (input.dependencies ?? []).find((x) => x?.id === id);
    const o = net.deps[k]!;
    if (!d || d.predecessorId !== o.predecessorId || d.successorId !== o.successorId || (d.type ?? 'FS') !== (o.type ?? 'FS')) return false;
    if (net.ignoredDependencyIds.includes(id)) return false;
  }
  return true;
}

/**
 * Loads the changed tasks' and links' new fields into the network and marks the nodes
 * the passes must revisit (everything else starts clean). Assumes `sameShape`.
 */
export function loadChanges(st: ScheduleState, input: ScheduleInput, changes: ScheduleChanges, find: TaskFinder): void {
  const net = st.net;
  const N = 2 * net.n;
  st.dirtyF = new Uint8Array(N);
  st.dirtyB = new Uint8Array(N);
  st.dirtyT = new Uint8Array(N);
  st.touched = new Uint8Array(net.n);
  for (const id of changes.changedTaskIds ?? []) {
    const i = net.index.get(id);
    if (i === undefined) continue;
    const wasComplete = net.complete[i];
    net.loadTask(i, find(id)!);
    markNode(st, i);
    if (net.isSummary[i]) markNode(st, net.n + i);
    // Late dates skip complete successors and children (lateCandidate, entryBackward): their
    // predecessors and parent are revisited even when this task's own late dates stay.
    if (net.complete[i] !== wasComplete) {
      for (let q = net.inStart[i]!; q < net.inStart[i + 1]!; q++) st.dirtyB[net.inSrc[q]!] = 1;
      markHierPreds(net, i, st.dirtyB);
    }
  }
  for (const id of changes.changedDependencyIds ?? []) {
    const k = net.depIndex.get(id);
    if (k === undefined) continue;
    const d = (input.dependencies ?? []).find((x) => x?.id === id);
    if (!d) continue;
    net.deps[k] = d;
    for (let e = 0; e < net.edgeDep.length; e++) {
      if (net.edgeDep[e] !== k) continue;
      net.setEdgeLag(e, Math.round(typeof d.lagMin === 'number' && Number.isFinite(d.lagMin) ? d.lagMin : 0), d.lagElapsed === true);
      markNode(st, net.edgeSrc[e]!);
      markNode(st, net.edgeDst[e]!);
    }
  }
}

function markNode(st: ScheduleState, v: number): void {
  st.dirtyF[v] = 1;
  st.dirtyB[v] = 1;
  st.dirtyT[v] = 1;
}

/** Marks the hierarchy predecessors of node v (parent entry → child, child out-node → parent exit). */
export function markHierPreds(net: Network, v: number, mark: Uint8Array): void {
  const n = net.n;
  if (v < n) {
    const p = net.parent[v]!;
    if (p >= 0) mark[p] = 1;
  } else for (const c of net.children[v - n]!) mark[net.outNode(c)] = 1;
}

/** Marks the hierarchy successors of node v. */
export function markHierSuccs(net: Network, v: number, mark: Uint8Array): void {
  const n = net.n;
  if (v < n && net.isSummary[v]) {
    for (const c of net.children[v]!) mark[c] = 1;
    return;
  }
  const p = net.parent[v < n ? v : v - n]!;
  if (p >= 0) mark[n + p] = 1;
}

/**
 * Float/rollup dirtiness after the passes: anything recomputed, plus predecessors of
 * nodes whose early dates moved (free float), plus leaves under a summary exit whose
 * successors moved.
 */
export function spreadFloatDirt(st: ScheduleState): void {
  const net = st.net;
  const N = 2 * net.n;
  const d = st.dirtyT;
  const extra = new Uint8Array(N);
  for (let v = 0; v < N; v++) {
    if (!d[v]) continue;
    for (let k = net.inStart[v]!; k < net.inStart[v + 1]!; k++) extra[net.inSrc[k]!] = 1;
    markHierPreds(net, v, extra);
    // Free float towards a summary uses its rolled-up (exit node) dates.
    if (v >= net.n) {
      const x = v - net.n;
      for (let k = net.inStart[x]!; k < net.inStart[x + 1]!; k++) extra[net.inSrc[k]!] = 1;
      markHierPreds(net, x, extra);
    }
  }
  for (let v = 0; v < N; v++) if (extra[v]) d[v] = 1;
  // A summary exit whose successors moved changes the inherited free float of all its leaves.
  for (let k = net.topo.length - 1; k >= 0; k--) {
    const v = net.topo[k]!;
    if (v < net.n || !d[v]) continue;
    const stack = [v - net.n];
    while (stack.length) {
      const s = stack.pop()!;
      for (const c of net.children[s]!) {
        d[c] = 1;
        if (net.isSummary[c]) {
          d[net.n + c] = 1;
          stack.push(c);
        }
      }
    }
  }
}

/** Whether summary s must be rolled up again: it or one of its children was recomputed. */
export function summaryDirty(st: ScheduleState, s: number): boolean {
  const net = st.net;
  if (st.dirtyT[s] || st.dirtyT[net.n + s]) return true;
  for (const c of net.children[s]!) {
    if (st.dirtyT[c] || (net.isSummary[c] && st.dirtyT[net.n + c])) {
      st.dirtyT[s] = 1;
      return true;
    }
  }
  return false;
}
