import type { WorkCalendar } from './calendar.js';
import { summaryDirty } from './incremental.js';
import { C_ASAP, FF, FS, SF, SS } from './network.js';
import { atLateDates, K_DEADLINE, NEG, POS, positionOf, type ScheduleState } from './state.js';

/**
 * After both passes: each dirty leaf's scheduled dates, total and free float and
 * criticality, then the summaries bottom-up (their dates, floats and criticality roll up
 * from their children).
 */
export function floatsAndRollups(st: ScheduleState, full: boolean): void {
  const net = st.net;
  const n = net.n;
  for (let i = 0; i < n; i++) if (st.dirtyT[i] && !net.isSummary[i]) leafFloat(st, i);
  // Reverse topological order of exit nodes puts children first.
  const topo = net.topo;
  for (let k = 0; k < topo.length; k++) {
    const v = topo[k]!;
    if (v < n) continue;
    const s = v - n;
    if (full || summaryDirty(st, s)) summaryRollup(st, s);
  }
}

function leafFloat(st: ScheduleState, i: number): void {
  const net = st.net;
  const cal = net.cals[i]!;
  st.touched[i] = 1;
  const es = st.es[i]!;
  const ef = st.ef[i]!;
  const ls = st.ls[i]!;
  const lf = st.lf[i]!;
  // Scheduled dates: ALAP at late dates in forward projects; in backward projects
  // everything but ASAP sits at its late dates.
  const useLate = net.backward ? net.ckind[i] !== C_ASAP && !net.started[i] && !net.manual[i] : atLateDates(st, i);
  st.start[i] = useLate ? st.lss[i]! : es;
  st.finish[i] = useLate ? lf : ef;
  // ALAP (forward) / ASAP (backward) slack is forced to 0, unless negative.
  const forcedZero = net.backward ? net.ckind[i] === C_ASAP && !net.manual[i] && !net.started[i] && st.lss[i]! >= es : useLate;
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
      wLf = positionOf(cal, lf, st.pLf[i]!);
      wEf = positionOf(cal, ef, st.pEf[i]!);
      finishSlack = wLf - wEf;
    }
    if (net.started[i]) tf = finishSlack;
    else {
      let startSlack = 0;
      if (es !== ls) {
        const wLs = positionOf(cal, ls, st.pLs[i]!);
        wEs = positionOf(cal, es, st.pEs[i]!);
        startSlack = wLs - wEs;
      }
      tf = startSlack < finishSlack ? startSlack : finishSlack;
    }
  }
  st.tf[i] = tf;
  // Free float over own and inherited (summary) outgoing links.
  let ff = POS;
  if (!net.complete[i]) {
    const pES = useLate ? st.lss[i]! : es;
    const pEF = useLate ? lf : ef;
    st.fwS = pES === es ? wEs : NaN;
    st.fwF = pEF === ef ? wEf : pEF === lf ? wLf : NaN;
    ff = freeFloatFrom(st, i, cal, pES, pEF, ff);
    for (let p = net.parent[i]!; p >= 0; p = net.parent[p]!) {
      ff = freeFloatFrom(st, net.n + p, cal, pES, pEF, ff, i);
    }
    if (ff === POS) ff = tf;
    if (ff > tf) ff = tf;
    if (ff < 0) ff = 0;
  } else ff = 0;
  st.ff[i] = ff;
  st.crit[i] = tf <= 0 && !net.complete[i] && !(net.tentative[i] && net.linkCount[i] === 0) ? 1 : 0;
  let bits = st.conflictBits[i]! & ~K_DEADLINE;
  if (net.deadline[i]! < st.finish[i]!) bits |= K_DEADLINE;
  st.conflictBits[i] = bits;
}

/**
 * The smallest slack (from `acc` down) over the links out of node v, for a predecessor
 * scheduled at pES/pEF on `cal`; `leaf` ≥ 0 when v is an ancestor summary's exit node
 * whose links the leaf inherits.
 */
function freeFloatFrom(st: ScheduleState, v: number, cal: WorkCalendar, pES: number, pEF: number, acc: number, leaf = -1): number {
  const net = st.net;
  for (let q = net.outStart[v]!; q < net.outStart[v + 1]!; q++) {
    const t = net.outType[q]!;
    // Inherited SS/SF links bind only the summary's earliest leaf.
    if (leaf >= 0 && (t === SS || t === SF) && st.es[leaf] !== st.es[v]) continue;
    const x = net.outDst[q]!;
    let xES: number;
    let xEF: number;
    if (net.isSummary[x]) {
      xES = st.es[net.n + x]!;
      xEF = st.ef[net.n + x]!;
    } else {
      if (net.complete[x]) continue;
      const late = !net.backward && atLateDates(st, x);
      xES = late ? st.lss[x]! : st.es[x]!;
      xEF = late ? st.lf[x]! : st.ef[x]!;
    }
    const useF = t === FS || t === FF;
    const a = useF ? pEF : pES;
    const b = t === FS || t === SS ? xES : xEF;
    if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
    // cal.workBetween(a, b), with the position of a (always pES or pEF) looked up once
    // and that of b remembered by the passes when x is a leaf on the same calendar.
    const remembered = net.cals[x] === cal && !net.isSummary[x] ? (b === st.es[x] ? st.pEs[x]! : b === st.ef[x] ? st.pEf[x]! : NaN) : NaN;
    const wb = positionOf(cal, b, remembered);
    let wa = useF ? st.fwF : st.fwS;
    if (wa !== wa) {
      wa = cal.position(a);
      if (useF) st.fwF = wa;
      else st.fwS = wa;
    }
    const lag = net.outLag[q]!;
    // An elapsed lag is no amount of the predecessor's working time: the slack runs from its end.
    const w = net.outLagElapsed[q] === 1 ? wb - cal.position(net.lagCalendar(x, true).shift(a, lag)) : wb - wa - lag;
    if (w < acc) acc = w;
  }
  return acc;
}

function summaryRollup(st: ScheduleState, s: number): void {
  const net = st.net;
  const n = net.n;
  st.touched[s] = 1;
  st.dirtyT[s] = 1;
  let start = POS;
  let finish = NEG;
  let es = POS;
  let ef = NEG;
  let ls = POS;
  let lf = NEG;
  let crit = 0;
  for (const c of net.children[s]!) {
    if (st.start[c]! < start) start = st.start[c]!;
    if (st.finish[c]! > finish) finish = st.finish[c]!;
    let a: number;
    let b: number;
    let la: number;
    let lb: number;
    if (net.isSummary[c]) {
      a = st.sumES[c]!;
      b = st.sumEF[c]!;
      la = st.sumLS[c]!;
      lb = st.sumLF[c]!;
    } else {
      const alap = !net.backward && atLateDates(st, c);
      a = alap ? st.lss[c]! : st.es[c]!;
      b = alap ? st.lf[c]! : st.ef[c]!;
      la = net.manual[c] ? st.es[c]! : st.ls[c]!;
      lb = net.manual[c] ? st.ef[c]! : st.lf[c]!;
    }
    if (a < es) es = a;
    if (b > ef) ef = b;
    if (la < ls) ls = la;
    if (lb > lf) lf = lb;
    if (st.crit[c]) crit = 1;
  }
  st.start[s] = start;
  st.finish[s] = finish;
  st.sumES[s] = es;
  st.sumEF[s] = ef;
  st.sumLS[s] = ls;
  st.sumLF[s] = lf;
  const cal = net.cals[s]!;
  const tf = Math.min(cal.workBetween(es, ls), cal.workBetween(ef, lf));
  st.tf[s] = tf;
  st.fwS = NaN;
  st.fwF = NaN;
  let ff = freeFloatFrom(st, n + s, cal, es, ef, POS);
  if (ff === POS || ff > tf) ff = tf;
  st.ff[s] = ff < 0 ? 0 : ff;
  st.crit[s] = crit;
  st.conflictBits[s] = net.deadline[s]! < finish ? K_DEADLINE : 0;
}
