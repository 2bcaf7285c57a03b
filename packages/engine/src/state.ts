import type { WorkCalendar } from './calendar.js';
import { fastPaths } from './internal.js';
import { C_ALAP, type Network } from './network.js';
import type { TaskResult } from './types.js';
import { typedArrays } from './typed-arrays.js';

export const NEG = -Infinity;
export const POS = Infinity;

/** Conflict bits per task (`ScheduleState.conflictBits`). */
export const K_LINK = 1;
export const K_MANUAL = 2;
export const K_BEFORE_START = 4;
export const K_DEADLINE = 8;

/**
 * Link candidates into a task (see `gather` in forward.ts): the latest start and finish
 * candidates (−∞ if none), the links producing them, the working position of `s` when
 * known (NaN if not) and whether any link exists.
 */
export interface Candidates {
  s: number;
  sPos: number;
  f: number;
  has: boolean;
  sDep: number;
  fDep: number;
  fIsSf: boolean;
}

/**
 * Everything the passes compute for one network, in typed arrays indexed by node (2n
 * nodes: see `Network` for summaries' entry and exit nodes) or by task (n). The passes are
 * functions of this state in forward.ts, backward.ts and floats.ts; incremental.ts marks
 * what they must revisit, results.ts turns it into rows; `Scheduler` runs them in order.
 * One object of one shape, so every pass reads its fields through the same hidden class.
 */
export class ScheduleState {
  readonly net: Network;
  /** Early and late dates per node; `lss` is the late start before a started task's actual start replaces it in `ls`. */
  readonly es: Float64Array;
  readonly ef: Float64Array;
  readonly ls: Float64Array;
  readonly lf: Float64Array;
  readonly lss: Float64Array;
  readonly hasPred: Uint8Array;
  /** Scheduled dates, floats and criticality per task. */
  readonly start: Float64Array;
  readonly finish: Float64Array;
  readonly tf: Float64Array;
  readonly ff: Float64Array;
  readonly crit: Uint8Array;
  readonly conflictBits: Uint8Array;
  /** For link conflicts: the start the links require and the binding dependency (−1 if none). */
  readonly linkReq: Float64Array;
  readonly linkDep: Int32Array;
  /** Summaries' rolled-up early and late dates. */
  readonly sumES: Float64Array;
  readonly sumEF: Float64Array;
  readonly sumLS: Float64Array;
  readonly sumLF: Float64Array;
  /**
   * Working positions of leaves' current es / ef / ls / lf (NaN = not known without a
   * look-up): every pass that sets one of these dates sets its position too, when the
   * calendar guarantees that looking the instant up again gives it back
   * (`WorkCalendar.exactPosition`), so the floats and lag-free links reuse it.
   */
  readonly pEs: Float64Array;
  readonly pEf: Float64Array;
  readonly pLs: Float64Array;
  readonly pLf: Float64Array;
  /** Whether positions are remembered (`fastPaths.rememberedPositions`). */
  readonly remember: boolean;
  /** Whether plain leaves take the backward pass's fast path (`fastPaths.plainLeaves`). */
  readonly plainLeaves: boolean;
  /** Nodes to (re)compute in the forward, backward and float phases; tasks any phase visited. */
  dirtyF: Uint8Array;
  dirtyB: Uint8Array;
  dirtyT: Uint8Array;
  touched: Uint8Array;
  /** The rows of the latest result (shared with it: copy before changing one). */
  rows: TaskResult[];
  projectFinish = 0;
  projectStartEff = 0;
  /** Second pass of a plan with ALAP tasks (forward) or of a finish-scheduled plan (backward). */
  pass2 = false;
  /** Every node is recomputed in every phase: the passes need not propagate dirtiness. */
  sweep = false;
  /** Memo for `freeFloatFrom` (floats.ts): positions of the predecessor's start/finish (NaN = not yet). */
  fwS = NaN;
  fwF = NaN;
  /** Scratch candidates for the forward pass (one object, reused for every node). */
  readonly cand: Candidates = { s: NEG, sPos: NaN, f: NEG, has: false, sDep: -1, fDep: -1, fIsSf: false };

  constructor(net: Network) {
    this.net = net;
    const n = net.n;
    const N = 2 * n;
    const f64 = typedArrays(Float64Array, 5 * N + 13 * n);
    // No initial values: a full run computes every live node before any node reads it
    // (topological order forward, its reverse backward); the exit slots of leaves are
    // never read. Finish-scheduled runs reset these arrays themselves (see `Scheduler`).
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
    this.pEs = f64(n);
    this.pEf = f64(n);
    this.pLs = f64(n);
    this.pLf = f64(n);
    this.remember = fastPaths.rememberedPositions;
    this.plainLeaves = fastPaths.plainLeaves;
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
  }
}

/**
 * Forward projects: an ALAP leaf sits at its late dates, but never earlier than its
 * links allow (negative slack keeps it at its early dates instead of breaking links).
 */
export function atLateDates(st: ScheduleState, i: number): boolean {
  const net = st.net;
  return net.ckind[i] === C_ALAP && !net.isSummary[i] && !net.started[i] && !net.manual[i] && st.lss[i]! >= st.es[i]!;
}

/** Instant t's working position on `cal`: `remembered` when known (not NaN), else looked up. */
export function positionOf(cal: WorkCalendar, t: number, remembered: number): number {
  return remembered === remembered ? remembered : cal.position(t);
}
