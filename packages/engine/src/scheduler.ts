import type { WorkCalendar } from './calendar.js';
import { toIsoString } from './instant.js';
import { fastPaths } from './internal.js';
import {
  C_ALAP,
  C_ASAP,
  C_FNET,
  C_FNLT,
  C_MFO,
  C_MSO,
  C_SNET,
  C_SNLT,
  FF,
  FS,
  Network,
  SF,
  SS,
} from './network.js';
import type { Conflict, ScheduleInput, ScheduleResult, TaskResult } from './types.js';
import { typedArrays } from './typed-arrays.js';

const NEG = -Infinity;
const POS = Infinity;

/**
 * Link candidates into a task (see `gather`): the latest start and finish candidates (−∞ if
 * none), the links producing them, the working position of `s` when known (NaN if not) and
 * whether any link exists.
 */
interface Candidates {
  s: number;
  sPos: number;
  f: number;
  has: boolean;
  sDep: number;
  fDep: number;
  fIsSf: boolean;
}

/** Conflict bits per task. */
const K_LINK = 1;
const K_MANUAL = 2;
const K_BEFORE_START = 4;
const K_DEADLINE = 8;

/** What changed since the previous run, for `Scheduler.update`. */
export interface ScheduleChanges {
  /** Tasks whose own fields changed (not added/removed/re-parented: those need a rebuild). */
  changedTaskIds?: readonly string[];
  /** Dependencies whose lag changed (added/removed/retargeted ones need a rebuild). */
  changedDependencyIds?: readonly string[];
}

/**
 * A stateful CPM scheduler for one project. `new Scheduler(input)` schedules fully;
 * `update(input, changes)` reschedules incrementally: only the forward cone of the changed
 * tasks, the backward cone of whatever moved, and the floats and summaries around them
 * are recomputed, with early cut-off where values did not change. Any change of the
 * network's shape (tasks or links added, removed, re-parented or retyped, calendars,
 * project settings) falls back to a full run automatically. Full and incremental runs
 * share the same per-node code, so their results are identical.
 *
 * Not thread-safe; one instance per project. Never throws on malformed input.
 */
export class Scheduler {
  private net!: Network;
  private latestInput!: ScheduleInput;
  private es!: Float64Array;
  private ef!: Float64Array;
  private ls!: Float64Array;
  private lf!: Float64Array;
  private lss!: Float64Array;
  private hasPred!: Uint8Array;
  private start!: Float64Array;
  private finish!: Float64Array;
  private tf!: Float64Array;
  private ff!: Float64Array;
  private crit!: Uint8Array;
  private conflictBits!: Uint8Array;
  private linkReq!: Float64Array;
  private linkDep!: Int32Array;
  /** Summaries' rolled-up early and late dates. */
  private sumES!: Float64Array;
  private sumEF!: Float64Array;
  private sumLS!: Float64Array;
  private sumLF!: Float64Array;
  private projectFinish = 0;
  private projectStartEff = 0;
  private pass2 = false;
  private sweep = false;
  /** Memo for `freeFloatFrom`: positions of the predecessor's start/finish (NaN = not yet). */
  private fwS = NaN;
  private fwF = NaN;
  /**
   * Remembered working positions of leaves' current es / ef / ls / lf (NaN = not known
   * without a lookup): every pass that sets one of these dates sets its position too. A
   * position is remembered only when the calendar guarantees that looking the instant up
   * again gives it back (see `WorkCalendar.exactPosition`), so the floats reuse what the
   * passes already computed.
   */
  private remember = true;
  /** Whether plain leaves take their fast paths (`fastPaths.plainLeaves`). */
  private plainLeaves = true;
  private pEs!: Float64Array;
  private pEf!: Float64Array;
  private pLs!: Float64Array;
  private pLf!: Float64Array;
  private rows: TaskResult[] = [];
  private result!: ScheduleResult;
  /** Nodes to (re)compute in each phase. */
  private dirtyF!: Uint8Array;
  private dirtyB!: Uint8Array;
  private dirtyT!: Uint8Array;
  private touched!: Uint8Array;

  constructor(input: ScheduleInput) {
    this.rebuild(input, null);
  }

  /** The latest result. */
  get current(): ScheduleResult {
    return this.result;
  }

  /**
   * The input of the latest run, as it was given (not copied): what the next `update`'s
   * changes are relative to, so a caller can name them by comparing inputs.
   */
  get input(): ScheduleInput {
    return this.latestInput;
  }

  /**
   * Applies changes and returns the new result. `changedTaskIds`/`changedDependencyIds`
   * name what differs from the input of the previous run; when they are omitted, or the
   * shape of the network changed, everything is recomputed. `changedTaskIds` in the result
   * lists the tasks whose computed values differ from the previous result.
   */
  update(input: ScheduleInput, changes?: ScheduleChanges): ScheduleResult {
    const prev = this.result;
    const net = this.net;
    const find = taskFinder(input, net);
    if (!changes || !this.sameShape(input, changes, find)) {
      this.rebuild(input, prev);
      return this.result;
    }
    this.latestInput = input;
    const N = 2 * net.n;
    this.dirtyF = new Uint8Array(N);
    this.dirtyB = new Uint8Array(N);
    this.dirtyT = new Uint8Array(N);
    this.touched = new Uint8Array(net.n);
    for (const id of changes.changedTaskIds ?? []) {
      const i = net.index.get(id);
      if (i === undefined) continue;
      const wasComplete = net.complete[i];
      net.loadTask(i, find(id)!);
      this.markTask(i);
      // Late dates skip complete successors and children (lateCandidate, entryBackward): their
      // predecessors and parent are revisited even when this task's own late dates stay.
      if (net.complete[i] !== wasComplete) {
        for (let q = net.inStart[i]!; q < net.inStart[i + 1]!; q++) this.dirtyB[net.inSrc[q]!] = 1;
        this.markHierPreds(i, this.dirtyB);
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
        net.setEdgeLag(e, Math.round(typeof d.lagMin === 'number' && Number.isFinite(d.lagMin) ? d.lagMin : 0));
        this.markNode(net.edgeSrc[e]!);
        this.markNode(net.edgeDst[e]!);
      }
    }
    this.run(prev, false);
    return this.result;
  }

  private markNode(v: number): void {
    this.dirtyF[v] = 1;
    this.dirtyB[v] = 1;
    this.dirtyT[v] = 1;
  }

  private markTask(i: number): void {
    this.markNode(i);
    if (this.net.isSummary[i]) this.markNode(this.net.n + i);
  }

  /** True when `input` differs from the previous one only in the named tasks'/links' scalar fields. */
  private sameShape(input: ScheduleInput, changes: ScheduleChanges, find: TaskFinder): boolean {
    const net = this.net;
    const old = this.latestInput;
    if (input.project !== old.project && JSON.stringify(input.project) !== JSON.stringify(old.project)) return false;
    if (input.calendars !== old.calendars && JSON.stringify(input.calendars ?? []) !== JSON.stringify(old.calendars ?? []))
      return false;
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
    }
    for (const id of changes.changedDependencyIds ?? []) {
      const k = net.depIndex.get(id);
      if (k === undefined) return false;
      const d = (input.dependencies ?? []).find((x) => x?.id === id);
      const o = net.deps[k]!;
      if (!d || d.predecessorId !== o.predecessorId || d.successorId !== o.successorId || (d.type ?? 'FS') !== (o.type ?? 'FS'))
        return false;
      if (net.ignoredDependencyIds.includes(id)) return false;
    }
    return true;
  }

  private rebuild(input: ScheduleInput, prev: ScheduleResult | null): void {
    this.latestInput = input;
    const net = new Network(input);
    this.net = net;
    const n = net.n;
    const N = 2 * n;
    const f64 = typedArrays(Float64Array, 5 * N + 13 * n);
    // No initial values: a full run computes every live node before any node reads it
    // (topological order forward, its reverse backward); the exit slots of leaves are
    // never read. Backward-scheduled runs reset these arrays themselves (see `run`).
    this.es = f64(N);
    this.ef = f64(N);
    this.ls = f64(N);
    this.lf = f64(N);
    this.lss = f64(N);
    this.start = f64(n);
    this.finish = f64(n);
    this.tf = f64(n);
    this.ff = f64(n);
    this.linkReq = f64(n);
    this.sumES = f64(n);
    this.sumEF = f64(n);
    this.sumLS = f64(n);
    this.sumLF = f64(n);
    this.remember = fastPaths.rememberedPositions;
    this.plainLeaves = fastPaths.plainLeaves;
    this.pEs = f64(n);
    this.pEf = f64(n);
    this.pLs = f64(n);
    this.pLf = f64(n);
    const u8 = typedArrays(Uint8Array, N + 2 * n);
    this.hasPred = u8(N);
    this.crit = u8(n);
    this.conflictBits = u8(n);
    this.linkDep = new Int32Array(n).fill(-1);
    this.rows = new Array<TaskResult>(n);
    this.dirtyF = new Uint8Array(N).fill(1);
    this.dirtyB = new Uint8Array(N).fill(1);
    this.dirtyT = new Uint8Array(N).fill(1);
    this.touched = new Uint8Array(n);
    this.run(prev, true);
  }

  // ---------------------------------------------------------------------------------------
  // Orchestration

  private run(prev: ScheduleResult | null, full: boolean): void {
    const net = this.net;
    const n = net.n;
    const topo = net.topo;
    // Full runs and backward-scheduled plans recompute every node in every phase (all dirty
    // flags set before each pass), so the passes need not propagate dirtiness.
    this.sweep = full || net.backward;
    let fullBackward = full;
    let fullFloat = full;
    if (net.backward) {
      // Finish-scheduled: late dates first from the anchor, then early dates from the
      // resulting project start (docs/scheduling.md › Finish-scheduled projects).
      this.projectFinish = net.projectAnchorFinish;
      this.pass2 = false;
      // Always a full run from a clean state: the first backward pass must not see early
      // dates of a previous run (it would pick other "earliest" summary children).
      this.es.fill(NEG);
      this.ef.fill(NEG);
      this.ls.fill(POS);
      this.lf.fill(POS);
      this.lss.fill(POS);
      this.hasPred.fill(0);
      this.touched.fill(1);
      this.dirtyB.fill(1);
      this.backwardPass();
      let ps = POS;
      for (let i = 0; i < n; i++) if (!net.isSummary[i] && this.lss[i]! < ps) ps = net.started[i] ? net.actualStart[i]! : this.lss[i]!;
      this.projectStartEff = Number.isFinite(ps) ? ps : net.projectAnchorFinish;
      this.dirtyF.fill(1);
      this.forwardPass();
      // Mirror of the ALAP rule: predecessors of ASAP tasks are pulled by their early dates.
      this.pass2 = true;
      this.dirtyB.fill(1);
      this.backwardPass();
      fullFloat = true;
    } else {
      this.projectStartEff = net.projectStart;
      this.pass2 = false;
      // With ALAP tasks the stored early dates are second-pass values, so pass 1 is redone.
      if (net.hasAlap) this.dirtyF.fill(1);
      this.forwardPass();
      let pf = NEG;
      for (let i = 0; i < n; i++) if (!net.isSummary[i] && this.ef[i]! > pf) pf = this.ef[i]!;
      if (!Number.isFinite(pf)) pf = net.projectStart;
      if (pf !== this.projectFinish || net.hasAlap) fullBackward = true;
      this.projectFinish = pf;
      if (fullBackward) this.dirtyB.fill(1);
      this.backwardPass();
      if (net.hasAlap) {
        // docs/scheduling.md › ALAP tasks: a second forward pass lets ASAP successors follow
        // ALAP tasks placed late.
        this.pass2 = true;
        this.dirtyF.fill(1);
        this.forwardPass();
        fullFloat = true;
      }
    }
    if (fullFloat) this.dirtyT.fill(1);
    // Float/rollup dirtiness: anything recomputed, plus predecessors of nodes whose early
    // dates moved (free float), plus leaves under a summary exit whose successors moved.
    if (!fullFloat) this.spreadFloatDirt();
    const plainFloats = this.plainLeaves && !net.backward;
    for (let i = 0; i < n; i++) {
      if (!this.dirtyT[i] || net.isSummary[i]) continue;
      if (plainFloats && net.plain[i] && net.ckind[i] === C_ASAP) this.plainLeafFloat(i);
      else this.leafFloat(i);
    }
    // Summaries bottom-up (reverse topological order of exit nodes puts children first).
    for (let k = 0; k < topo.length; k++) {
      const v = topo[k]!;
      if (v < n) continue;
      const s = v - n;
      if (full || this.summaryDirty(s)) this.summaryRollup(s);
    }
    this.buildResult(prev, full);
  }

  private summaryDirty(s: number): boolean {
    const net = this.net;
    if (this.dirtyT[s] || this.dirtyT[net.n + s]) return true;
    for (const c of net.children[s]!) if (this.dirtyT[c] || (net.isSummary[c] && this.dirtyT[net.n + c])) {
      this.dirtyT[s] = 1;
      return true;
    }
    return false;
  }

  /** Marks the hierarchy predecessors of node v (parent entry → child, child out-node → parent exit). */
  private markHierPreds(v: number, mark: Uint8Array): void {
    const net = this.net;
    const n = net.n;
    if (v < n) {
      const p = net.parent[v]!;
      if (p >= 0) mark[p] = 1;
    } else for (const c of net.children[v - n]!) mark[net.outNode(c)] = 1;
  }

  /** Marks the hierarchy successors of node v. */
  private markHierSuccs(v: number, mark: Uint8Array): void {
    const net = this.net;
    const n = net.n;
    if (v < n && net.isSummary[v]) {
      for (const c of net.children[v]!) mark[c] = 1;
      return;
    }
    const p = net.parent[v < n ? v : v - n]!;
    if (p >= 0) mark[n + p] = 1;
  }

  private spreadFloatDirt(): void {
    const net = this.net;
    const N = 2 * net.n;
    const d = this.dirtyT;
    const extra = new Uint8Array(N);
    for (let v = 0; v < N; v++) {
      if (!d[v]) continue;
      for (let k = net.inStart[v]!; k < net.inStart[v + 1]!; k++) extra[net.inSrc[k]!] = 1;
      this.markHierPreds(v, extra);
      // Free float towards a summary uses its rolled-up (exit node) dates.
      if (v >= net.n) {
        const x = v - net.n;
        for (let k = net.inStart[x]!; k < net.inStart[x + 1]!; k++) extra[net.inSrc[k]!] = 1;
        this.markHierPreds(x, extra);
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

  // ---------------------------------------------------------------------------------------
  // Forward pass

  private forwardPass(): void {
    const net = this.net;
    const topo = net.topo;
    // A sweep visits every node and every later phase is all-dirty: no bookkeeping.
    if (this.sweep) {
      for (let k = 0; k < topo.length; k++) this.forwardNode(topo[k]!);
      return;
    }
    const dirty = this.dirtyF;
    for (let k = 0; k < topo.length; k++) {
      const v = topo[k]!;
      if (!dirty[v]) continue;
      dirty[v] = 0;
      if (v < net.n) this.touched[v] = 1;
      else this.touched[v - net.n] = 1;
      const oldEs = this.es[v]!;
      const oldEf = this.ef[v]!;
      const oldHas = this.hasPred[v]!;
      this.forwardNode(v);
      // An entry node's own values are on the summary calendar; its leaves may see a change
      // on theirs even when these did not move, so they are always revisited.
      if (v < net.n && net.isSummary[v]) for (const c of net.children[v]!) dirty[c] = 1;
      if (this.es[v] !== oldEs || this.ef[v] !== oldEf || this.hasPred[v] !== oldHas) {
        for (let q = net.outStart[v]!; q < net.outStart[v + 1]!; q++) dirty[net.outDst[q]!] = 1;
        this.markHierSuccs(v, dirty);
        this.dirtyB[v] = 1;
        this.dirtyT[v] = 1;
        // Early dates decide which child is a summary's earliest (SS/SF out of summaries).
        if (v >= net.n) for (const c of net.children[v - net.n]!) this.dirtyB[net.outNode(c)] = 1;
      }
    }
  }

  private forwardNode(v: number): void {
    const net = this.net;
    if (v >= net.n) this.rollupExitEarly(v);
    else if (net.isSummary[v]) this.entryForward(v);
    else if (this.plainLeaves && net.plain[v] && !this.pass2) this.plainLeafForward(v);
    else this.leafForward(v);
  }

  /** Early dates of a link's predecessor as seen by successor `v` (the ALAP rule). */
  private predEarly(u: number, v: number, wantFinish: boolean): number {
    const net = this.net;
    if (this.pass2 && u < net.n && this.atLateDates(u) && !(v < net.n && net.ckind[v] === C_ALAP)) {
      return wantFinish ? this.lf[u]! : this.ls[u]!;
    }
    return wantFinish ? this.ef[u]! : this.es[u]!;
  }

  /**
   * Collects the link candidates into leaf or summary `v` in `out`: the latest start and
   * finish candidates (−∞ if none), the links producing them and whether any link (own or
   * inherited from an ancestor summary) exists. Lags are counted on `cal`, the
   * calendar of the task being scheduled (decision 2), also for links inherited from summaries.
   */
  private gather(v: number, cal: WorkCalendar, out: Candidates): void {
    const net = this.net;
    const inStart = net.inStart;
    out.s = NEG;
    out.sPos = NaN;
    out.f = NEG;
    out.has = false;
    out.sDep = -1;
    out.fDep = -1;
    out.fIsSf = false;
    if (inStart[v] !== inStart[v + 1]) this.gatherLinks(v, v, cal, out);
    for (let p = net.parent[v]!; p >= 0; p = net.parent[p]!) {
      // docs/scheduling.md › Summary tasks (our choice): a summary SNET (or MSO) is a lower
      // bound for all its leaves.
      if ((net.ckind[p] === C_SNET || net.ckind[p] === C_MSO) && net.cdate[p]! > out.s) {
        out.s = net.cdate[p]!;
        out.sPos = NaN;
        out.sDep = -1;
        out.has = true;
      }
      if (inStart[p] !== inStart[p + 1]) this.gatherLinks(p, v, cal, out);
    }
  }

  /** Adds the links into `node` (v itself or one of its ancestors) to v's candidates; `node` has links. */
  private gatherLinks(node: number, v: number, cal: WorkCalendar, out: Candidates): void {
    const net = this.net;
    const n = net.n;
    const { inType, inSrc, inLag, inDep, cals, deps } = net;
    const es = this.es;
    const ef = this.ef;
    const pass2 = this.pass2;
    out.has = true;
    for (let q = net.inStart[node]!, end = net.inStart[node + 1]!; q < end; q++) {
      const t = inType[q]!;
      const u = inSrc[q]!;
      const lag = inLag[q]!;
      const base = pass2 ? this.predEarly(u, v, t === FS || t === FF) : t === FS || t === FF ? ef[u]! : es[u]!;
      if (!Number.isFinite(base)) continue;
      // shift(t, 0) is t: most links have no lag.
      const c = lag === 0 ? base : cal.shift(base, lag);
      if (t === FS || t === SS) {
        if (c > out.s || (c === out.s && out.sDep >= 0 && deps[inDep[q]!]!.id < deps[out.sDep]!.id)) {
          out.s = c;
          out.sDep = inDep[q]!;
          // A lag-free link from a leaf on the same calendar: c's position is remembered.
          out.sPos = lag === 0 && !pass2 && u < n && cals[u] === cal ? (t === FS ? this.pEf[u]! : this.pEs[u]!) : NaN;
        }
      } else if (c > out.f || (c === out.f && out.fDep >= 0 && deps[inDep[q]!]!.id < deps[out.fDep]!.id)) {
        out.f = c;
        out.fDep = inDep[q]!;
        out.fIsSf = t === SF;
      }
    }
  }

  private readonly g: Candidates = { s: NEG, sPos: NaN, f: NEG, has: false, sDep: -1, fDep: -1, fIsSf: false };

  /**
   * A summary's entry node only records its inherited candidates (on its own calendar) so
   * that a change upstream is noticed; its leaves re-derive them on their own calendars.
   */
  private entryForward(i: number): void {
    const g = this.g;
    this.gather(i, this.net.cals[i]!, g);
    this.es[i] = g.s;
    this.ef[i] = g.f;
    this.hasPred[i] = g.has ? 1 : 0;
  }

  private rollupExitEarly(v: number): void {
    const net = this.net;
    const s = v - net.n;
    let es = POS;
    let ef = NEG;
    for (const c of net.children[s]!) {
      const cv = net.outNode(c);
      let a = this.es[cv]!;
      let b = this.ef[cv]!;
      if (this.pass2 && cv < net.n && this.atLateDates(cv)) {
        a = this.ls[cv]!;
        b = this.lf[cv]!;
      }
      if (a < es) es = a;
      if (b > ef) ef = b;
    }
    this.es[v] = es;
    this.ef[v] = ef;
  }

  private leafForward(i: number): void {
    const net = this.net;
    const cal = net.cals[i]!;
    const d = net.dur[i]!;
    const ps = this.projectStartEff;
    const g = this.g;
    this.gather(i, cal, g);
    this.hasPred[i] = g.has ? 1 : 0;
    let bits = this.conflictBits[i]! & K_DEADLINE;
    this.linkDep[i] = -1;
    if (net.started[i]) {
      const as = net.actualStart[i]!;
      this.es[i] = as;
      this.pEs[i] = NaN;
      this.pEf[i] = NaN;
      if (net.complete[i] && Number.isFinite(net.actualFinish[i]!)) this.ef[i] = net.actualFinish[i]!;
      else {
        let ef = cal.addWork(as, d);
        // Only FNET is honored on a started task (as Microsoft Project): it stretches the finish.
        if (net.ckind[i] === C_FNET && net.cdate[i]! > ef) ef = net.cdate[i]!;
        this.ef[i] = ef;
      }
      this.conflictBits[i] = bits;
      return;
    }
    // Link-driven early start, FF/SF via the finish.
    let x = g.s;
    const fs = Number.isFinite(g.f) ? cal.subWork(g.f, d) : NEG;
    let bindingDep = g.sDep;
    if (fs > x) {
      x = fs;
      bindingDep = g.fDep;
    }
    if (net.manual[i]) {
      const ms = net.manualStart[i]!;
      this.es[i] = ms;
      this.pEs[i] = NaN;
      this.pEf[i] = NaN;
      const mf = net.manualFinish[i]!;
      this.ef[i] = Number.isFinite(mf) && mf >= ms ? mf : cal.addWork(ms, d);
      // (In UTC working positions are monotonic in time, so ms >= x needs no lookup.)
      if (g.has && Number.isFinite(x) && !(ms >= x && cal.zone.isUtc) && cal.position(ms) < cal.position(x)) {
        bits |= K_MANUAL;
        this.linkReq[i] = cal.nextWorkStart(x);
        this.linkDep[i] = bindingDep;
      }
      this.conflictBits[i] = bits;
      return;
    }
    // Decision 4: leads never pull a task before the project start.
    const es0 = g.has ? Math.max(x, ps) : ps;
    let es = es0;
    // Only an SF-driven finish is kept as computed (a start-type instant such as Monday
    // 08:00, as the MSPDI fixtures show); FF finishes are normalized.
    let finishFixed = fs === x && Number.isFinite(fs) && fs >= ps && g.fIsSf ? g.f : NaN;
    const ck = net.ckind[i]!;
    const c = net.cdate[i]!;
    switch (ck) {
      case C_SNET:
        es = g.has ? Math.max(es0, c) : c;
        break;
      case C_FNET: {
        const cs = cal.subWork(c, d);
        es = g.has ? Math.max(es0, cs) : cs;
        if (es === cs) finishFixed = c;
        break;
      }
      case C_SNLT:
        es = Math.min(es0, c);
        break;
      case C_FNLT:
        es = Math.min(es0, cal.subWork(c, d));
        break;
      case C_MSO:
        es = c;
        break;
      case C_MFO:
        es = cal.subWork(c, d);
        finishFixed = c;
        break;
    }
    if (es !== es0 && ck !== C_FNET && ck !== C_MFO) finishFixed = NaN;
    // Decision 6: leveling delay after links and constraints; ALAP tasks ignore it.
    const delay = net.delay[i]!;
    if (delay > 0 && ck !== C_ALAP) {
      es = cal.addWork(es, delay);
      finishFixed = NaN;
    }
    let ef: number;
    // Working position of es (NaN when not known without a lookup).
    let wS = NaN;
    // Whether es / ef are known to sit at positions wS / wS + d (see exactPosition).
    let exactS = false;
    let exactF = false;
    if (net.milestone[i] === 1) {
      es = cal.nextMilestoneStart(es);
      ef = cal.addWork(es, d);
    } else {
      // nextWorkStart + addWork share one position lookup (none when es is the link
      // candidate whose position the predecessor remembered).
      wS = positionOf(cal, es, es === g.s ? g.sPos : NaN);
      es = cal.startAtPosition(wS);
      exactS = this.remember && cal.exactPosition(wS);
      ef = d > 0 ? cal.finishAtPosition(wS + d) : es;
      exactF = this.remember && d > 0 && cal.exactPosition(wS + d);
    }
    const wF = wS + d;
    // MSP keeps a finish driven by FF/SF (or a finish constraint) as computed, e.g. a Monday
    // 08:00 finish stays Monday 08:00 instead of the equivalent Friday 17:00.
    if (d > 0 && finishFixed === finishFixed && finishFixed !== ef && cal.position(finishFixed) === (exactF ? wF : cal.position(ef))) ef = finishFixed;
    this.es[i] = es;
    this.ef[i] = ef;
    // es sits at wS, ef at wS + d (a finishFixed kept above has the computed finish's position).
    this.pEs[i] = exactS ? wS : NaN;
    this.pEf[i] = exactF ? wF : NaN;
    this.conflictBits[i] = this.startConflicts(i, cal, es, x, g.has, bindingDep, bits);
  }

  /**
   * Adds the conflicts of leaf i starting at `es` when its links require `x` (−∞ if none):
   * a start before the links allow (constraint_vs_link) or before the project start.
   */
  private startConflicts(i: number, cal: WorkCalendar, es: number, x: number, has: boolean, bindingDep: number, bits: number): number {
    const ps = this.projectStartEff;
    const req = x > ps ? x : ps;
    if (has && Number.isFinite(x) && !(es >= req && cal.zone.isUtc) && cal.position(es) < cal.position(req)) {
      bits |= K_LINK;
      this.linkReq[i] = cal.nextWorkStart(req);
      this.linkDep[i] = bindingDep;
    }
    if (es < ps && cal.position(es) < cal.position(ps)) bits |= K_BEFORE_START;
    return bits;
  }

  /**
   * `leafForward` for a plain leaf (`Network.plain`) in pass 1 when no ancestor adds a
   * candidate: it starts at its latest link candidate or the project start, with none of
   * the constraint, progress and manual cases. Calendar readings depend on their arguments
   * only, so the same results (fast path `plainLeaves`, tested against the general code).
   */
  private plainLeafForward(i: number): void {
    const net = this.net;
    const { inStart, inType, inSrc, inLag, inDep, cals, deps, parent, ckind } = net;
    for (let p = parent[i]!; p >= 0; p = parent[p]!) {
      if (inStart[p] !== inStart[p + 1] || ckind[p] === C_SNET || ckind[p] === C_MSO) return this.leafForward(i);
    }
    const n = net.n;
    const cal = cals[i]!;
    const d = net.dur[i]!;
    const ps = this.projectStartEff;
    const es = this.es;
    const ef = this.ef;
    const pEs = this.pEs;
    const pEf = this.pEf;
    let s = NEG;
    let sPos = NaN;
    let sDep = -1;
    let f = NEG;
    let fDep = -1;
    let fIsSf = false;
    const q0 = inStart[i]!;
    const q1 = inStart[i + 1]!;
    for (let q = q0; q < q1; q++) {
      const t = inType[q]!;
      const u = inSrc[q]!;
      const lag = inLag[q]!;
      const base = t === FS || t === FF ? ef[u]! : es[u]!;
      if (!Number.isFinite(base)) continue;
      const c = lag === 0 ? base : cal.shift(base, lag);
      if (t === FS || t === SS) {
        if (c > s || (c === s && sDep >= 0 && deps[inDep[q]!]!.id < deps[sDep]!.id)) {
          s = c;
          sDep = inDep[q]!;
          sPos = lag === 0 && u < n && cals[u] === cal ? (t === FS ? pEf[u]! : pEs[u]!) : NaN;
        }
      } else if (c > f || (c === f && fDep >= 0 && deps[inDep[q]!]!.id < deps[fDep]!.id)) {
        f = c;
        fDep = inDep[q]!;
        fIsSf = t === SF;
      }
    }
    const has = q1 > q0;
    let x = s;
    const fs = Number.isFinite(f) ? cal.subWork(f, d) : NEG;
    let bindingDep = sDep;
    if (fs > x) {
      x = fs;
      bindingDep = fDep;
    }
    const es0 = has ? Math.max(x, ps) : ps;
    const finishFixed = fs === x && Number.isFinite(fs) && fs >= ps && fIsSf ? f : NaN;
    const wS = positionOf(cal, es0, es0 === s ? sPos : NaN);
    const start = cal.startAtPosition(wS);
    const exactS = this.remember && cal.exactPosition(wS);
    const wF = wS + d;
    let finish = cal.finishAtPosition(wF);
    const exactF = this.remember && cal.exactPosition(wF);
    if (finishFixed === finishFixed && finishFixed !== finish && cal.position(finishFixed) === (exactF ? wF : cal.position(finish))) finish = finishFixed;
    this.hasPred[i] = has ? 1 : 0;
    this.linkDep[i] = -1;
    this.conflictBits[i] = this.startConflicts(i, cal, start, x, has, bindingDep, this.conflictBits[i]! & K_DEADLINE);
    es[i] = start;
    ef[i] = finish;
    pEs[i] = exactS ? wS : NaN;
    pEf[i] = exactF ? wF : NaN;
  }

  // ---------------------------------------------------------------------------------------
  // Backward pass

  private backwardPass(): void {
    const net = this.net;
    const topo = net.topo;
    if (this.sweep) {
      for (let k = topo.length - 1; k >= 0; k--) this.backwardNode(topo[k]!);
      return;
    }
    const dirty = this.dirtyB;
    for (let k = topo.length - 1; k >= 0; k--) {
      const v = topo[k]!;
      if (!dirty[v]) continue;
      dirty[v] = 0;
      if (v < net.n) this.touched[v] = 1;
      else this.touched[v - net.n] = 1;
      const oLs = this.ls[v]!;
      const oLf = this.lf[v]!;
      const oLss = this.lss[v]!;
      this.backwardNode(v);
      if (this.ls[v] !== oLs || this.lf[v] !== oLf || this.lss[v] !== oLss) {
        for (let q = net.inStart[v]!; q < net.inStart[v + 1]!; q++) dirty[net.inSrc[q]!] = 1;
        this.markHierPreds(v, dirty);
        this.dirtyT[v] = 1;
      }
    }
  }

  private backwardNode(v: number): void {
    const net = this.net;
    if (v >= net.n) this.exitBackward(v);
    else if (net.isSummary[v]) this.entryBackward(v);
    else if (this.plainLeaves && net.plain[v] && !net.backward) this.plainLeafBackward(v);
    else this.leafBackward(v);
  }

  /** Late-finish candidate for predecessor node u (calendar calU, duration dU) from a link (type t, lag) into x. */
  private lateCandidate(t: number, lag: number, x: number, calU: WorkCalendar, dU: number, uStartedOrManual: boolean, asStart: boolean): number {
    const net = this.net;
    if (x < net.n && !net.isSummary[x] && net.complete[x]) return POS;
    let lsx = this.lss[x]!;
    let lfx = this.lf[x]!;
    if (net.backward && this.pass2 && x < net.n && !net.isSummary[x] && net.ckind[x] !== C_ALAP) {
      // Finish-scheduled, second backward pass: ASAP successors pull with their early dates.
      lsx = this.es[x]!;
      lfx = this.ef[x]!;
    }
    if (!Number.isFinite(lsx) && !Number.isFinite(lfx)) return POS;
    const calX = net.cals[x]!;
    let c: number;
    switch (t) {
      case FS:
        c = lag === 0 ? lsx : calX.shift(lsx, -lag);
        break;
      case SS: {
        if (uStartedOrManual) return this.projectFinish;
        const st = calX.shift(calX.nextWorkStart(lsx), -lag);
        c = asStart ? st : calU.addWork(st, dU);
        break;
      }
      case FF:
        c = lag === 0 ? lfx : calX.shift(lfx, -lag);
        break;
      default: {
        if (uStartedOrManual) return this.projectFinish;
        if (asStart) c = calX.shift(lfx, -lag);
        else c = calX.shift(calU.addWork(lfx, dU), -lag);
      }
    }
    return c < this.projectFinish ? c : this.projectFinish;
  }

  private leafBackward(i: number): void {
    const net = this.net;
    const cal = net.cals[i]!;
    const d = net.dur[i]!;
    if (net.complete[i] && net.started[i]) {
      this.lf[i] = this.ef[i]!;
      this.lss[i] = this.ls[i] = this.es[i]!;
      this.pLf[i] = this.pEf[i]!;
      this.pLs[i] = this.pEs[i]!;
      return;
    }
    const startedOrManual = net.started[i] === 1 || net.manual[i] === 1;
    let lf = this.parentLateBound(i, cal, d);
    // The earliest link candidate and, for a lag-free FS/FF link to a leaf on the same
    // calendar, its position as the successor remembered it (NaN if not).
    let link = POS;
    let linkPos = NaN;
    const { outType, outLag, outDst } = net;
    for (let q = net.outStart[i]!, end = net.outStart[i + 1]!; q < end; q++) {
      const t = outType[q]!;
      const lag = outLag[q]!;
      const x = outDst[q]!;
      const c = this.lateCandidate(t, lag, x, cal, d, startedOrManual, false);
      if (c < link) {
        link = c;
        // (Only when c is the successor's date itself: lateCandidate may cap it at the project finish.)
        const own = t === FS ? this.lss[x] : t === FF ? this.lf[x] : NaN;
        linkPos = lag === 0 && c === own && !net.backward && net.cals[x] === cal && !net.isSummary[x] ? (t === FS ? this.pLs[x]! : this.pLf[x]!) : NaN;
      }
    }
    if (link < lf) lf = link;
    if (net.backward) lf = this.applyBackwardModeEarlyConstraints(i, lf, cal, d);
    if (!net.manual[i]) {
      const c = net.cdate[i]!;
      switch (net.ckind[i]) {
        case C_MSO:
          lf = cal.addWork(c, d);
          break;
        case C_MFO:
          lf = c;
          break;
        case C_SNLT: {
          const v = cal.addWork(c, d);
          if (v < lf) lf = v;
          break;
        }
        case C_FNLT:
          if (c < lf) lf = c;
          break;
      }
    }
    this.setLateDates(i, cal, lf, link, linkPos);
  }

  /** Task i's late finish bound from its project and parent summary (whose exit node hands down its own bounds). */
  private parentLateBound(i: number, cal: WorkCalendar, d: number): number {
    let lf = this.projectFinish;
    const p = this.net.parent[i]!;
    if (p >= 0) {
      const x = this.net.n + p;
      if (this.lf[x]! < lf) lf = this.lf[x]!;
      const lsb = this.ls[x]!;
      if (Number.isFinite(lsb) && this.es[i] === this.es[x]) {
        const c = cal.addWork(lsb, d);
        if (c < lf) lf = c;
      }
    }
    return lf;
  }

  /**
   * Stores leaf i's late dates for the late finish `lf` (before its deadline): the finish
   * normalised and the late start before it, with their working positions. `link`/`linkPos`
   * are the earliest link candidate and its remembered position (NaN if none).
   */
  private setLateDates(i: number, cal: WorkCalendar, lf: number, link: number, linkPos: number): void {
    const net = this.net;
    const dl = net.deadline[i]!;
    if (dl < lf) lf = dl;
    // normalizeFinish + subWork share one position lookup (none when lf is the link candidate
    // whose position the successor remembered).
    const w = positionOf(cal, lf, lf === link ? linkPos : NaN);
    // Whether lf / lss are known to sit at positions w / w − rem (see exactPosition;
    // a manual task's lf is not converted and w may be a clamped reading).
    let exactF = false;
    if (!net.manual[i]) {
      lf = cal.finishAtPosition(w);
      exactF = this.remember && cal.exactPosition(w);
    }
    this.lf[i] = lf;
    const rem = net.remaining[i]!;
    let lss = lf;
    let exactS = exactF;
    if (rem > 0) {
      lss = cal.startAtPosition(w - rem);
      exactS = this.remember && cal.exactPosition(w - rem);
    }
    this.lss[i] = lss;
    this.ls[i] = net.started[i] ? net.actualStart[i]! : lss;
    // lf sits at w, lss (= ls unless started) at w − rem.
    this.pLf[i] = exactF ? w : NaN;
    this.pLs[i] = exactS && !net.started[i] ? w - rem : NaN;
  }

  /**
   * `leafBackward` for a plain leaf (`Network.plain`) of a forward-scheduled project: no
   * progress, constraint or manual dates to apply, and lag-free FS/FF links read their
   * successor's late dates directly. Same results (fast path `plainLeaves`).
   */
  private plainLeafBackward(i: number): void {
    const net = this.net;
    const { outStart, outType, outLag, outDst, cals, isSummary, complete } = net;
    const cal = cals[i]!;
    const d = net.dur[i]!;
    const lss = this.lss;
    const lfs = this.lf;
    const pf = this.projectFinish;
    const lf = this.parentLateBound(i, cal, d);
    let link = POS;
    let linkPos = NaN;
    for (let q = outStart[i]!, end = outStart[i + 1]!; q < end; q++) {
      const t = outType[q]!;
      const lag = outLag[q]!;
      const x = outDst[q]!;
      let c: number;
      if (lag === 0 && (t === FS || t === FF)) {
        // lateCandidate's FS/FF case without a lag.
        if (!isSummary[x] && complete[x]) continue;
        const own = t === FS ? lss[x]! : lfs[x]!;
        if (!Number.isFinite(lss[x]!) && !Number.isFinite(lfs[x]!)) continue;
        c = own < pf ? own : pf;
        if (c < link) {
          link = c;
          linkPos = c === own && cals[x] === cal && !isSummary[x] ? (t === FS ? this.pLs[x]! : this.pLf[x]!) : NaN;
        }
        continue;
      }
      c = this.lateCandidate(t, lag, x, cal, d, false, false);
      if (c < link) {
        link = c;
        linkPos = NaN;
      }
    }
    this.setLateDates(i, cal, link < lf ? link : lf, link, linkPos);
  }

  /** Finish-scheduled projects (our choice): SNET/FNET may push a task later than its successors allow. */
  private applyBackwardModeEarlyConstraints(i: number, lf: number, cal: WorkCalendar, d: number): number {
    const net = this.net;
    const c = net.cdate[i]!;
    if (net.ckind[i] === C_SNET) {
      const v = cal.addWork(c, d);
      if (v > lf) return v;
    } else if (net.ckind[i] === C_FNET && c > lf) return c;
    return lf;
  }

  private exitBackward(v: number): void {
    const net = this.net;
    const s = v - net.n;
    const cal = net.cals[s]!;
    let lf = this.projectFinish;
    let ls = POS;
    const p = net.parent[s]!;
    if (p >= 0) {
      const x = net.n + p;
      if (this.lf[x]! < lf) lf = this.lf[x]!;
      if (this.ls[x]! < ls && this.es[v] === this.es[x]) ls = this.ls[x]!;
    }
    for (let q = net.outStart[v]!; q < net.outStart[v + 1]!; q++) {
      const x = net.outDst[q]!;
      const t = net.outType[q]!;
      const c = this.lateCandidate(t, net.outLag[q]!, x, cal, 0, false, t === SS || t === SF);
      if (t === SS || t === SF) {
        if (c < ls) ls = c;
      } else if (c < lf) lf = c;
    }
    // Summary constraints (our choice): a summary FNLT (and deadline) bounds all its
    // leaves' late finish.
    if (net.ckind[s] === C_FNLT && net.cdate[s]! < lf) lf = net.cdate[s]!;
    if (net.deadline[s]! < lf) lf = net.deadline[s]!;
    this.lf[v] = lf;
    this.ls[v] = ls;
  }

  private entryBackward(i: number): void {
    const net = this.net;
    let ls = POS;
    let lf = POS;
    for (const c of net.children[i]!) {
      if (!net.isSummary[c] && net.complete[c]) continue;
      const a = this.lss[c]!;
      const b = this.lf[c]!;
      if (a < ls) ls = a;
      if (b < lf) lf = b;
    }
    this.lss[i] = ls;
    this.lf[i] = lf;
    this.ls[i] = ls;
  }

  // ---------------------------------------------------------------------------------------
  // Floats, criticality, rollups

  /**
   * Forward projects: an ALAP leaf sits at its late dates, but never earlier than its
   * links allow (negative slack keeps it at its early dates instead of breaking links).
   */
  private atLateDates(i: number): boolean {
    const net = this.net;
    return (
      net.ckind[i] === C_ALAP && !net.isSummary[i] && !net.started[i] && !net.manual[i] && this.lss[i]! >= this.es[i]!
    );
  }

  private leafFloat(i: number): void {
    const net = this.net;
    const cal = net.cals[i]!;
    this.touched[i] = 1;
    const es = this.es[i]!;
    const ef = this.ef[i]!;
    const ls = this.ls[i]!;
    const lf = this.lf[i]!;
    // Scheduled dates: ALAP at late dates in forward projects; in backward projects
    // everything but ASAP sits at its late dates.
    const useLate = net.backward
      ? net.ckind[i] !== C_ASAP && !net.started[i] && !net.manual[i]
      : this.atLateDates(i);
    this.start[i] = useLate ? this.lss[i]! : es;
    this.finish[i] = useLate ? lf : ef;
    // ALAP (forward) / ASAP (backward) slack is forced to 0, unless negative.
    const forcedZero = net.backward
      ? net.ckind[i] === C_ASAP && !net.manual[i] && !net.started[i] && this.lss[i]! >= es
      : useLate;
    let tf: number;
    // Working positions of es/ef/lf once looked up, reused for the free float below.
    let wEs = NaN;
    let wEf = NaN;
    let wLf = NaN;
    if (net.complete[i] && net.started[i]) tf = 0;
    else if (forcedZero) tf = 0;
    else {
      let finishSlack = 0;
      if (ef !== lf) {
        wLf = positionOf(cal, lf, this.pLf[i]!);
        wEf = positionOf(cal, ef, this.pEf[i]!);
        finishSlack = wLf - wEf;
      }
      if (net.started[i]) tf = finishSlack;
      else {
        let startSlack = 0;
        if (es !== ls) {
          const wLs = positionOf(cal, ls, this.pLs[i]!);
          wEs = positionOf(cal, es, this.pEs[i]!);
          startSlack = wLs - wEs;
        }
        tf = startSlack < finishSlack ? startSlack : finishSlack;
      }
    }
    this.tf[i] = tf;
    // Free float over own and inherited (summary) outgoing links.
    let ff = POS;
    if (!net.complete[i]) {
      const pES = useLate ? this.lss[i]! : es;
      const pEF = useLate ? lf : ef;
      this.fwS = pES === es ? wEs : NaN;
      this.fwF = pEF === ef ? wEf : pEF === lf ? wLf : NaN;
      ff = this.freeFloatFrom(i, cal, pES, pEF, ff);
      for (let p = net.parent[i]!; p >= 0; p = net.parent[p]!) {
        ff = this.freeFloatFrom(net.n + p, cal, pES, pEF, ff, i);
      }
      if (ff === POS) ff = tf;
      if (ff > tf) ff = tf;
      if (ff < 0) ff = 0;
    } else ff = 0;
    this.ff[i] = ff;
    this.crit[i] = tf <= 0 && !net.complete[i] && !(net.manual[i] && net.linkCount[i] === 0) ? 1 : 0;
    let bits = this.conflictBits[i]! & ~K_DEADLINE;
    if (net.deadline[i]! < this.finish[i]!) bits |= K_DEADLINE;
    this.conflictBits[i] = bits;
  }

  /**
   * `leafFloat` for a plain ASAP leaf (`Network.plain`) of a forward-scheduled project: it
   * sits at its early dates, without the progress, manual and late-date cases (fast path
   * `plainLeaves`).
   */
  private plainLeafFloat(i: number): void {
    const net = this.net;
    const cal = net.cals[i]!;
    this.touched[i] = 1;
    const es = this.es[i]!;
    const ef = this.ef[i]!;
    const ls = this.ls[i]!;
    const lf = this.lf[i]!;
    this.start[i] = es;
    this.finish[i] = ef;
    let wEs = NaN;
    let wEf = NaN;
    let finishSlack = 0;
    if (ef !== lf) {
      const wLf = positionOf(cal, lf, this.pLf[i]!);
      wEf = positionOf(cal, ef, this.pEf[i]!);
      finishSlack = wLf - wEf;
    }
    let startSlack = 0;
    if (es !== ls) {
      const wLs = positionOf(cal, ls, this.pLs[i]!);
      wEs = positionOf(cal, es, this.pEs[i]!);
      startSlack = wLs - wEs;
    }
    const tf = startSlack < finishSlack ? startSlack : finishSlack;
    this.tf[i] = tf;
    // Free float over own and inherited (summary) outgoing links, with the positions found so far.
    this.fwS = wEs;
    this.fwF = wEf;
    let ff = this.freeFloatFrom(i, cal, es, ef, POS);
    for (let p = net.parent[i]!; p >= 0; p = net.parent[p]!) ff = this.freeFloatFrom(net.n + p, cal, es, ef, ff, i);
    if (ff === POS) ff = tf;
    if (ff > tf) ff = tf;
    this.ff[i] = ff < 0 ? 0 : ff;
    this.crit[i] = tf <= 0 ? 1 : 0;
    let bits = this.conflictBits[i]! & ~K_DEADLINE;
    if (net.deadline[i]! < ef) bits |= K_DEADLINE;
    this.conflictBits[i] = bits;
  }

  private freeFloatFrom(v: number, cal: WorkCalendar, pES: number, pEF: number, acc: number, leaf = -1): number {
    const net = this.net;
    for (let q = net.outStart[v]!; q < net.outStart[v + 1]!; q++) {
      const t = net.outType[q]!;
      // Inherited SS/SF links bind only the summary's earliest leaf.
      if (leaf >= 0 && (t === SS || t === SF) && this.es[leaf] !== this.es[v]) continue;
      const x = net.outDst[q]!;
      let xES: number;
      let xEF: number;
      if (net.isSummary[x]) {
        xES = this.es[net.n + x]!;
        xEF = this.ef[net.n + x]!;
      } else {
        if (net.complete[x]) continue;
        const late = !net.backward && this.atLateDates(x);
        xES = late ? this.lss[x]! : this.es[x]!;
        xEF = late ? this.lf[x]! : this.ef[x]!;
      }
      const useF = t === FS || t === FF;
      const a = useF ? pEF : pES;
      const b = t === FS || t === SS ? xES : xEF;
      if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
      // cal.workBetween(a, b), with the position of a (always pES or pEF) looked up once
      // and that of b remembered by the passes when x is a leaf on the same calendar.
      const remembered = net.cals[x] === cal && !net.isSummary[x] ? (b === this.es[x] ? this.pEs[x]! : b === this.ef[x] ? this.pEf[x]! : NaN) : NaN;
      const wb = positionOf(cal, b, remembered);
      let wa = useF ? this.fwF : this.fwS;
      if (wa !== wa) {
        wa = cal.position(a);
        if (useF) this.fwF = wa;
        else this.fwS = wa;
      }
      const w = wb - wa - net.outLag[q]!;
      if (w < acc) acc = w;
    }
    return acc;
  }

  private summaryRollup(s: number): void {
    const net = this.net;
    const n = net.n;
    this.touched[s] = 1;
    this.dirtyT[s] = 1;
    let start = POS;
    let finish = NEG;
    let es = POS;
    let ef = NEG;
    let ls = POS;
    let lf = NEG;
    let crit = 0;
    for (const c of net.children[s]!) {
      if (this.start[c]! < start) start = this.start[c]!;
      if (this.finish[c]! > finish) finish = this.finish[c]!;
      let a: number;
      let b: number;
      let la: number;
      let lb: number;
      if (net.isSummary[c]) {
        a = this.sumES[c]!;
        b = this.sumEF[c]!;
        la = this.sumLS[c]!;
        lb = this.sumLF[c]!;
      } else {
        const alap = !net.backward && this.atLateDates(c);
        a = alap ? this.lss[c]! : this.es[c]!;
        b = alap ? this.lf[c]! : this.ef[c]!;
        la = net.manual[c] ? this.es[c]! : this.ls[c]!;
        lb = net.manual[c] ? this.ef[c]! : this.lf[c]!;
      }
      if (a < es) es = a;
      if (b > ef) ef = b;
      if (la < ls) ls = la;
      if (lb > lf) lf = lb;
      if (this.crit[c]) crit = 1;
    }
    this.start[s] = start;
    this.finish[s] = finish;
    this.sumES[s] = es;
    this.sumEF[s] = ef;
    this.sumLS[s] = ls;
    this.sumLF[s] = lf;
    const cal = net.cals[s]!;
    const tf = Math.min(cal.workBetween(es, ls), cal.workBetween(ef, lf));
    this.tf[s] = tf;
    this.fwS = NaN;
    this.fwF = NaN;
    let ff = this.freeFloatFrom(n + s, cal, es, ef, POS);
    if (ff === POS || ff > tf) ff = tf;
    this.ff[s] = ff < 0 ? 0 : ff;
    this.crit[s] = crit;
    this.conflictBits[s] = net.deadline[s]! < finish ? K_DEADLINE : 0;
  }

  // ---------------------------------------------------------------------------------------
  // Output

  private buildResult(prev: ScheduleResult | null, full: boolean): void {
    const net = this.net;
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
    if (!full) this.rows = this.rows.slice();
    const rows = this.rows;
    for (let i = 0; i < n; i++) {
      if (!full && !this.touched[i] && !this.dirtyT[i]) continue;
      recomputed++;
      const row = this.makeRow(i);
      const old = full ? (prev ? previousRow(i, row.id) : null) : rows[i];
      rows[i] = row;
      if (old !== null && (!old || !sameRow(old, row))) changed.push(row.id);
    }
    this.dirtyT.fill(0);
    this.touched.fill(0);
    let pStart = POS;
    let pFinish = NEG;
    for (let i = 0; i < n; i++) {
      if (net.isSummary[i]) continue;
      if (this.start[i]! < pStart) pStart = this.start[i]!;
      if (this.finish[i]! > pFinish) pFinish = this.finish[i]!;
    }
    const conflicts: Conflict[] = [];
    for (let i = 0; i < n; i++) {
      const bits = this.conflictBits[i]!;
      if (bits) this.addConflicts(i, bits, conflicts);
    }
    this.result = {
      tasks: rows,
      conflicts,
      cycles: net.cycles.slice(),
      projectStartAt: Number.isFinite(pStart) ? toIsoString(pStart) : null,
      projectFinishAt: Number.isFinite(pFinish) ? toIsoString(pFinish) : null,
      stats: { taskCount: n, recomputedCount: recomputed },
      changedTaskIds: changed,
    };
  }

  private addConflicts(i: number, bits: number, out: Conflict[]): void {
    const net = this.net;
    const id = net.ids[i]!;
    const name = net.tasks[i]!.name ?? net.tasks[i]!.key ?? id;
    const startAt = toIsoString(this.start[i]!);
    const finishAt = toIsoString(this.finish[i]!);
    const dep = this.linkDep[i]! >= 0 ? net.deps[this.linkDep[i]!]!.id : undefined;
    if (bits & K_LINK) {
      const c: Conflict = {
        kind: 'constraint_vs_link',
        taskId: id,
        message: `Constraint on "${name}" schedules it before its predecessors allow (${toIsoString(this.linkReq[i]!)}).`,
        requiredStartAt: toIsoString(this.linkReq[i]!),
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
        message: `Manually scheduled "${name}" starts before its predecessors allow (${toIsoString(this.linkReq[i]!)}).`,
        requiredStartAt: toIsoString(this.linkReq[i]!),
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
        requiredStartAt: toIsoString(this.projectStartEff),
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

  private makeRow(i: number): TaskResult {
    const net = this.net;
    const sum = net.isSummary[i] === 1;
    const es = sum ? this.sumES[i]! : this.es[i]!;
    const ef = sum ? this.sumEF[i]! : this.ef[i]!;
    const ls = sum ? this.sumLS[i]! : this.ls[i]!;
    const lf = sum ? this.sumLF[i]! : this.lf[i]!;
    let duration = net.dur[i]!;
    let progress = net.progress[i]!;
    if (sum) {
      duration = net.cals[i]!.workBetween(this.start[i]!, this.finish[i]!);
      progress = this.summaryProgress(i);
    }
    // Most dates coincide (start = early start, …): reuse their strings.
    const start = this.start[i]!;
    const finish = this.finish[i]!;
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
      totalFloatMin: Math.round(this.tf[i]!) || 0,
      freeFloatMin: Math.round(this.ff[i]!) || 0,
      isCritical: this.crit[i] === 1,
      durationMin: duration,
      isSummary: sum,
      isMilestone: !sum && net.milestone[i] === 1,
      pertDurationMin: Number.isFinite(net.pert[i]!) ? net.pert[i]! : null,
      progressPct: Math.round(progress * 100) / 100,
    };
  }

  /** Σ actual duration ÷ Σ duration over leaf descendants. */
  private summaryProgress(s: number): number {
    const net = this.net;
    let a = 0;
    let d = 0;
    let open = false;
    const stack = [s];
    while (stack.length) {
      const v = stack.pop()!;
      for (const c of net.children[v]!) {
        if (net.isSummary[c]) stack.push(c);
        else {
          a += net.actualDur[c]!;
          d += net.dur[c]!;
          if (net.dur[c]! > 0 && !net.complete[c]) open = true;
        }
      }
    }
    const pct = d > 0 ? (100 * a) / d : 0;
    // Actual minutes are whole: a 99.99 % subtask may count its full duration as done.
    return open && pct > 99.99 ? 99.99 : pct;
  }
}

/**
 * Finds tasks of a new input by id: first at the position the task had in the previous
 * input (the usual case: the same tasks in the same order), else through an id map built
 * on the first miss. With duplicate ids the earliest wins, as in `Network`.
 */
type TaskFinder = (id: string) => ScheduleInput['tasks'][number] | undefined;

function taskFinder(input: ScheduleInput, net: Network): TaskFinder {
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

/** Instant t's working position on `cal`: `remembered` when known (not NaN), else looked up. */
function positionOf(cal: WorkCalendar, t: number, remembered: number): number {
  return remembered === remembered ? remembered : cal.position(t);
}

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
    a.pertDurationMin === b.pertDurationMin &&
    a.isMilestone === b.isMilestone &&
    a.isSummary === b.isSummary &&
    a.id === b.id
  );
}
