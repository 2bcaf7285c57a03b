import { clockCalendar, compileCalendars, STANDARD_CALENDAR, type WorkCalendar } from './calendar.js';
import { toEpochMinutes } from './instant.js';
import { pertExpectedDuration } from './pert.js';
import { typedArrays } from './typed-arrays.js';
import type { CycleReport, DependencyInput, ScheduleInput, TaskInput } from './types.js';

/**
 * Edge kinds; 4 is a summary hierarchy edge, which exists explicitly only inside the cycle
 * search (the graph itself holds links only, the hierarchy is `parent`/`children`).
 */
export const FS = 0;
export const SS = 1;
export const FF = 2;
export const SF = 3;
export const HIER = 4;

/** Constraint kinds as small integers. */
export const C_ASAP = 0;
export const C_ALAP = 1;
export const C_SNET = 2;
export const C_SNLT = 3;
export const C_FNET = 4;
export const C_FNLT = 5;
export const C_MSO = 6;
export const C_MFO = 7;

const CONSTRAINT_CODES: Record<string, number> = {
  asap: C_ASAP,
  alap: C_ALAP,
  start_no_earlier_than: C_SNET,
  start_no_later_than: C_SNLT,
  finish_no_earlier_than: C_FNET,
  finish_no_later_than: C_FNLT,
  must_start_on: C_MSO,
  must_finish_on: C_MFO,
};
const LINK_CODES: Record<string, number> = { FS, SS, FF, SF };

const NONE = Number.NaN;
const NO_CHILDREN: number[] = [];

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function num(v: unknown, dflt: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : dflt;
}

function minutes(v: unknown): number {
  return Math.max(0, Math.round(num(v, 0)));
}

/**
 * The compiled plan: tasks in `id` order, a node graph and per-task scheduling parameters
 * in typed arrays. Graph nodes: a leaf task i is node i; a summary i has an *entry* node i
 * (collects links into the summary and hands them down to its children) and an *exit*
 * node n+i (rolls its children up and feeds links out of the summary). This turns summary
 * links into O(1) edges instead of expanding them per leaf, and makes "summary linked to
 * its own child" an ordinary cycle. The hierarchy relations (entry p → child i, out node of
 * i → exit n+p) are implicit: only links are stored as edges.
 */
export class Network {
  readonly n: number;
  readonly ids: string[];
  readonly index: Map<string, number>;
  /** Task i's position in the input's `tasks` (where an incremental update looks for it first). */
  readonly inputPos: Int32Array;
  readonly tasks: TaskInput[];
  readonly parent: Int32Array;
  readonly isSummary: Uint8Array;
  readonly children: number[][];
  /**
   * The calendar each task's duration runs on: its working calendar, or for a leaf with an
   * elapsed duration the clock of that calendar's zone (`clockOf`).
   */
  readonly cals: WorkCalendar[];
  /** Each task's working calendar (its own, else the project's): working lags into it count there. */
  readonly workCals: WorkCalendar[];
  readonly projectCal: WorkCalendar;
  readonly calendars: Map<string, WorkCalendar>;
  readonly backward: boolean;
  /** Project start (forward) in epoch minutes; for backward mode the anchor finish. */
  readonly projectStart: number;
  readonly projectAnchorFinish: number;

  // Per-task parameters (refreshable by `loadTask`).
  readonly dur: Float64Array;
  readonly remaining: Float64Array;
  readonly actualDur: Float64Array;
  readonly actualStart: Float64Array;
  readonly actualFinish: Float64Array;
  readonly started: Uint8Array;
  readonly complete: Uint8Array;
  readonly manual: Uint8Array;
  /** 1 for a manual task whose duration is an estimate (Project's "1 day?"): without links it is never critical. */
  readonly tentative: Uint8Array;
  readonly manualStart: Float64Array;
  readonly manualFinish: Float64Array;
  readonly ckind: Uint8Array;
  /** Constraint date snapped to working time (start-type: next start; finish-type: normalized). */
  readonly cdate: Float64Array;
  readonly deadline: Float64Array;
  readonly delay: Float64Array;
  readonly milestone: Uint8Array;
  readonly pert: Float64Array;
  readonly progress: Float64Array;
  /**
   * 1 when the task's own fields leave the passes nothing but its links to follow: not
   * started or complete, not manually scheduled, no milestone, no date constraint or
   * leveling delay (ALAP allowed: it ignores both in the passes). See `plainLeafBackward` (backward.ts).
   */
  readonly plain: Uint8Array;
  /** Number of link edges touching the task (tentative manual tasks without links are never critical). */
  readonly linkCount: Int32Array;

  // Edges.
  readonly deps: DependencyInput[];
  readonly edgeSrc: Int32Array;
  readonly edgeDst: Int32Array;
  readonly edgeType: Int8Array;
  readonly edgeLag: Float64Array;
  /** 1 when the edge's lag is elapsed time (counted on the clock, `lagCalendar`), only for a lag other than 0. */
  readonly edgeLagElapsed: Uint8Array;
  readonly edgeDep: Int32Array;
  /** CSR adjacency over nodes 0..2n-1: outgoing edge ids, and the ranges of both directions. */
  outStart: Int32Array = new Int32Array(0);
  outEdges: Int32Array = new Int32Array(0);
  inStart: Int32Array = new Int32Array(0);
  /** Per adjacency slot q: the attributes of the incoming / outgoing edge there. */
  inSrc: Int32Array = new Int32Array(0);
  inType: Int8Array = new Int8Array(0);
  inLag: Float64Array = new Float64Array(0);
  inLagElapsed: Uint8Array = new Uint8Array(0);
  inDep: Int32Array = new Int32Array(0);
  outDst: Int32Array = new Int32Array(0);
  outType: Int8Array = new Int8Array(0);
  outLag: Float64Array = new Float64Array(0);
  outLagElapsed: Uint8Array = new Uint8Array(0);
  /** Live nodes in topological order. */
  topo: Int32Array = new Int32Array(0);
  readonly cycles: CycleReport[] = [];
  /** Dependency ids ignored because they close a cycle or are invalid. */
  readonly ignoredDependencyIds: string[] = [];
  private depIndexCache: Map<string, number> | null = null;
  /** The clock calendars of the zones in use, by zone name (`clockOf`). */
  private readonly clocks = new Map<string, WorkCalendar>();
  readonly hasAlap: boolean;

  constructor(input: ScheduleInput) {
    // Deterministic: tasks are numbered by id; with duplicate ids the earliest wins. Input
    // already sorted by id (the common case) is indexed in the same pass.
    const list = Array.isArray(input?.tasks) ? input.tasks : [];
    let index = new Map<string, number>();
    let last: string | null = null;
    let ordered = true;
    for (let k = 0; k < list.length; k++) {
      const t = list[k];
      if (t === null || typeof t !== 'object' || typeof t.id !== 'string' || (last !== null && !(last < t.id))) {
        ordered = false;
        break;
      }
      index.set(t.id, k);
      last = t.id;
    }
    let tasks: TaskInput[];
    let ids: string[];
    let inputPos: Int32Array;
    if (ordered) {
      tasks = list.slice();
      ids = new Array<string>(list.length);
      inputPos = new Int32Array(list.length);
      for (let k = 0; k < list.length; k++) {
        ids[k] = list[k]!.id;
        inputPos[k] = k;
      }
    } else {
      // Positions sorted by (id, position), comparing ids read once into a flat array.
      const idAt = new Array<string>(list.length);
      const positions: number[] = [];
      for (let k = 0; k < list.length; k++) {
        const t = list[k];
        if (t !== null && typeof t === 'object' && typeof t.id === 'string') {
          idAt[k] = t.id;
          positions.push(k);
        }
      }
      positions.sort((a, b) => {
        const x = idAt[a]!;
        const y = idAt[b]!;
        return x < y ? -1 : x > y ? 1 : a - b;
      });
      tasks = [];
      ids = [];
      const pos: number[] = [];
      index = new Map<string, number>();
      let prev: string | null = null;
      for (const k of positions) {
        const id = idAt[k]!;
        // Sorted, so duplicates are adjacent; the earliest in the input wins.
        if (id === prev) continue;
        prev = id;
        index.set(id, tasks.length);
        tasks.push(list[k]!);
        ids.push(id);
        pos.push(k);
      }
      inputPos = Int32Array.from(pos);
    }
    this.inputPos = inputPos;
    const n = tasks.length;
    this.n = n;
    this.tasks = tasks;
    this.ids = ids;
    this.index = index;
    this.calendars = compileCalendars(input?.calendars ?? []);
    const project = input?.project ?? ({ startAt: '' } as ScheduleInput['project']);
    this.projectCal = this.calendars.get(project.calendarId ?? '') ?? this.calendars.get(STANDARD_CALENDAR.id)!;
    this.backward = project.scheduleFrom === 'backward';
    const ps = toEpochMinutes(project.startAt);
    const anchor = toEpochMinutes(project.finishAt ?? project.deadline ?? null);
    this.projectStart = ps ?? anchor ?? 0;
    // docs/scheduling.md, decision 8: backward projects are anchored at the end of the
    // deadline's working day.
    let af = NONE;
    if (anchor !== null) {
      const pc = this.projectCal;
      const dayStartLocal = Math.floor(pc.zone.toLocal(anchor) / 1440) * 1440;
      af = pc.normalizeFinish(pc.zone.toUtc(dayStartLocal + 1440));
    }
    this.projectAnchorFinish = af;
    if (this.backward && Number.isNaN(af)) this.backward = false;

    // loadTask sets every element of these for each task: no initial values needed.
    const f64 = typedArrays(Float64Array, 12 * n);
    this.dur = f64(n);
    this.remaining = f64(n);
    this.actualDur = f64(n);
    this.actualStart = f64(n);
    this.actualFinish = f64(n);
    this.manualStart = f64(n);
    this.manualFinish = f64(n);
    this.cdate = f64(n);
    this.deadline = f64(n);
    this.delay = f64(n);
    this.pert = f64(n);
    this.progress = f64(n);
    const u8 = typedArrays(Uint8Array, 7 * n);
    this.started = u8(n);
    this.complete = u8(n);
    this.manual = u8(n);
    this.tentative = u8(n);
    this.ckind = u8(n);
    this.milestone = u8(n);
    this.plain = u8(n);
    this.linkCount = new Int32Array(n);
    // One pass over the task objects: parent, calendar and scheduling parameters. Unknown
    // parents become top level (parent cycles are cut below); siblings usually come
    // together, so the last parent id looked up is remembered, as is the last calendar.
    const parent = new Int32Array(n).fill(-1);
    const cals: WorkCalendar[] = new Array<WorkCalendar>(n);
    const workCals: WorkCalendar[] = new Array<WorkCalendar>(n);
    this.cals = cals;
    this.workCals = workCals;
    let lastP: string | null = null;
    let lastPi: number | undefined;
    let lastCalId: unknown = null;
    let lastCal = this.projectCal;
    for (let i = 0; i < n; i++) {
      const t = tasks[i]!;
      const p = t.parentId;
      if (p !== null && p !== undefined) {
        let pi: number | undefined;
        if (p === lastP) pi = lastPi;
        else {
          pi = typeof p === 'string' ? this.index.get(p) : undefined;
          lastP = p;
          lastPi = pi;
        }
        if (pi !== undefined && pi !== i) parent[i] = pi;
      }
      const cid = t.calendarId;
      let cal = this.projectCal;
      if (cid !== null && cid !== undefined) {
        if (cid !== lastCalId) {
          lastCalId = cid;
          lastCal = this.calendars.get(cid) ?? this.projectCal;
        }
        cal = lastCal;
      }
      workCals[i] = cal;
      // Taken as a leaf's until the hierarchy is known (a summary is set back below).
      cals[i] = t.durationElapsed === true ? this.clockOf(cal) : cal;
      this.loadTask(i, t);
    }
    const state = new Uint8Array(n);
    const path = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      if (state[i]) continue;
      let len = 0;
      let v = i;
      while (v >= 0 && state[v] === 0) {
        state[v] = 1;
        path[len++] = v;
        v = parent[v]!;
      }
      if (v >= 0 && state[v] === 1) parent[v] = -1; // v closes a parent loop: cut it there
      for (let k = 0; k < len; k++) state[path[k]!] = 2;
    }
    this.parent = parent;
    const children: number[][] = new Array<number[]>(n).fill(NO_CHILDREN);
    for (let i = 0; i < n; i++) {
      const p = parent[i]!;
      if (p < 0) continue;
      if (children[p] === NO_CHILDREN) children[p] = [i];
      else children[p]!.push(i);
    }
    this.children = children;
    const isSummary = new Uint8Array(n);
    let hasAlap = false;
    for (let i = 0; i < n; i++) {
      if (children[i]!.length > 0) {
        isSummary[i] = 1;
        // A summary's duration is rolled up on its working calendar, never elapsed.
        if (cals[i] !== workCals[i]) {
          cals[i] = workCals[i]!;
          this.loadTask(i, tasks[i]!);
        }
      } else if (this.ckind[i] === C_ALAP) hasAlap = true;
    }
    this.isSummary = isSummary;
    this.hasAlap = hasAlap;

    // Dependencies keep their input order: results never depend on it (ties between links
    // are broken by dependency id, cycle reports are canonicalised).
    const links = compileLinks(Array.isArray(input?.dependencies) ? input.dependencies : [], this.index, isSummary, this.linkCount, n, this.ignoredDependencyIds);
    this.deps = links.deps;
    this.edgeSrc = links.src;
    this.edgeDst = links.dst;
    this.edgeType = links.type;
    this.edgeLag = links.lag;
    this.edgeLagElapsed = links.lagElapsed;
    this.edgeDep = links.dep;
    this.buildGraph();
  }

  /** (Re)reads one task's scheduling parameters; the graph shape is not touched. */
  loadTask(i: number, t: TaskInput): void {
    // Each field is read once, and fields that only matter beside another one (an actual
    // finish beside an actual start, manual dates of a manually scheduled task, the
    // pessimistic beside the optimistic estimate) only when that one is set: task objects
    // come in many shapes, and each property read pays for that.
    const cal = this.cals[i]!;
    this.tasks[i] = t;
    const isMilestone = t.type === 'milestone';
    const durationIn = t.durationMin;
    let dur = isMilestone ? 0 : minutes(durationIn);
    const as = toEpochMinutes(t.actualStartAt);
    const af = as === null ? null : toEpochMinutes(t.actualFinishAt);
    const pct = Math.min(100, Math.max(0, num(t.progressPct, 0)));
    const actualIn = t.actualDurationMin;
    let actual = actualIn !== null && actualIn !== undefined ? minutes(actualIn) : Math.round((dur * pct) / 100);
    let rem: number;
    if (as !== null && af !== null && af >= as) {
      // docs/scheduling.md, decision 9: an actual finish fixes the duration to the worked span.
      dur = isMilestone ? 0 : Math.max(0, cal.workBetween(as, af));
      actual = dur;
      rem = 0;
    } else if (as !== null) {
      const remIn = t.remainingDurationMin;
      rem = remIn !== null && remIn !== undefined ? minutes(remIn) : dur - actual;
      dur = Math.max(dur, actual + Math.max(0, rem));
      rem = Math.max(0, dur - actual);
    } else {
      rem = dur;
    }
    this.dur[i] = dur;
    this.remaining[i] = Math.max(0, rem);
    this.actualDur[i] = Math.min(actual, dur);
    this.milestone[i] = isMilestone || dur === 0 ? 1 : 0;
    this.actualStart[i] = as ?? NONE;
    this.actualFinish[i] = as !== null && af !== null && af >= as ? af : NONE;
    this.started[i] = as !== null ? 1 : 0;
    this.complete[i] = (as !== null && af !== null && af >= as) || pct >= 100 ? 1 : 0;
    const progress = dur > 0 ? (100 * this.actualDur[i]!) / dur : pct >= 100 || Number.isFinite(this.actualFinish[i]!) ? 100 : 0;
    // Actual minutes are whole: only a complete task shows 100 %.
    this.progress[i] = this.complete[i] || progress <= 99.99 ? progress : 99.99;
    const ms = t.manuallyScheduled === true ? toEpochMinutes(t.manualStartAt) : null;
    this.manual[i] = ms !== null ? 1 : 0;
    this.tentative[i] = ms !== null && t.durationEstimated === true ? 1 : 0;
    this.manualStart[i] = ms ?? NONE;
    this.manualFinish[i] = ms !== null ? (toEpochMinutes(t.manualFinishAt) ?? NONE) : NONE;
    const kind = t.constraintKind;
    const ck = kind === undefined || kind === null || kind === 'asap' ? C_ASAP : (CONSTRAINT_CODES[kind] ?? C_ASAP);
    const cd = toEpochMinutes(t.constraintDate);
    if (ck >= C_SNET && cd === null) {
      this.ckind[i] = C_ASAP;
      this.cdate[i] = NONE;
    } else {
      this.ckind[i] = ck;
      if (cd === null) this.cdate[i] = NONE;
      else if (ck === C_SNET || ck === C_SNLT || ck === C_MSO)
        this.cdate[i] = this.milestone[i] ? cal.nextMilestoneStart(cd) : cal.nextWorkStart(cd);
      else this.cdate[i] = cal.normalizeFinish(cd);
    }
    this.deadline[i] = toEpochMinutes(t.deadline) ?? NONE;
    const delay = minutes(t.levelingDelayMin);
    this.delay[i] = delay;
    const ck1 = this.ckind[i];
    this.plain[i] =
      !this.started[i] && !this.complete[i] && !this.manual[i] && !this.milestone[i] && (ck1 === C_ALAP || (ck1 === C_ASAP && delay === 0)) ? 1 : 0;
    const po = t.durationOptimisticMin;
    const pp = typeof po === 'number' ? t.durationPessimisticMin : undefined;
    this.pert[i] = typeof po === 'number' && typeof pp === 'number' ? (pertExpectedDuration(po, minutes(durationIn), pp) ?? NONE) : NONE;
  }

  /** Dependency id → index in `deps` (first occurrence), built on first use. */
  get depIndex(): Map<string, number> {
    if (this.depIndexCache === null) {
      const m = new Map<string, number>();
      for (let k = 0; k < this.deps.length; k++) if (!m.has(this.deps[k]!.id)) m.set(this.deps[k]!.id, k);
      this.depIndexCache = m;
    }
    return this.depIndexCache;
  }

  /** The clock of `cal`'s zone: what elapsed durations and lags run on (one calendar per zone). */
  clockOf(cal: WorkCalendar): WorkCalendar {
    let clock = this.clocks.get(cal.zone.name);
    if (clock === undefined) this.clocks.set(cal.zone.name, (clock = clockCalendar(cal.zone)));
    return clock;
  }

  /**
   * The calendar a lag into task v counts on (decision 2: the successor's; in the forward
   * pass a link into a summary counts on each of its leaves, so v is the leaf): its working
   * calendar, or the clock of that calendar's zone for an elapsed lag.
   */
  lagCalendar(v: number, elapsed: boolean): WorkCalendar {
    const cal = this.workCals[v]!;
    return elapsed ? this.clockOf(cal) : cal;
  }

  /** Node through which links *out of* task i leave. */
  outNode(i: number): number {
    return this.isSummary[i] ? this.n + i : i;
  }

  private buildGraph(): void {
    // Only links are edges; the summary hierarchy (entry p → child i, outNode(i) → exit
    // n+p) is implied by `parent`/`children` and handled by the topological sort and the
    // passes directly (see `reportCycles`, which needs it explicit).
    this.buildCsr();
    if (!this.sortTopologically()) {
      this.reportCycles();
      this.buildCsr();
      this.sortTopologically();
    }
    this.ignoredDependencyIds.sort(cmpStr);
  }

  private buildCsr(): void {
    const N = 2 * this.n;
    const m = this.edgeSrc.length;
    const eSrc = this.edgeSrc;
    const eDst = this.edgeDst;
    const eType = this.edgeType;
    const eLag = this.edgeLag;
    const eLagElapsed = this.edgeLagElapsed;
    const eDep = this.edgeDep;
    // Degrees counted at each node's slot, summed up to its range's end, then every edge
    // placed from the back of its range in reverse: ranges keep the edges' order, and each
    // start ends up where the node's range begins.
    const outStart = new Int32Array(N + 1);
    const inStart = new Int32Array(N + 1);
    let live = 0;
    for (let e = 0; e < m; e++) {
      if (eType[e]! < 0) continue;
      live++;
      outStart[eSrc[e]!]!++;
      inStart[eDst[e]!]!++;
    }
    for (let v = 1; v < N; v++) {
      outStart[v]! += outStart[v - 1]!;
      inStart[v]! += inStart[v - 1]!;
    }
    outStart[N] = live;
    inStart[N] = live;
    // Edge attributes are also copied into adjacency order, so the passes read them
    // sequentially instead of through the edge id.
    const outEdges = new Int32Array(live);
    const outDst = new Int32Array(live);
    const outType = new Int8Array(live);
    const outLag = new Float64Array(live);
    const outLagElapsed = new Uint8Array(live);
    const inSrc = new Int32Array(live);
    const inType = new Int8Array(live);
    const inLag = new Float64Array(live);
    const inLagElapsed = new Uint8Array(live);
    const inDep = new Int32Array(live);
    for (let e = m - 1; e >= 0; e--) {
      const t = eType[e]!;
      if (t < 0) continue;
      const a = eSrc[e]!;
      const b = eDst[e]!;
      const lag = eLag[e]!;
      const elapsed = eLagElapsed[e]!;
      const qo = --outStart[a]!;
      outEdges[qo] = e;
      outDst[qo] = b;
      outType[qo] = t;
      outLag[qo] = lag;
      outLagElapsed[qo] = elapsed;
      const qi = --inStart[b]!;
      inSrc[qi] = a;
      inType[qi] = t;
      inLag[qi] = lag;
      inLagElapsed[qi] = elapsed;
      inDep[qi] = eDep[e]!;
    }
    this.outStart = outStart;
    this.outEdges = outEdges;
    this.inStart = inStart;
    this.inSrc = inSrc;
    this.inType = inType;
    this.inLag = inLag;
    this.inLagElapsed = inLagElapsed;
    this.inDep = inDep;
    this.outDst = outDst;
    this.outType = outType;
    this.outLag = outLag;
    this.outLagElapsed = outLagElapsed;
  }

  /** Changes the lag of edge e and whether it is elapsed (and their copies in adjacency order). */
  setEdgeLag(e: number, lag: number, lagElapsed: boolean): void {
    const elapsed = lagElapsed && lag !== 0 ? 1 : 0;
    this.edgeLag[e] = lag;
    this.edgeLagElapsed[e] = elapsed;
    const a = this.edgeSrc[e]!;
    const b = this.edgeDst[e]!;
    for (let q = this.outStart[a]!; q < this.outStart[a + 1]!; q++) {
      if (this.outEdges[q] !== e) continue;
      this.outLag[q] = lag;
      this.outLagElapsed[q] = elapsed;
    }
    for (let q = this.inStart[b]!; q < this.inStart[b + 1]!; q++) {
      if (this.inDep[q] !== this.edgeDep[e]) continue;
      this.inLag[q] = lag;
      this.inLagElapsed[q] = elapsed;
    }
  }

  isLive(v: number): boolean {
    return v < this.n || this.isSummary[v - this.n] === 1;
  }

  /**
   * Kahn's algorithm with a stack instead of a queue: a node that becomes ready is visited
   * next, so the order follows chains of links (depth first) and the passes find a node's
   * predecessors' dates still in the CPU cache. Deterministic for a given network; no
   * result depends on the order among ready nodes.
   */
  private sortTopologically(): boolean {
    const n = this.n;
    const N = 2 * n;
    const inStart = this.inStart;
    const outStart = this.outStart;
    const outDst = this.outDst;
    const isSummary = this.isSummary;
    const parent = this.parent;
    const children = this.children;
    const indeg = new Int32Array(N);
    for (let v = 0; v < N; v++) indeg[v] = inStart[v + 1]! - inStart[v]!;
    // Implicit hierarchy edges: entry p → child i and outNode(i) → exit n+p.
    for (let i = 0; i < n; i++) {
      const p = parent[i]!;
      if (p < 0) continue;
      indeg[i]!++;
      indeg[n + p]!++;
    }
    const topo = new Int32Array(N);
    const ready = new Int32Array(N);
    let top = 0;
    let tail = 0;
    let live = 0;
    // Sources pushed in reverse, so they are taken in node order.
    for (let v = N - 1; v >= 0; v--) {
      // isLive(v), inlined.
      if (v >= n && isSummary[v - n] !== 1) continue;
      live++;
      if (indeg[v] === 0) ready[top++] = v;
    }
    while (top > 0) {
      const v = ready[--top]!;
      topo[tail++] = v;
      // Links pushed first, hierarchy successors last (so they come next, in child order).
      for (let k = outStart[v + 1]! - 1; k >= outStart[v]!; k--) {
        const w = outDst[k]!;
        if (--indeg[w]! === 0) ready[top++] = w;
      }
      if (v < n) {
        if (isSummary[v] === 1) {
          const cs = children[v]!;
          for (let k = cs.length - 1; k >= 0; k--) {
            const c = cs[k]!;
            if (--indeg[c]! === 0) ready[top++] = c;
          }
        } else if (parent[v]! >= 0) {
          const w = n + parent[v]!;
          if (--indeg[w]! === 0) ready[top++] = w;
        }
      } else if (parent[v - n]! >= 0) {
        const w = n + parent[v - n]!;
        if (--indeg[w]! === 0) ready[top++] = w;
      }
    }
    this.topo = topo.subarray(0, tail);
    return tail === live;
  }

  /** Finds strongly connected components, reports cycles and disables the links inside them. */
  private reportCycles(): void {
    // The cycle search needs the hierarchy as explicit edges: links keep their edge ids
    // 0..m-1, hierarchy edges (type HIER) follow.
    const n = this.n;
    const N = 2 * n;
    const m = this.edgeSrc.length;
    let h = 0;
    for (let i = 0; i < n; i++) if (this.parent[i]! >= 0) h += 2;
    const eSrc = new Int32Array(m + h);
    const eDst = new Int32Array(m + h);
    const eType = new Int8Array(m + h);
    eSrc.set(this.edgeSrc);
    eDst.set(this.edgeDst);
    eType.set(this.edgeType);
    let e0 = m;
    for (let i = 0; i < n; i++) {
      const p = this.parent[i]!;
      if (p < 0) continue;
      eSrc[e0] = p;
      eDst[e0] = i;
      eType[e0++] = HIER;
      eSrc[e0] = this.outNode(i);
      eDst[e0] = n + p;
      eType[e0++] = HIER;
    }
    const outStart = new Int32Array(N + 1);
    for (let e = 0; e < m + h; e++) if (eType[e]! >= 0) outStart[eSrc[e]! + 1]!++;
    for (let v = 0; v < N; v++) outStart[v + 1]! += outStart[v]!;
    const outEdges = new Int32Array(outStart[N]!);
    const oc = outStart.slice(0, N);
    for (let e = 0; e < m + h; e++) if (eType[e]! >= 0) outEdges[oc[eSrc[e]!]!++] = e;
    const scc = stronglyConnected(N, outStart, outEdges, eDst, (v) => this.isLive(v));
    const comp = scc.comp;
    const covered = new Set<number>();
    const found = new Map<string, CycleReport>();
    // Canonical order (by dependency id) so reports never depend on input order.
    const order: number[] = [];
    for (let e = 0; e < m; e++) if (eType[e] !== HIER && comp[eSrc[e]!] === comp[eDst[e]!]) order.push(e);
    order.sort((x, y) => cmpStr(this.deps[this.edgeDep[x]!]!.id, this.deps[this.edgeDep[y]!]!.id) || x - y);
    for (const e of order) {
      const a = eSrc[e]!;
      const b = eDst[e]!;
      if (eType[e] === HIER || comp[a] !== comp[b] || covered.has(e)) continue;
      // Shortest path b → a inside the component closes a cycle through e.
      const path = shortestPath(b, a, comp, outStart, outEdges, eDst);
      if (path === null) continue;
      const nodes = [a, ...path];
      for (let k = 0; k < nodes.length - 1; k++) {
        for (let q = outStart[nodes[k]!]!; q < outStart[nodes[k]! + 1]!; q++) {
          const ee = outEdges[q]!;
          if (eDst[ee] === nodes[k + 1] && eType[ee] !== HIER) covered.add(ee);
        }
      }
      const report = this.describeCycle(nodes);
      if (!found.has(report.path)) found.set(report.path, report);
    }
    this.cycles.push(...[...found.values()].sort((x, y) => cmpStr(x.path, y.path)));
    for (let e = 0; e < m; e++) {
      if (this.edgeType[e] !== HIER && comp[this.edgeSrc[e]!] === comp[this.edgeDst[e]!]) {
        this.ignoredDependencyIds.push(this.deps[this.edgeDep[e]!]!.id);
        this.edgeType[e] = -1;
      }
    }
  }

  /** Maps a node cycle (first node repeated implicitly) to task labels, rotated to start at the smallest id. */
  private describeCycle(nodes: number[]): CycleReport {
    const taskOf = (v: number) => (v >= this.n ? v - this.n : v);
    const seq: number[] = [];
    for (const v of nodes) {
      const t = taskOf(v);
      if (seq[seq.length - 1] !== t) seq.push(t);
    }
    while (seq.length > 1 && seq[0] === seq[seq.length - 1]) seq.pop();
    let best = 0;
    for (let k = 1; k < seq.length; k++) if (seq[k]! < seq[best]!) best = k;
    const rot = [...seq.slice(best), ...seq.slice(0, best)];
    const label = (i: number) => {
      const t = this.tasks[i]!;
      return t.key ?? t.name ?? t.id;
    };
    const taskIds = rot.map((i) => this.ids[i]!);
    const taskNames = rot.map((i) => this.tasks[i]!.name ?? this.tasks[i]!.key ?? this.ids[i]!);
    return { path: [...rot, rot[0]!].map(label).join(' → '), taskIds, taskNames };
  }
}

/** Iterative Tarjan SCC over a CSR graph. Returns a component number per node. */
function stronglyConnected(
  N: number,
  outStart: Int32Array,
  outEdges: Int32Array,
  edgeDst: Int32Array,
  isLive: (v: number) => boolean,
): { comp: Int32Array } {
  const index = new Int32Array(N).fill(-1);
  const low = new Int32Array(N);
  const comp = new Int32Array(N).fill(-1);
  const onStack = new Uint8Array(N);
  const stack: number[] = [];
  const callV: number[] = [];
  const callK: number[] = [];
  let counter = 0;
  let compCount = 0;
  for (let s = 0; s < N; s++) {
    if (!isLive(s) || index[s] !== -1) continue;
    callV.push(s);
    callK.push(outStart[s]!);
    index[s] = low[s] = counter++;
    stack.push(s);
    onStack[s] = 1;
    while (callV.length > 0) {
      const v = callV[callV.length - 1]!;
      const k = callK[callK.length - 1]!;
      if (k < outStart[v + 1]!) {
        callK[callK.length - 1] = k + 1;
        const w = edgeDst[outEdges[k]!]!;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          callV.push(w);
          callK.push(outStart[w]!);
        } else if (onStack[w]) low[v] = Math.min(low[v]!, index[w]!);
        continue;
      }
      callV.pop();
      callK.pop();
      if (callV.length > 0) {
        const u = callV[callV.length - 1]!;
        low[u] = Math.min(low[u]!, low[v]!);
      }
      if (low[v] === index[v]) {
        for (;;) {
          const w = stack.pop()!;
          onStack[w] = 0;
          comp[w] = compCount;
          if (w === v) break;
        }
        compCount++;
      }
    }
  }
  return { comp };
}

/**
 * Compiles the links into edge arrays in one pass over the dependency objects (kept out of
 * the constructor so that it is optimised as one loop). Entries without a string id are
 * dropped; links with unknown or equal endpoints or an unknown type go to `ignored`.
 * `deps` keeps the input order and `dep[e]` is edge e's index in it.
 */
function compileLinks(
  list: readonly DependencyInput[],
  index: Map<string, number>,
  isSummary: Uint8Array,
  linkCount: Int32Array,
  n: number,
  ignored: string[],
): { deps: DependencyInput[]; src: Int32Array; dst: Int32Array; type: Int8Array; lag: Float64Array; lagElapsed: Uint8Array; dep: Int32Array } {
  const cap = list.length;
  const src = new Int32Array(cap);
  const dst = new Int32Array(cap);
  const type = new Int8Array(cap);
  const lag = new Float64Array(cap);
  const lagElapsed = new Uint8Array(cap);
  const dep = new Int32Array(cap);
  let m = 0;
  let dropped = 0;
  for (let k = 0; k < cap; k++) {
    const d = list[k];
    if (d === null || typeof d !== 'object' || typeof d.id !== 'string') {
      dropped++;
      continue;
    }
    const a = index.get(d.predecessorId);
    const b = index.get(d.successorId);
    const ty = d.type;
    const t = ty === undefined || ty === null || ty === 'FS' ? FS : ty === 'SS' ? SS : ty === 'FF' ? FF : ty === 'SF' ? SF : LINK_CODES[ty];
    if (a === undefined || b === undefined || a === b || t === undefined) {
      ignored.push(d.id);
      continue;
    }
    src[m] = isSummary[a] ? n + a : a; // outNode(a)
    dst[m] = b;
    type[m] = t;
    const l = Math.round(num(d.lagMin, 0));
    lag[m] = l;
    lagElapsed[m] = l !== 0 && d.lagElapsed === true ? 1 : 0;
    dep[m++] = k - dropped;
    linkCount[a]!++;
    linkCount[b]!++;
  }
  const deps = dropped === 0 ? list.slice() : list.filter((d) => d !== null && typeof d === 'object' && typeof d.id === 'string');
  return {
    deps,
    src: src.subarray(0, m),
    dst: dst.subarray(0, m),
    type: type.subarray(0, m),
    lag: lag.subarray(0, m),
    lagElapsed: lagElapsed.subarray(0, m),
    dep: dep.subarray(0, m),
  };
}

function shortestPath(from: number, to: number, comp: Int32Array, outStart: Int32Array, outEdges: Int32Array, edgeDst: Int32Array): number[] | null {
  const prev = new Map<number, number>([[from, -1]]);
  const queue = [from];
  for (let h = 0; h < queue.length; h++) {
    const v = queue[h]!;
    if (v === to) break;
    const next: number[] = [];
    for (let k = outStart[v]!; k < outStart[v + 1]!; k++) next.push(edgeDst[outEdges[k]!]!);
    next.sort((x, y) => x - y);
    for (const w of next) {
      if (comp[w] !== comp[from] || prev.has(w)) continue;
      prev.set(w, v);
      queue.push(w);
    }
  }
  if (!prev.has(to)) return null;
  const path: number[] = [];
  for (let v = to; v !== -1; v = prev.get(v)!) path.push(v);
  return path.reverse();
}
