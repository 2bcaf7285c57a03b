import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { schedule, type CalendarInput, type ScheduleInput, type TaskInput } from '../../src/index.js';

/** MSPDI golden test: every normalized Microsoft Project plan in `mspdi/` (see its README). */
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'mspdi');

interface FixtureTask {
  uid: number;
  name: string | null;
  parentUid: number | null;
  summary: boolean;
  milestone: boolean;
  /** The minutes of `durationMin`; Project's unit for the duration: `m`, `h`, `d`, `w`, `mo`, elapsed `em` … `emo`, `?` when estimated. */
  durationMin: number | null;
  durationFormat: string;
  constraintKind: string;
  constraintDate: string | null;
  deadline: string | null;
  percentComplete: number;
  actualStart: string | null;
  actualFinish: string | null;
  manual: boolean;
  manualStart?: string | null;
  manualFinish?: string | null;
  calendarUid: number | null;
  expected: {
    start: string;
    finish: string;
    earlyStart: string;
    earlyFinish: string;
    lateStart: string;
    lateFinish: string;
    totalSlackMin: number;
    freeSlackMin: number;
    critical: boolean;
  };
}
interface FixtureCalendar {
  uid: number;
  name: string;
  baseUid: number | null;
  weekly: [string, string][][];
  exceptions: { from: string; to: string; intervals?: [string, string][] }[];
}
interface Fixture {
  name: string;
  projectStart: string;
  projectFinish: string;
  scheduleFrom: string;
  calendars: { projectCalendarUid: number; project: FixtureCalendar; taskCalendarsUsed: FixtureCalendar[] };
  unsupported: string[];
  tasks: FixtureTask[];
  /** `lagFormat` as `durationFormat`; absent on links without a lag. */
  links: { predecessorUid: number; successorUid: number; type: 'FS' | 'SS' | 'FF' | 'SF'; lagMin: number; lagFormat?: string }[];
}

const z = (s: string | null | undefined) => (s ? `${s.slice(0, 19)}Z` : null);

/** Whether a duration or lag format of Microsoft Project is elapsed time (`3 ed`, `1 emo?`): its minutes are clock minutes. */
const isElapsed = (format: string | null | undefined) => /^e(m|h|d|w|mo)\??$/.test(format ?? '');

function toCalendar(c: FixtureCalendar): CalendarInput {
  return {
    id: String(c.uid),
    name: c.name,
    timeZone: 'UTC',
    weekly: c.weekly,
    exceptions: (c.exceptions ?? []).map((e) => ({ from: e.from.slice(0, 10), to: e.to.slice(0, 10), intervals: e.intervals ?? [] })),
    baseCalendarId: c.baseUid === null ? null : String(c.baseUid),
  };
}

/** Maps a fixture to engine input; the project summary row (uid 0) is left out, as MS Project's own comparator does. */
export function fixtureToInput(f: Fixture): ScheduleInput {
  const tasks: TaskInput[] = f.tasks
    .filter((t) => t.uid !== 0)
    .map((t) => ({
      id: String(t.uid),
      name: t.name,
      parentId: t.parentUid === null || t.parentUid === 0 ? null : String(t.parentUid),
      type: t.summary ? 'summary' : t.milestone ? 'milestone' : 'task',
      durationMin: t.durationMin ?? 0,
      durationElapsed: isElapsed(t.durationFormat),
      constraintKind: t.constraintKind as TaskInput['constraintKind'],
      constraintDate: z(t.constraintDate),
      deadline: z(t.deadline),
      progressPct: t.percentComplete,
      actualStartAt: z(t.actualStart),
      actualFinishAt: z(t.actualFinish),
      manuallyScheduled: t.manual,
      manualStartAt: z(t.manualStart),
      manualFinishAt: z(t.manualFinish),
      durationEstimated: t.durationFormat.endsWith('?'),
      calendarId: t.calendarUid === null ? null : String(t.calendarUid),
    }));
  return {
    project: {
      startAt: z(f.projectStart)!,
      scheduleFrom: f.scheduleFrom === 'backward' ? 'backward' : 'forward',
      finishAt: z(f.projectFinish),
      calendarId: String(f.calendars.projectCalendarUid),
    },
    calendars: [f.calendars.project, ...(f.calendars.taskCalendarsUsed ?? [])].map(toCalendar),
    tasks,
    dependencies: f.links.map((l, k) => ({
      id: `L${k}`,
      predecessorId: String(l.predecessorUid),
      successorId: String(l.successorUid),
      type: l.type,
      lagMin: l.lagMin,
      lagElapsed: isElapsed(l.lagFormat),
    })),
  };
}

/** The five fields the issue asks for, then the other values Microsoft Project stores. */
const FIELDS = ['start', 'finish', 'earlyStart', 'lateFinish', 'totalSlack', 'earlyFinish', 'lateStart', 'freeSlack', 'critical'] as const;
type Field = (typeof FIELDS)[number];

/**
 * Values a file holds that Microsoft Project computed for an earlier state of its plan and
 * did not compute again before saving (the evidence is in `mspdi/README.md`). For these the
 * test expects what Microsoft Project's own rules give for the plan as saved, and checks
 * that the file does hold another value (an entry no longer needed fails).
 */
const STALE_IN_FILE: Record<string, Record<number, Partial<Record<Field, string | number>>>> = {
  // Without links and on one calendar, tasks 1 to 4 have the late finish of task 5: the
  // project finish (task 10's, 24 April 08:00) taken back to the previous working end.
  'mpxj-mspdiduration.json': {
    1: { lateStart: '2009-04-23T16:59:00', lateFinish: '2009-04-23T17:00:00', totalSlack: 10559, freeSlack: 10559 },
    2: { lateStart: '2009-04-23T16:00:00', lateFinish: '2009-04-23T17:00:00', totalSlack: 10500, freeSlack: 10500 },
    3: { lateStart: '2009-04-23T08:00:00', lateFinish: '2009-04-23T17:00:00', totalSlack: 10080, freeSlack: 10080 },
    4: { lateStart: '2009-04-17T08:00:00', lateFinish: '2009-04-23T17:00:00', totalSlack: 8160, freeSlack: 8160 },
  },
};

describe('MSPDI golden files (Microsoft Project computed dates)', () => {
  const files = readdirSync(FIXTURES).filter((f) => /^mpxj-.*\.json$/.test(f)).sort();
  // A suite without plans would pass while checking nothing.
  if (files.length === 0) throw new Error(`no mpxj-*.json plan in ${FIXTURES}`);
  for (const file of files) {
    it(`${file} matches Microsoft Project to the minute`, () => {
      const f = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as Fixture;
      const result = schedule(fixtureToInput(f));
      const byId = new Map(result.tasks.map((t) => [t.id, t]));
      const counts: Record<string, number> = Object.fromEntries(FIELDS.map((k) => [k, 0]));
      const mismatches: string[] = [];
      let total = 0;
      let stale = 0;
      for (const t of f.tasks) {
        if (t.uid === 0) continue;
        const r = byId.get(String(t.uid))!;
        total++;
        const e = t.expected;
        const pairs: [Field, unknown, unknown][] = [
          ['start', r.startAt, z(e.start)],
          ['finish', r.finishAt, z(e.finish)],
          ['earlyStart', r.earlyStartAt, z(e.earlyStart)],
          ['lateFinish', r.lateFinishAt, z(e.lateFinish)],
          ['totalSlack', r.totalFloatMin, e.totalSlackMin],
          ['earlyFinish', r.earlyFinishAt, z(e.earlyFinish)],
          ['lateStart', r.lateStartAt, z(e.lateStart)],
          ['freeSlack', r.freeFloatMin, e.freeSlackMin],
          ['critical', r.isCritical, e.critical],
        ];
        const staleValues = STALE_IN_FILE[file]?.[t.uid] ?? {};
        for (const [k, got, inFile] of pairs) {
          const listed = staleValues[k];
          const now = typeof listed === 'string' ? z(listed) : listed;
          if (now !== undefined) {
            stale++;
            if (now === inFile) mismatches.push(`${t.uid} ${t.name} ${k}: listed as stale, but the file holds ${String(inFile)}`);
          }
          const want = now ?? inFile;
          const g = typeof got === 'string' ? got.replace('.000Z', 'Z') : got;
          if (g === want) counts[k]!++;
          else mismatches.push(`${t.uid} ${t.name} ${k}: got ${String(g)} want ${String(want)}`);
        }
      }
      console.log(
        `[golden] ${file}: ${total} tasks — ` +
          FIELDS.map((k) => `${k} ${counts[k]}/${total}`).join(', ') +
          (stale ? ` (${stale} values stale in the file, checked against the plan as saved)` : ''),
      );
      if (mismatches.length) console.log(mismatches.slice(0, 20).join('\n'));
      expect(mismatches).toEqual([]);
    });
  }
});
