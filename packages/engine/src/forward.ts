import type { WorkCalendar } from './calendar.js';
import { markHierSuccs } from './incremental.js';
import { C_ALAP, C_FNET, C_FNLT, C_MFO, C_MSO, C_SNET, C_SNLT, FF, FS, SF, SS } from './network.js';
import { atLateDates, type Candidates, K_DEADLINE, K_BEFORE_START, K_LINK, K_MANUAL, NEG, POS, positionOf, type ScheduleState } from './state.js';

/**
 * The forward pass: early dates of every node in topological order. A leaf starts at the
 * latest of its link candidates (own links and those inherited from ancestor summaries),
 * the project start and its constraint; a summary's exit node rolls its children up.
 * Incremental runs visit only dirty nodes and mark the successors of nodes that moved.
 */
export function forwardPass(st: ScheduleState): void {
  const net = st.net;
  const topo = net.topo;
  // A sweep visits every node and every later phase is all-dirty: no bookkeeping.
  if (st.sweep) {
    for (let k = 0; k < topo.length; k++) forwardNode(st, topo[k]!);
    return;
  }
  const dirty = st.dirtyF;
  for (let k = 0; k < topo.length; k++) {
    const v = topo[k]!;
    if (!dirty[v]) continue;
    dirty[v] = 0;
    if (v < net.n) st.touched[v] = 1;
    else st.touched[v - net.n] = 1;
    const oldEs = st.es[v]!;
    const oldEf = st.ef[v]!;
    const oldHas = st.hasPred[v]!;
    forwardNode(st, v);
    // An entry node's own values are on the summary calendar; its leaves may see a change
    // on theirs even when these did not move, so they are always revisited.
    if (v < net.n && net.isSummary[v]) for (const c of net.children[v]!) dirty[c] = 1;
    if (st.es[v] !== oldEs || st.ef[v] !== oldEf || st.hasPred[v] !== oldHas) {
      for (let q = net.outStart[v]!; q < net.outStart[v + 1]!; q++) dirty[net.outDst[q]!] = 1;
      markHierSuccs(net, v, dirty);
      st.dirtyB[v] = 1;
      st.dirtyT[v] = 1;
      // Early dates decide which child is a summary's earliest (SS/SF out of summaries).
      if (v >= net.n) for (const c of net.children[v - net.n]!) st.dirtyB[net.outNode(c)] = 1;
    }
  }
}

/** Early dates of one node from its predecessors' (computed before it): a leaf, a summary's entry or its exit node. */
export function forwardNode(st: ScheduleState, v: number): void {
  const net = st.net;
  if (v >= net.n) rollupExitEarly(st, v);
  else if (net.isSummary[v]) entryForward(st, v);
  else leafForward(st, v);
}

/**
 * A summary's entry node only records its inherited candidates (on its own calendar) so
 * that a change upstream is noticed; its leaves re-derive them on their own calendars.
 */
function entryForward(st: ScheduleState, i: number): void {
  const g = st.cand;
  gather(st, i, st.net.cals[i]!, g);
  st.es[i] = g.s;
  st.ef[i] = g.f;
  st.hasPred[i] = g.has ? 1 : 0;
}

function rollupExitEarly(st: ScheduleState, v: number): void {
  const net = st.net;
  const s = v - net.n;
  let es = POS;
  let ef = NEG;
  for (const c of net.children[s]!) {
    const cv = net.outNode(c);
    let a = st.es[cv]!;
    let b = st.ef[cv]!;
    if (st.pass2 && cv < net.n && atLateDates(st, cv)) {
      a = st.ls[cv]!;
      b = st.lf[cv]!;
    }
    if (a < es) es = a;
    if (b > ef) ef = b;
  }
  st.es[v] = es;
  st.ef[v] = ef;
}

/**
 * Collects the link candidates into leaf or summary `v` in `out`: the latest start and
 * finish candidates (−∞ if none), the links producing them and whether any link (own or
 * inherited from an ancestor summary) exists. Lags are counted on v's lag calendar
 * (`Network.lagCalendar`, decision 2), also for links inherited from summaries; `cal` is
 * the calendar v's duration runs on, on which a candidate's position is remembered.
 */
function gather(st: ScheduleState, v: number, cal: WorkCalendar, out: Candidates): void {
  const net = st.net;
  const inStart = net.inStart;
  out.s = NEG;
  out.sPos = NaN;
  out.f = NEG;
  out.has = false;
  out.sDep = -1;
  out.fDep = -1;
  out.fIsSf = false;
  if (inStart[v] !== inStart[v + 1]) gatherLinks(st, v, v, cal, out);
  for (let p = net.parent[v]!; p >= 0; p = net.parent[p]!) {
    // docs/scheduling.md › Summary tasks (our choice): a summary SNET (or MSO) is a lower
    // bound for all its leaves.
    if ((net.ckind[p] === C_SNET || net.ckind[p] === C_MSO) && net.cdate[p]! > out.s) {
      out.s = net.cdate[p]!;
      out.sPos = NaN;
      out.sDep = -1;
      out.has = true;
    }
    if (inStart[p] !== inStart[p + 1]) gatherLinks(st, p, v, cal, out);
  }
}

/** Adds the links into `node` (v itself or one of its ancestors) to v's candidates; `node` has links. */
function gatherLinks(st: ScheduleState, node: number, v: number, cal: WorkCalendar, out: Candidates): void {
  const net = st.net;
  const n = net.n;
  const { inType, inSrc, inLag, inLagElapsed, inDep, cals, deps } = net;
  const es = st.es;
  const ef = st.ef;
  const pass2 = st.pass2;
  out.has = true;
  for (let q = net.inStart[node]!, end = net.inStart[node + 1]!; q < end; q++) {
    const t = inType[q]!;
    const u = inSrc[q]!;
    const lag = inLag[q]!;
    const base = pass2 ? predEarly(st, u, v, t === FS || t === FF) : t === FS || t === FF ? ef[u]! : es[u]!;
    if (!Number.isFinite(base)) continue;
    // shift(t, 0) is t: most links have no lag.
    const c = lag === 0 ? base : net.lagCalendar(v, inLagElapsed[q] === 1).shift(base, lag);
    if (t === FS || t === SS) {
      if (c > out.s || (c === out.s && out.sDep >= 0 && deps[inDep[q]!]!.id < deps[out.sDep]!.id)) {
        out.s = c;
        out.sDep = inDep[q]!;
        // A lag-free link from a leaf on the same calendar: c's position is remembered.
        out.sPos = lag === 0 && !pass2 && u < n && cals[u] === cal ? (t === FS ? st.pEf[u]! : st.pEs[u]!) : NaN;
      }
    } else if (c > out.f || (c === out.f && out.fDep >= 0 && deps[inDep[q]!]!.id < deps[out.fDep]!.id)) {
      out.f = c;
      out.fDep = inDep[q]!;
      out.fIsSf = t === SF;
    }
  }
}

/** Early dates of a link's predecessor as seen by successor `v` in pass 2 (the ALAP rule). */
function predEarly(st: ScheduleState, u: number, v: number, wantFinish: boolean): number {
  const net = st.net;
  if (u < net.n && atLateDates(st, u) && !(v < net.n && net.ckind[v] === C_ALAP)) {
    return wantFinish ? st.lf[u]! : st.ls[u]!;
  }
  return wantFinish ? st.ef[u]! : st.es[u]!;
}

function leafForward(st: ScheduleState, i: number): void {
  const net = st.net;
  const cal = net.cals[i]!;
  const d = net.dur[i]!;
  const ps = st.projectStartEff;
  const g = st.cand;
  gather(st, i, cal, g);
  st.hasPred[i] = g.has ? 1 : 0;
  let bits = st.conflictBits[i]! & K_DEADLINE;
  st.linkDep[i] = -1;
  if (net.started[i]) {
    const as = net.actualStart[i]!;
    st.es[i] = as;
    st.pEs[i] = NaN;
    st.pEf[i] = NaN;
    if (net.complete[i] && Number.isFinite(net.actualFinish[i]!)) st.ef[i] = net.actualFinish[i]!;
    else {
      let ef = cal.addWork(as, d);
      // Only FNET is honored on a started task (as Microsoft Project): it stretches the finish.
      if (net.ckind[i] === C_FNET && net.cdate[i]! > ef) ef = net.cdate[i]!;
      st.ef[i] = ef;
    }
    st.conflictBits[i] = bits;
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
    st.es[i] = ms;
    st.pEs[i] = NaN;
    st.pEf[i] = NaN;
    const mf = net.manualFinish[i]!;
    st.ef[i] = Number.isFinite(mf) && mf >= ms ? mf : cal.addWork(ms, d);
    // (In UTC working positions are monotonic in time, so ms >= x needs no lookup.)
    if (g.has && Number.isFinite(x) && !(ms >= x && cal.zone.isUtc) && cal.position(ms) < cal.position(x)) {
      bits |= K_MANUAL;
      st.linkReq[i] = cal.nextWorkStart(x);
      st.linkDep[i] = bindingDep;
    }
    st.conflictBits[i] = bits;
    return;
  }
  // An elapsed task starts no earlier than the first working minute of the project start
  // either, as every task does, except in a finish-scheduled project, whose start is the
  // earliest late start.
  const psTask = cal === net.workCals[i] || net.backward ? ps : net.workCals[i]!.nextWorkStart(ps);
  // Decision 4: leads never pull a task before the project start.
  const es0 = g.has ? Math.max(x, psTask) : psTask;
  let es = es0;
  // Only an SF-driven finish is kept as computed (a start-type instant such as Monday
  // 08:00, as the MSPDI fixtures show); FF finishes are normalized.
  let finishFixed = fs === x && Number.isFinite(fs) && fs >= psTask && g.fIsSf ? g.f : NaN;
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
  // Working position of es (NaN when not known without a lookup), and whether es / ef are
  // known to sit at positions wS / wS + d (see exactPosition).
  let wS = NaN;
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
    exactS = st.remember && cal.exactPosition(wS);
    ef = d > 0 ? cal.finishAtPosition(wS + d) : es;
    exactF = st.remember && d > 0 && cal.exactPosition(wS + d);
  }
  const wF = wS + d;
  // MSP keeps a finish driven by FF/SF (or a finish constraint) as computed, e.g. a Monday
  // 08:00 finish stays Monday 08:00 instead of the equivalent Friday 17:00.
  if (d > 0 && finishFixed === finishFixed && finishFixed !== ef && cal.position(finishFixed) === (exactF ? wF : cal.position(ef))) ef = finishFixed;
  st.es[i] = es;
  st.ef[i] = ef;
  // es sits at wS, ef at wS + d (a finishFixed kept above has the computed finish's position).
  st.pEs[i] = exactS ? wS : NaN;
  st.pEf[i] = exactF ? wF : NaN;
  st.conflictBits[i] = startConflicts(st, i, cal, es, x, psTask, g.has, bindingDep, bits);
}

/**
 * Adds the conflicts of leaf i starting at `es` when its links require `x` (−∞ if none)
 * and the project start is `ps` for it: a start before the links allow
 * (constraint_vs_link) or before the project start.
 */
function startConflicts(st: ScheduleState, i: number, cal: WorkCalendar, es: number, x: number, ps: number, has: boolean, bindingDep: number, bits: number): number {
  const req = x > ps ? x : ps;
  if (has && Number.isFinite(x) && !(es >= req && cal.zone.isUtc) && cal.position(es) < cal.position(req)) {
    bits |= K_LINK;
    st.linkReq[i] = cal.nextWorkStart(req);
    st.linkDep[i] = bindingDep;
  }
  if (es < ps && cal.position(es) < cal.position(ps)) bits |= K_BEFORE_START;
  return bits;
}
