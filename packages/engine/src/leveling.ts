import type { WorkCalendar } from './calendar.js';
import { forwardNode } from './forward.js';
import { NumberHeap } from './heap.js';
import { toIsoString } from './instant.js';
import { C_ASAP, C_FNET, C_SNET, Network } from './network.js';
import { Scheduler } from './scheduler.js';
import { atLateDates, type ScheduleState } from './state.js';
import type { LevelingDelayChange, LevelingOptions, LevelingResult, Overallocation, OverallocationReason, ScheduleInput } from './types.js';

/**
 * Rounds of leveling and rescheduling at most. A forward-scheduled plan without ALAP tasks
 * settles in two (the second only confirms the first); ALAP tasks sit at late dates that
 * depend on the leveled plan, which takes a round or two more.
 */
const MAX_ROUNDS = 8;

/** A task's demand on one leveled resource (an index into `LevelingPlan.resourceIds`), in percent. */
interface Use {
  resource: number;
  units: number;
}

/** What leveling knows of each task, by the network's task index. */
interface LevelingPlan {
  /** The leveled resources, sorted, and their capacities in percent. */
  resourceIds: string[];
  capacities: number[];
  /** The leveled resources each leaf task uses (undefined when none). Summaries' assignments are not counted: their dates are their subtasks'. */
  uses: (Use[] | undefined)[];
  /** 1 for the tasks leveling may delay: their delays are cleared, then set anew. */
  movable: Uint8Array;
}

/**
 * Resolves resource over-allocations by delaying tasks, in the spirit of Microsoft
 * Project's "Level Now" with the Standard order (docs/scheduling.md › Resource leveling).
 * Pure: the input is not changed; the answer names the new delays (`levelingDelayMin`, in
 * working minutes of each task's calendar, clock minutes for an elapsed duration), what
 * stays over-allocated, and the schedule with the new delays.
 *
 * Tasks leveling may move — leaves scheduled automatically, not started, with a duration,
 * as soon as possible (or no earlier than a date) and using a leveled resource — first lose
 * their delays, so that leveling again gives the same answer. Then tasks are placed one at a
 * time in the order of the plan's links, and among the tasks that are free to go, by early
 * start, total float (critical first) and `tieOrder`: each at its earliest start the links
 * allow, or later, at the first instant from which every leveled resource it uses has room
 * for it for its whole span (a task holds its resources from its start to its finish, the
 * nights between included). Tasks that cannot move take their place first. A task needing
 * more of a resource than its capacity waits until the resource is wholly free, and stays
 * reported. The delays are fed back into the scheduler and the placement repeated until
 * they no longer change.
 *
 * Cost: per round one full schedule, then the placement: O((n + m) log n) for the order
 * (n tasks, m links), and per task placed a binary search in each of its resources' load
 * profiles, a walk over the profile's segments from the task's start to where it fits (one
 * calendar look-up per busy stretch passed; segments without working time in the task's
 * calendar are passed without one after the first time) and the insertion of its load
 * (O(k), k segments). A resource given every task of a plan is the costliest case, O(n²)
 * segment steps in all: 10,000 tasks wanting one resource at the project start level in
 * about 0.6 s on the 2-core development machine (test/leveling.test.ts), 10,000 linked tasks
 * over 100 resources in about 0.4 s. Forward plans without ALAP tasks take at most two
 * rounds; ALAP tasks sit at late dates, which follow the leveled plan's finish and can keep
 * moving it, so there are at most `MAX_ROUNDS`, after which what is still over-allocated is
 * reported.
 */
export function levelResources(input: ScheduleInput, options: LevelingOptions = {}): LevelingResult {
  const net = new Network(input);
  const plan = levelingPlan(net, options);
  const original = net.delay;
  let delays: Float64Array = Float64Array.from(original, (delay, i) => (plan.movable[i] ? 0 : delay));
  let priority: Priority | undefined;
  for (let round = 1; ; round++) {
    const scheduler = new Scheduler(withDelays(input, net, delays));
    const schedule = scheduler.current;
    const st = scheduler.state;
    priority ??= priorities(st, options.tieOrder);
    // The placement replays the forward pass on the run's state; the run's dates (`start`,
    // `finish`), its result and its network's shape stay as the run left them.
    const next = placeTasks(st, plan, priority);
    if (round === MAX_ROUNDS || next.every((delay, i) => delay === delays[i])) {
      const changes: LevelingDelayChange[] = [];
      for (let i = 0; i < net.n; i++) if (delays[i] !== original[i]) changes.push({ taskId: net.ids[i]!, fromMin: original[i]!, toMin: delays[i]! });
      return { delays: changes, overallocations: findOverallocations(st, plan), schedule, rounds: round };
    }
    delays = next;
  }
}

function levelingPlan(net: Network, options: LevelingOptions): LevelingPlan {
  const only = options.resourceIds ? new Set(options.resourceIds) : null;
  const demands: (Map<string, number> | undefined)[] = new Array(net.n);
  const used = new Set<string>();
  for (let i = 0; i < net.n; i++) {
    const assignments = net.tasks[i]!.assignments;
    if (net.isSummary[i] || !Array.isArray(assignments)) continue;
    for (const assignment of assignments as unknown[]) {
      const { resourceId, unitsPct } = (assignment ?? {}) as { resourceId?: unknown; unitsPct?: unknown };
      if (typeof resourceId !== 'string' || typeof unitsPct !== 'number' || !(unitsPct > 0) || (only && !only.has(resourceId))) continue;
      const demand = (demands[i] ??= new Map());
      demand.set(resourceId, (demand.get(resourceId) ?? 0) + unitsPct);
      used.add(resourceId);
    }
  }
  const resourceIds = [...used].sort();
  const indexOf = new Map(resourceIds.map((id, k) => [id, k]));
  const uses = demands.map((demand) => (demand ? [...demand].map(([id, units]) => ({ resource: indexOf.get(id)!, units })) : undefined));
  const movable = new Uint8Array(net.n);
  for (let i = 0; i < net.n; i++) movable[i] = uses[i] && mayDelay(net, i) ? 1 : 0;
  const capacity = (id: string) => {
    const given = options.capacityPct?.[id];
    return typeof given === 'number' && Number.isFinite(given) ? Math.max(0, given) : 100;
  };
  return { resourceIds, capacities: resourceIds.map(capacity), uses, movable };
}

/**
 * Whether leveling may delay task i: a delay moves only a task scheduled at its early dates
 * (docs/scheduling.md, decision 6: ALAP tasks ignore it; in a finish-scheduled project only
 * ASAP tasks sit at their early dates), and a "no later than" or "must" date would be
 * broken by one.
 */
function mayDelay(net: Network, i: number): boolean {
  const task = net.tasks[i]!;
  const kind = net.ckind[i]!;
  const flexible = net.backward ? kind === C_ASAP : kind === C_ASAP || kind === C_SNET || kind === C_FNET;
  return flexible && !net.isSummary[i] && !net.milestone[i] && task.manuallyScheduled !== true && !net.started[i] && !net.complete[i] && !(Number(task.progressPct) > 0);
}

/** The input with the movable tasks' delays replaced (the other tasks' objects are the input's). */
function withDelays(input: ScheduleInput, net: Network, delays: Float64Array): ScheduleInput {
  const tasks = input.tasks.slice();
  for (let i = 0; i < net.n; i++) {
    if (delays[i] === net.delay[i]) continue;
    const k = net.inputPos[i]!;
    tasks[k] = { ...tasks[k]!, levelingDelayMin: delays[i]! };
  }
  return { ...input, tasks };
}

/** The Standard order's keys of each task, from the plan without leveling delays. */
interface Priority {
  start: Float64Array;
  float: Float64Array;
  tie: Float64Array;
}

function priorities(st: ScheduleState, tieOrder: readonly string[] | null | undefined): Priority {
  const net = st.net;
  const listed = new Map((tieOrder ?? []).map((id, k) => [id, k]));
  const tie = new Float64Array(net.n);
  for (let i = 0; i < net.n; i++) tie[i] = listed.get(net.ids[i]!) ?? listed.size + i;
  return { start: Float64Array.from(st.es.subarray(0, net.n)), float: Float64Array.from(st.tf), tie };
}

/**
 * Tasks leveling does not place at dates the forward pass computes: at actual or manual
 * dates, or at late dates (ALAP in a forward project; everything but ASAP in a
 * finish-scheduled one). Their load is where the run put them.
 */
function isHeld(st: ScheduleState, i: number): boolean {
  const net = st.net;
  if (net.started[i] || net.manual[i]) return true;
  return net.backward ? net.ckind[i] !== C_ASAP : atLateDates(st, i);
}

/**
 * One placement: replays the forward pass of a run over the plan's nodes in an order that
 * follows the links and, among nodes free to go, takes tasks that cannot move first, then
 * movable tasks by the Standard order; each movable task gets the delay that puts it where
 * its resources have room. Changes the run's state; returns every task's delay.
 */
function placeTasks(st: ScheduleState, plan: LevelingPlan, priority: Priority): Float64Array {
  const net = st.net;
  const n = net.n;
  const profiles = plan.capacities.map((capacity) => new LoadProfile(capacity));
  const held = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const uses = plan.uses[i];
    if (!uses || !isHeld(st, i)) continue;
    held[i] = 1;
    for (const use of uses) profiles[use.resource]!.add(st.start[i]!, st.finish[i]!, use.units);
  }
  // The early dates as the run's last forward pass computed them: with the ALAP rule in a
  // forward project (pass 2), without it in a finish-scheduled one.
  st.pass2 = !net.backward && net.hasAlap;
  const movable = plan.movable;
  const { start, float, tie } = priority;
  const heap = new NumberHeap((a, b) => {
    const fixedA = a >= n || !movable[a];
    const fixedB = b >= n || !movable[b];
    if (fixedA || fixedB) return fixedA === fixedB ? a < b : fixedA;
    return start[a] !== start[b] ? start[a]! < start[b]! : float[a] !== float[b] ? float[a]! < float[b]! : tie[a]! < tie[b]!;
  });
  for (const v of inLinkOrder(net, heap)) {
    if (v < n && movable[v]) {
      placeTask(st, v, plan.uses[v]!, profiles);
      continue;
    }
    forwardNode(st, v);
    const uses = v < n && !held[v] ? plan.uses[v] : undefined;
    for (const use of uses ?? []) profiles[use.resource]!.add(st.es[v]!, st.ef[v]!, use.units);
  }
  return Float64Array.from(net.delay);
}

/** Puts a movable task at its earliest start from which its resources have room for it, through its delay. */
function placeTask(st: ScheduleState, i: number, uses: readonly Use[], profiles: readonly LoadProfile[]): void {
  const net = st.net;
  const cal = net.cals[i]!;
  net.delay[i] = 0;
  forwardNode(st, i);
  const earliest = st.es[i]!;
  const start = earliestFit(uses, profiles, cal, earliest, st.ef[i]!, net.dur[i]!);
  if (start !== earliest) {
    // The engine adds the delay to the working position of the start the links give (forward.ts).
    net.delay[i] = cal.position(start) - cal.position(earliest);
    forwardNode(st, i);
  }
  for (const use of uses) profiles[use.resource]!.add(st.es[i]!, st.ef[i]!, use.units);
}

/**
 * The first start from `start` on (finishing at `finish`, `duration` working minutes later)
 * at which every resource the task uses has room for it until it finishes. A demand above
 * a resource's capacity waits for the whole resource.
 */
function earliestFit(uses: readonly Use[], profiles: readonly LoadProfile[], cal: WorkCalendar, start: number, finish: number, duration: number): number {
  let s = start;
  let f = finish;
  search: for (;;) {
    for (const use of uses) {
      const profile = profiles[use.resource]!;
      const room = profile.capacity - Math.min(use.units, profile.capacity);
      const { times, units } = profile;
      for (let j = profile.segmentAt(s); j < times.length && times[j]! < f; j++) {
        if (units[j]! <= room) continue;
        // Too busy: the next start lies past this segment and every one after it that is too
        // busy as well or has no working time of the task's calendar.
        let free = profile.end(j);
        for (j++; j < times.length && (units[j]! > room || profile.isIdle(j, cal)); j++) free = profile.end(j);
        const next = cal.nextWorkStart(free);
        // Calendars read instants past their last year as that edge: nothing later exists.
        if (!(next > s)) return s;
        s = next;
        f = cal.finishAtPosition(cal.position(s) + duration);
        continue search;
      }
    }
    return s;
  }
}

/**
 * A resource's load over time: from `times[j]` to `times[j + 1]` (the last segment lasts
 * forever) `units[j]` percent are assigned. The first segment starts at −∞.
 */
class LoadProfile {
  readonly times: number[] = [-Infinity];
  readonly units: number[] = [0];
  /** Per segment: calendars known to have no working time in it (a split segment's parts keep what the whole had). */
  private readonly idleFor: (readonly WorkCalendar[] | undefined)[] = [undefined];

  constructor(readonly capacity: number) {}

  /** The segment holding instant t. */
  segmentAt(t: number): number {
    const times = this.times;
    let low = 0;
    let high = times.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (times[middle]! <= t) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  end(j: number): number {
    return j + 1 < this.times.length ? this.times[j + 1]! : Infinity;
  }

  /** Whether segment j holds no working time of `cal` (so no task on it can start there). */
  isIdle(j: number, cal: WorkCalendar): boolean {
    const known = this.idleFor[j];
    if (known?.includes(cal)) return true;
    if (cal.nextWorkStart(this.times[j]!) < this.end(j)) return false;
    this.idleFor[j] = known ? [...known, cal] : [cal];
    return true;
  }

  add(from: number, to: number, units: number): void {
    if (!(to > from)) return;
    const first = this.split(from);
    const last = this.split(to);
    for (let j = first; j < last; j++) this.units[j]! += units;
  }

  /** Makes t a segment boundary; returns the segment starting at t. */
  private split(t: number): number {
    const j = this.segmentAt(t);
    if (this.times[j] === t) return j;
    this.times.splice(j + 1, 0, t);
    this.units.splice(j + 1, 0, this.units[j]!);
    this.idleFor.splice(j + 1, 0, this.idleFor[j]);
    return j + 1;
  }
}

/**
 * The network's live nodes in an order the forward pass may take (every node after the
 * nodes it reads: Kahn's algorithm over the links and the implicit summary edges, as
 * `Network.sortTopologically`), choosing among the nodes free to go by the heap's order.
 */
function* inLinkOrder(net: Network, heap: NumberHeap): Generator<number> {
  const n = net.n;
  const { inStart, outStart, outDst, parent, children, isSummary } = net;
  const waiting = new Int32Array(2 * n);
  for (let v = 0; v < 2 * n; v++) waiting[v] = inStart[v + 1]! - inStart[v]!;
  for (let i = 0; i < n; i++) {
    if (parent[i]! < 0) continue;
    waiting[i]!++;
    waiting[n + parent[i]!]!++;
  }
  const release = (w: number) => {
    if (--waiting[w]! === 0) heap.push(w);
  };
  for (let v = 0; v < 2 * n; v++) if ((v < n || isSummary[v - n]) && waiting[v] === 0) heap.push(v);
  while (heap.size > 0) {
    const v = heap.pop();
    yield v;
    for (let q = outStart[v]!; q < outStart[v + 1]!; q++) release(outDst[q]!);
    const task = v < n ? v : v - n;
    if (v < n && isSummary[v]) for (const child of children[v]!) release(child);
    else if (parent[task]! >= 0) release(n + parent[task]!);
  }
}

/**
 * Every span in which a leveled resource is assigned beyond its capacity in the run's
 * schedule: a sweep over the tasks' spans per resource, O(a log a) for a assignments.
 */
function findOverallocations(st: ScheduleState, plan: LevelingPlan): Overallocation[] {
  const net = st.net;
  const spans: { at: number; units: number; task: number }[][] = plan.resourceIds.map(() => []);
  for (let i = 0; i < net.n; i++) {
    if (!(st.finish[i]! > st.start[i]!)) continue;
    for (const use of plan.uses[i] ?? []) {
      spans[use.resource]!.push({ at: st.start[i]!, units: use.units, task: i }, { at: st.finish[i]!, units: -use.units, task: i });
    }
  }
  const found: Overallocation[] = [];
  for (let r = 0; r < spans.length; r++) {
    // Spans are half-open: at an instant where one task ends and another starts, the end comes first.
    const events = spans[r]!.sort((a, b) => a.at - b.at || a.units - b.units);
    const active = new Set<number>();
    let load = 0;
    let run: OverRun | null = null;
    for (let k = 0; k < events.length; ) {
      const at = events[k]!.at;
      for (; k < events.length && events[k]!.at === at; k++) {
        const { units, task } = events[k]!;
        load += units;
        if (units > 0) active.add(task);
        else active.delete(task);
      }
      if (load <= plan.capacities[r]!) {
        if (run) found.push(overallocation(net, plan, r, run));
        run = null;
        continue;
      }
      // Over capacity until the next event (there is one: every span ends).
      run ??= { from: at, to: at, peak: load, tasks: new Set() };
      run.to = events[k]!.at;
      run.peak = Math.max(run.peak, load);
      for (const task of active) run.tasks.add(task);
    }
  }
  return found;
}

/** A stretch of time over a resource's capacity: its span, its peak load and the tasks assigned during it. */
interface OverRun {
  from: number;
  to: number;
  peak: number;
  tasks: Set<number>;
}

/** A span of over-allocation as reported, with the reason leveling left it (see `OverallocationReason`). */
function overallocation(net: Network, plan: LevelingPlan, resource: number, run: OverRun): Overallocation {
  const tasks = [...run.tasks];
  const capacity = plan.capacities[resource]!;
  const demand = (i: number) => plan.uses[i]!.find((use) => use.resource === resource)!.units;
  const reason: OverallocationReason = tasks.some((i) => demand(i) > capacity)
    ? 'demand_exceeds_capacity'
    : tasks.some((i) => !plan.movable[i])
      ? 'fixed_tasks'
      : 'not_converged';
  return {
    resourceId: plan.resourceIds[resource]!,
    startAt: toIsoString(run.from),
    finishAt: toIsoString(run.to),
    peakUnitsPct: run.peak,
    capacityPct: capacity,
    taskIds: tasks.map((i) => net.ids[i]!).sort(),
    reason,
  };
}
