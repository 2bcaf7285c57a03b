import { backwardPass } from './backward.js';
import { floatsAndRollups } from './floats.js';
import { forwardPass } from './forward.js';
import { loadChanges, sameShape, spreadFloatDirt, taskFinder, type ScheduleChanges } from './incremental.js';
import { Network } from './network.js';
import { buildResult } from './results.js';
import { NEG, POS, ScheduleState } from './state.js';
import type { ScheduleInput, ScheduleResult } from './types.js';

export type { ScheduleChanges } from './incremental.js';

/**
 * A stateful CPM scheduler for one project. `new Scheduler(input)` schedules fully;
 * `update(input, changes)` reschedules incrementally: only the forward cone of the changed
 * tasks, the backward cone of whatever moved, and the floats and summaries around them
 * are recomputed, with early cut-off where values did not change. Any change of the
 * network's shape (tasks or links added, removed, re-parented or retyped, calendars,
 * project settings) falls back to a full run automatically. Full and incremental runs
 * share the same per-node code, so their results are identical.
 *
 * This class only coordinates: the network is built in network.ts, the passes run over a
 * `ScheduleState` (state.ts) in forward.ts, backward.ts and floats.ts, incremental.ts
 * decides what an update recomputes and results.ts builds the rows.
 *
 * Not thread-safe; one instance per project. Never throws on malformed input.
 */
export class Scheduler {
  private st!: ScheduleState;
  private latestInput!: ScheduleInput;
  private result!: ScheduleResult;

  constructor(input: ScheduleInput) {
    this.rebuild(input, null);
  }

  /** The latest result. */
  get current(): ScheduleResult {
    return this.result;
  }

  /**
   * The engine state of the latest run, for the engine's own modules: leveling (leveling.ts)
   * replays the forward pass on it. Not part of the public API; a caller that changes it
   * must not use this scheduler again.
   */
  get state(): ScheduleState {
    return this.st;
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
    const find = taskFinder(input, this.st.net);
    if (!changes || !sameShape(this.st.net, this.latestInput, input, changes, find)) {
      this.rebuild(input, prev);
      return this.result;
    }
    this.latestInput = input;
    loadChanges(this.st, input, changes, find);
    this.run(prev, false);
    return this.result;
  }

  private rebuild(input: ScheduleInput, prev: ScheduleResult | null): void {
    this.latestInput = input;
    this.st = new ScheduleState(new Network(input));
    this.run(prev, true);
  }

  /** The passes in order, for a forward- or a finish-scheduled project. */
  private run(prev: ScheduleResult | null, full: boolean): void {
    const st = this.st;
    const net = st.net;
    const n = net.n;
    // Full runs and backward-scheduled plans recompute every node in every phase (all dirty
    // flags set before each pass), so the passes need not propagate dirtiness.
    st.sweep = full || net.backward;
    let fullBackward = full;
    let fullFloat = full;
    if (net.backward) {
      // Finish-scheduled: late dates first from the anchor, then early dates from the
      // resulting project start (docs/scheduling.md › Finish-scheduled projects).
      st.projectFinish = net.projectAnchorFinish;
      st.pass2 = false;
      // Always a full run from a clean state: the first backward pass must not see early
      // dates of a previous run (it would pick other "earliest" summary children).
      st.es.fill(NEG);
      st.ef.fill(NEG);
      st.ls.fill(POS);
      st.lf.fill(POS);
      st.lss.fill(POS);
      st.hasPred.fill(0);
      st.touched.fill(1);
      st.dirtyB.fill(1);
      backwardPass(st);
      let ps = POS;
      for (let i = 0; i < n; i++) if (!net.isSummary[i] && st.lss[i]! < ps) ps = net.started[i] ? net.actualStart[i]! : st.lss[i]!;
      st.projectStartEff = Number.isFinite(ps) ? ps : net.projectAnchorFinish;
      st.dirtyF.fill(1);
      forwardPass(st);
      // Mirror of the ALAP rule: predecessors of ASAP tasks are pulled by their early dates.
      st.pass2 = true;
      st.dirtyB.fill(1);
      backwardPass(st);
      fullFloat = true;
    } else {
      st.projectStartEff = net.projectStart;
      st.pass2 = false;
      // With ALAP tasks the stored early dates are second-pass values, so pass 1 is redone.
      if (net.hasAlap) st.dirtyF.fill(1);
      forwardPass(st);
      let pf = NEG;
      for (let i = 0; i < n; i++) if (!net.isSummary[i] && st.ef[i]! > pf) pf = st.ef[i]!;
      if (!Number.isFinite(pf)) pf = net.projectStart;
      if (pf !== st.projectFinish || net.hasAlap) fullBackward = true;
      st.projectFinish = pf;
      if (fullBackward) st.dirtyB.fill(1);
      backwardPass(st);
      if (net.hasAlap) {
        // docs/scheduling.md › ALAP tasks: a second forward pass lets ASAP successors follow
        // ALAP tasks placed late.
        st.pass2 = true;
        st.dirtyF.fill(1);
        forwardPass(st);
        fullFloat = true;
      }
    }
    if (fullFloat) st.dirtyT.fill(1);
    else spreadFloatDirt(st);
    floatsAndRollups(st, full);
    this.result = buildResult(st, prev, full);
  }
}
