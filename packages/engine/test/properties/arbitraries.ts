import fc from 'fast-check';
import type { CalendarInput, DependencyInput, ScheduleInput, TaskInput } from '../../src/index.js';

const DAY = [['08:00', '12:00'], ['13:00', '17:00']] as [string, string][];
export const CALENDARS: CalendarInput[] = [
  { id: 'tueoff', weekly: [[], DAY, DAY, DAY, DAY, DAY, []], exceptions: [{ from: '2026-03-03', to: '2026-03-03', intervals: [] }] },
  { id: 'mornings', weekly: [[], [['08:00', '12:00']], [['08:00', '12:00']], [['08:00', '12:00']], [['08:00', '12:00']], [['08:00', '12:00']], []] },
  { id: 'ny', timeZone: 'America/New_York', weekly: [[], DAY, DAY, DAY, DAY, DAY, []] },
  { id: 'nights', weekly: [[['22:00', '24:00']], [['00:00', '06:00'], ['22:00', '24:00']], [['00:00', '06:00']], [], [['00:00', '24:00']], [['10:00', '11:00']], []] },
];

const KINDS = [
  'asap', 'asap', 'asap', 'asap', 'alap', 'start_no_earlier_than', 'start_no_later_than',
  'finish_no_earlier_than', 'finish_no_later_than', 'must_start_on', 'must_finish_on',
] as const;

const instant = fc.integer({ min: 0, max: 20 * 24 * 4 }).map((q) => new Date(Date.UTC(2026, 1, 26) + q * 15 * 60_000).toISOString());

export interface PlanOptions {
  maxTasks?: number;
  allowCycles?: boolean;
  /** Only the Standard calendar and no progress/manual tasks. */
  simple?: boolean;
}

/**
 * Random plans: summaries, milestones, all link types with leads/lags, elapsed durations
 * and lags, constraints, calendars, progress, manual tasks.
 */
export function arbPlan(opts: PlanOptions = {}): fc.Arbitrary<ScheduleInput> {
  const maxTasks = opts.maxTasks ?? 14;
  return fc
    .record({
      n: fc.integer({ min: 1, max: maxTasks }),
      seedTasks: fc.array(
        fc.record({
          parent: fc.integer({ min: -3, max: maxTasks - 1 }),
          kind: fc.constantFrom(...KINDS),
          constraintDate: instant,
          duration: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 40 }).map((k) => k * 60), fc.integer({ min: 1, max: 3000 })),
          elapsed: fc.constantFrom(false, false, false, true),
          milestone: fc.boolean(),
          calendar: fc.constantFrom(null, null, null, 'tueoff', 'mornings', 'ny', 'nights'),
          deadline: fc.option(instant, { freq: 6 }),
          delay: fc.constantFrom(0, 0, 0, 60, 480),
          progress: fc.constantFrom('none', 'none', 'none', 'started', 'done', 'manual', 'manual estimated'),
          progressStart: instant,
          span: fc.integer({ min: 0, max: 4000 }),
        }),
        { minLength: maxTasks, maxLength: maxTasks },
      ),
      links: fc.array(
        fc.record({
          a: fc.nat(maxTasks - 1),
          b: fc.nat(maxTasks - 1),
          type: fc.constantFrom('FS', 'FS', 'SS', 'FF', 'SF'),
          lag: fc.oneof(fc.constant(0), fc.integer({ min: -1500, max: 1500 })),
          elapsed: fc.constantFrom(false, false, true),
        }),
        { maxLength: maxTasks * 2 },
      ),
      startAt: instant,
      backward: fc.integer({ min: 0, max: 4 }),
    })
    .map(({ n, seedTasks, links, startAt, backward }) => {
      const tasks: TaskInput[] = [];
      for (let i = 0; i < n; i++) {
        const s = seedTasks[i]!;
        // Parents point to a lower index, so the hierarchy is a forest.
        const parent = s.parent >= 0 && s.parent < i ? `t${s.parent}` : null;
        const t: TaskInput = {
          id: `t${i}`,
          key: `K-${i}`,
          name: `Task ${i}`,
          parentId: parent,
          type: s.milestone ? 'milestone' : 'task',
          durationMin: s.milestone ? 0 : s.duration,
          durationElapsed: s.elapsed,
          constraintKind: s.kind,
          constraintDate: s.kind === 'asap' || s.kind === 'alap' ? null : s.constraintDate,
          deadline: s.deadline,
          calendarId: opts.simple ? null : s.calendar,
          levelingDelayMin: s.delay,
        };
        if (!opts.simple) {
          if (s.progress === 'started') {
            t.actualStartAt = s.progressStart;
            t.progressPct = 40;
          } else if (s.progress === 'done') {
            t.actualStartAt = s.progressStart;
            t.actualFinishAt = new Date(Date.parse(s.progressStart) + s.span * 60_000).toISOString();
            t.progressPct = 100;
          } else if (s.progress.startsWith('manual')) {
            t.manuallyScheduled = true;
            t.durationEstimated = s.progress === 'manual estimated';
            t.manualStartAt = s.progressStart;
            t.manualFinishAt = new Date(Date.parse(s.progressStart) + s.span * 60_000).toISOString();
          }
        }
        tasks.push(t);
      }
      const isAncestor = (a: number, b: number) => {
        for (let p: string | null | undefined = tasks[b]!.parentId; p; p = tasks[Number(p.slice(1))]!.parentId) if (p === `t${a}`) return true;
        return false;
      };
      const deps: DependencyInput[] = [];
      links.forEach((l, k) => {
        const a = l.a % n;
        const b = l.b % n;
        if (a === b) return;
        if (!opts.allowCycles && (a > b || isAncestor(a, b) || isAncestor(b, a))) return;
        deps.push({ id: `d${k}`, predecessorId: `t${a}`, successorId: `t${b}`, type: l.type, lagMin: l.lag, lagElapsed: l.elapsed });
      });
      // One plan in five is scheduled backward from a finish date.
      const project: ScheduleInput['project'] =
        backward === 0 ? { startAt, scheduleFrom: 'backward', finishAt: new Date(Date.parse(startAt) + 30 * 86_400_000).toISOString() } : { startAt };
      return { project, calendars: opts.simple ? [] : CALENDARS, tasks, dependencies: deps };
    });
}

export function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const out = xs.slice();
  let s = seed >>> 0 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
