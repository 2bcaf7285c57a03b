import type { WorkCalendar } from './calendar.js';
import { markHierPreds } from './incremental.js';
import { C_ALAP, C_FNET, C_FNLT, C_MFO, C_MSO, C_SNET, C_SNLT, FF, FS, SF, SS } from './network.js';
import { POS, positionOf, type ScheduleState } from './state.js';

/**
 * The backward pass: late dates of every node in reverse topological order. A leaf
 * finishes at the earliest of its successors' link candidates, its parent summary's
 * bounds, the project finish, its deadline and its constraint; a summary's exit node hands
 * its own bounds down to its children, its entry node collects theirs. Incremental runs
 * visit only dirty nodes and mark the predecessors of nodes that moved.
 */
export function backwardPass(st: ScheduleState): void {
  const net = st.net;
  const topo = net.topo;
  if (st.sweep) {
    for (let k = topo.length - 1; k >= 0; k--) backwardNode(st, topo[k]!);
    return;
  }
  const dirty = st.dirtyB;
  for (let k = topo.length - 1; k >= 0; k--) {
    const v = topo[k]!;
    if (!dirty[v]) continue;
    dirty[v] = 0;
    if (v < net.n) st.touched[v] = 1;
    else st.touched[v - net.n] = 1;
    const oLs = st.ls[v]!;
    const oLf = st.lf[v]!;
    const oLss = st.lss[v]!;
    backwardNode(st, v);
    if (st.ls[v] !== oLs || st.lf[v] !== oLf || st.lss[v] !== oLss) {
      for (let q = net.inStart[v]!; q < net.inStart[v + 1]!; q++) dirty[net.inSrc[q]!] = 1;
      markHierPreds(net, v, dirty);
      st.dirtyT[v] = 1;
    }
  }
}

function backwardNode(st: ScheduleState, v: number): void {
  const net = st.net;
  if (v >= net.n) exitBackward(st, v);
  else if (net.isSummary[v]) entryBackward(st, v);
  else if (st.plainLeaves && net.plain[v] && !net.backward) plainLeafBackward(st, v);
  else leafBackward(st, v);
}

function exitBackward(st: ScheduleState, v: number): void {
  const net = st.net;
  const s = v - net.n;
  const cal = net.cals[s]!;
  let lf = st.projectFinish;
  let ls = POS;
  const p = net.parent[s]!;
  if (p >= 0) {
    const x = net.n + p;
    if (st.lf[x]! < lf) lf = st.lf[x]!;
    if (st.ls[x]! < ls && st.es[v] === st.es[x]) ls = st.ls[x]!;
  }
  for (let q = net.outStart[v]!; q < net.outStart[v + 1]!; q++) {
    const x = net.outDst[q]!;
    const t = net.outType[q]!;
    const c = lateCandidate(st, t, net.outLag[q]!, net.outLagElapsed[q] === 1, x, cal, 0, false, t === SS || t === SF);
    if (t === SS || t === SF) {
      if (c < ls) ls = c;
    } else if (c < lf) lf = c;
  }
  // Summary constraints (our choice): a summary FNLT (and deadline) bounds all its
  // leaves' late finish.
  if (net.ckind[s] === C_FNLT && net.cdate[s]! < lf) lf = net.cdate[s]!;
  if (net.deadline[s]! < lf) lf = net.deadline[s]!;
  st.lf[v] = lf;
  st.ls[v] = ls;
}

function entryBackward(st: ScheduleState, i: number): void {
  const net = st.net;
  let ls = POS;
  let lf = POS;
  for (const c of net.children[i]!) {
    if (!net.isSummary[c] && net.complete[c]) continue;
    const a = st.lss[c]!;
    const b = st.lf[c]!;
    if (a < ls) ls = a;
    if (b < lf) lf = b;
  }
  st.lss[i] = ls;
  st.lf[i] = lf;
  st.ls[i] = ls;
}

/** Late-finish candidate for predecessor node u (calendar calU, duration dU) from a link (type t, lag, elapsed or not) into x. */
function lateCandidate(
  st: ScheduleState,
  t: number,
  lag: number,
  lagElapsed: boolean,
  x: number,
  calU: WorkCalendar,
  dU: number,
  uStartedOrManual: boolean,
  asStart: boolean,
): number {
  const net = st.net;
  if (x < net.n && !net.isSummary[x] && net.complete[x]) return POS;
  let lsx = st.lss[x]!;
  let lfx = st.lf[x]!;
  if (net.backward && st.pass2 && x < net.n && !net.isSummary[x] && net.ckind[x] !== C_ALAP) {
    // Finish-scheduled, second backward pass: ASAP successors pull with their early dates.
    lsx = st.es[x]!;
    lfx = st.ef[x]!;
  }
  if (!Number.isFinite(lsx) && !Number.isFinite(lfx)) return POS;
  // x's dates snap on the calendar its duration runs on; the lag counts on its lag calendar.
  const calX = net.cals[x]!;
  const lagCal = lag === 0 ? calX : net.lagCalendar(x, lagElapsed);
  let c: number;
  switch (t) {
    case FS:
      c = lag === 0 ? lsx : lagCal.shift(lsx, -lag);
      break;
    case SS: {
      if (uStartedOrManual) return st.projectFinish;
      const s = lagCal.shift(calX.nextWorkStart(lsx), -lag);
      c = asStart ? s : calU.addWork(s, dU);
      break;
    }
    case FF:
      c = lag === 0 ? lfx : lagCal.shift(lfx, -lag);
      break;
    default: {
      if (uStartedOrManual) return st.projectFinish;
      if (asStart) c = lagCal.shift(lfx, -lag);
      else c = lagCal.shift(calU.addWork(lfx, dU), -lag);
    }
  }
  return c < st.projectFinish ? c : st.projectFinish;
}

function leafBackward(st: ScheduleState, i: number): void {
  const net = st.net;
  const cal = net.cals[i]!;
  const d = net.dur[i]!;
  if (net.complete[i] && net.started[i]) {
    st.lf[i] = st.ef[i]!;
    st.lss[i] = st.ls[i] = st.es[i]!;
    st.pLf[i] = st.pEf[i]!;
    st.pLs[i] = st.pEs[i]!;
    return;
  }
  const startedOrManual = net.started[i] === 1 || net.manual[i] === 1;
  let lf = parentLateBound(st, i, cal, d);
  // The earliest link candidate and, for a lag-free FS/FF link to a leaf on the same
  // calendar, its position as the successor remembered it (NaN if not).
  let link = POS;
  let linkPos = NaN;
  const { outType, outLag, outLagElapsed, outDst } = net;
  for (let q = net.outStart[i]!, end = net.outStart[i + 1]!; q < end; q++) {
    const t = outType[q]!;
    const lag = outLag[q]!;
    const x = outDst[q]!;
    const c = lateCandidate(st, t, lag, outLagElapsed[q] === 1, x, cal, d, startedOrManual, false);
    if (c < link) {
      link = c;
      // (Only when c is the successor's date itself: lateCandidate may cap it at the project finish.)
      const own = t === FS ? st.lss[x] : t === FF ? st.lf[x] : NaN;
      linkPos = lag === 0 && c === own && !net.backward && net.cals[x] === cal && !net.isSummary[x] ? (t === FS ? st.pLs[x]! : st.pLf[x]!) : NaN;
    }
  }
  if (link < lf) lf = link;
  if (net.backward) lf = applyBackwardModeEarlyConstraints(st, i, lf, cal, d);
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
  setLateDates(st, i, cal, lf, link, linkPos);
}

/**
 * `leafBackward` for a plain leaf (`Network.plain`) of a forward-scheduled project: no
 * progress, constraint or manual dates to apply, and lag-free FS/FF links read their
 * successor's late dates directly (fast path `plainLeaves`, tested against the general code).
 */
function plainLeafBackward(st: ScheduleState, i: number): void {
  const net = st.net;
  const { outStart, outType, outLag, outLagElapsed, outDst, cals, isSummary, complete } = net;
  const cal = cals[i]!;
  const d = net.dur[i]!;
  const lss = st.lss;
  const lfs = st.lf;
  const pf = st.projectFinish;
  const lf = parentLateBound(st, i, cal, d);
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
        linkPos = c === own && cals[x] === cal && !isSummary[x] ? (t === FS ? st.pLs[x]! : st.pLf[x]!) : NaN;
      }
      continue;
    }
    c = lateCandidate(st, t, lag, outLagElapsed[q] === 1, x, cal, d, false, false);
    if (c < link) {
      link = c;
      linkPos = NaN;
    }
  }
  setLateDates(st, i, cal, link < lf ? link : lf, link, linkPos);
}

/** Task i's late finish bound from its project and parent summary (whose exit node hands down its own bounds). */
function parentLateBound(st: ScheduleState, i: number, cal: WorkCalendar, d: number): number {
  let lf = st.projectFinish;
  const p = st.net.parent[i]!;
  if (p >= 0) {
    const x = st.net.n + p;
    if (st.lf[x]! < lf) lf = st.lf[x]!;
    const lsb = st.ls[x]!;
    if (Number.isFinite(lsb) && st.es[i] === st.es[x]) {
      const c = cal.addWork(lsb, d);
      if (c < lf) lf = c;
    }
  }
  return lf;
}

/** Finish-scheduled projects (our choice): SNET/FNET may push a task later than its successors allow. */
function applyBackwardModeEarlyConstraints(st: ScheduleState, i: number, lf: number, cal: WorkCalendar, d: number): number {
  const net = st.net;
  const c = net.cdate[i]!;
  if (net.ckind[i] === C_SNET) {
    const v = cal.addWork(c, d);
    if (v > lf) return v;
  } else if (net.ckind[i] === C_FNET && c > lf) return c;
  return lf;
}

/**
 * Stores leaf i's late dates for the late finish `lf` (before its deadline): the finish
 * normalised and the late start before it, with their working positions. `link`/`linkPos`
 * are the earliest link candidate and its remembered position (NaN if none).
 */
function setLateDates(st: ScheduleState, i: number, cal: WorkCalendar, lf: number, link: number, linkPos: number): void {
  const net = st.net;
  const dl = net.deadline[i]!;
  if (dl < lf) lf = dl;
  // normalizeFinish + subWork share one position lookup (none when lf is the link candidate
  // whose position the successor remembered).
  const w = positionOf(cal, lf, lf === link ? linkPos : NaN);
  // Whether lf / lss are known to sit at positions w / w − rem (see exactPosition; a
  // manual task's lf is not converted and w may be a clamped reading).
  let exactF = false;
  if (!net.manual[i]) {
    lf = cal.finishAtPosition(w);
    exactF = st.remember && cal.exactPosition(w);
  }
  st.lf[i] = lf;
  const rem = net.remaining[i]!;
  let lss = lf;
  let exactS = exactF;
  if (rem > 0) {
    lss = cal.startAtPosition(w - rem);
    exactS = st.remember && cal.exactPosition(w - rem);
  }
  st.lss[i] = lss;
  st.ls[i] = net.started[i] ? net.actualStart[i]! : lss;
  // lf sits at w, lss (= ls unless started) at w − rem.
  st.pLf[i] = exactF ? w : NaN;
  st.pLs[i] = exactS && !net.started[i] ? w - rem : NaN;
}
