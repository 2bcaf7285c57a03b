import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { limits } from '@gantry/contract';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/domain/errors.js';
import { fileJobThreads, readMspdiOffThread, writeFileOffThread } from '../../src/domain/exchange/off-thread.js';
import { readMspdi } from '../../src/domain/exchange/mspdi/read.js';
import { scheduleDocument } from '../../src/domain/exchange/schedule-document.js';
import { writeMspdi } from '../../src/domain/exchange/mspdi/write.js';
import { writeCsv } from '../../src/domain/exchange/csv.js';
import { GOLDEN_MSPDI, notImportedFeatures } from '../support/golden-files.js';

const FIXTURES = GOLDEN_MSPDI;

interface Fixture {
  name: string;
  projectStart: string;
  calendars: { projectCalendarUid: number; project: { uid: number; name: string; weekly: [string, string][][]; exceptions: { from: string; to: string; intervals?: [string, string][] }[] } };
  tasks: {
    uid: number;
    name: string | null;
    parentUid: number | null;
    summary: boolean;
    milestone: boolean;
    durationMin: number | null;
    constraintKind: string;
    constraintDate: string | null;
    manual: boolean;
    manualStart?: string | null;
    manualFinish?: string | null;
    calendarUid: number | null;
    expected: { start: string; finish: string; critical: boolean };
  }[];
  links: { predecessorUid: number; successorUid: number; type: string; lagMin: number }[];
}

const z = (wallClock: string | null | undefined) => (wallClock ? `${wallClock.slice(0, 19)}Z` : null);

function refusal(xml: string): AppError {
  try {
    readMspdi(xml);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the file was accepted');
}

const files = readdirSync(FIXTURES).filter((file) => /^mpxj-.*\.json$/.test(file)).sort();

describe('readMspdi and writeMspdi on Microsoft Project files', () => {
  if (files.length === 0) throw new Error(`no mpxj-*.json plan in ${FIXTURES}`);
  for (const file of files) {
    const fixture = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as Fixture;
    const notImported = notImportedFeatures(file);
    if (notImported.length > 0) {
      it.skip(`${fixture.name}: ${notImported.join(', ')} not imported yet`);
      continue;
    }
    const xml = readFileSync(join(FIXTURES, fixture.name), 'utf8');
    const fixtureTasks = fixture.tasks.filter((task) => task.uid !== 0);

    it(`${fixture.name}: tasks, links, project start and calendars are those MPXJ read`, () => {
      const { document } = readMspdi(xml);
      expect(document.startDate).toBe(fixture.projectStart.slice(0, 10));
      expect(document.calendarRef).toBe(String(fixture.calendars.projectCalendarUid));
      const calendar = document.calendars.find((candidate) => candidate.ref === document.calendarRef)!;
      expect(calendar.weekly).toEqual(fixture.calendars.project.weekly);
      expect(calendar.exceptions.map(({ from, to, intervals }) => ({ from, to, intervals }))).toEqual(
        fixture.calendars.project.exceptions.map((exception) => ({ from: exception.from.slice(0, 10), to: exception.to.slice(0, 10), intervals: exception.intervals ?? [] })),
      );
      expect(
        document.tasks.map((task) => ({
          ref: task.ref,
          name: task.name,
          parentRef: task.parentRef,
          type: task.type,
          durationMin: task.type === 'summary' ? null : task.durationMin,
          constraintKind: task.constraintKind,
          constraintDate: task.constraintDate,
          manual: task.manuallyScheduled,
          manualStartAt: task.manualStartAt,
          manualFinishAt: task.manualFinishAt,
          calendarRef: task.calendarRef,
        })),
      ).toEqual(
        fixtureTasks.map((task) => ({
          ref: String(task.uid),
          name: task.name ?? '',
          parentRef: task.parentUid === null || task.parentUid === 0 ? null : String(task.parentUid),
          type: task.summary ? 'summary' : task.milestone ? 'milestone' : 'task',
          durationMin: task.summary ? null : (task.durationMin ?? 0),
          constraintKind: task.constraintKind,
          constraintDate: z(task.constraintDate),
          manual: task.manual,
          manualStartAt: task.manual ? z(task.manualStart) : null,
          manualFinishAt: task.manual ? z(task.manualFinish) : null,
          calendarRef: task.calendarUid === null ? null : String(task.calendarUid),
        })),
      );
      expect(document.dependencies).toEqual(
        fixture.links.map((link) => ({ predecessorRef: String(link.predecessorUid), successorRef: String(link.successorUid), type: link.type, lagMin: link.lagMin })),
      );
    });

    it(`${fixture.name}: the engine schedules the document as Microsoft Project did`, () => {
      const { document } = readMspdi(xml);
      const results = new Map(scheduleDocument(document).tasks.map((task) => [task.id, task]));
      const dates = (start: string | null, finish: string | null) => ({ start: start?.replace('.000Z', 'Z'), finish: finish?.replace('.000Z', 'Z') });
      expect(fixtureTasks.map((task) => ({ uid: task.uid, ...dates(results.get(String(task.uid))!.startAt, results.get(String(task.uid))!.finishAt) }))).toEqual(
        fixtureTasks.map((task) => ({ uid: task.uid, ...dates(z(task.expected.start), z(task.expected.finish)) })),
      );
    });

    it(`${fixture.name}: the critical tasks are those Microsoft Project marked`, () => {
      const { document } = readMspdi(xml);
      const results = new Map(scheduleDocument(document).tasks.map((task) => [task.id, task.isCritical]));
      expect(fixtureTasks.map((task) => [task.uid, results.get(String(task.uid))])).toEqual(fixtureTasks.map((task) => [task.uid, task.expected.critical]));
    });

    it(`${fixture.name}: written and read again, the document is the same`, () => {
      const { document } = readMspdi(xml);
      const computed = new Map(scheduleDocument(document).tasks.map((task) => [task.id, { startAt: task.startAt, finishAt: task.finishAt }]));
      expect(readMspdi(writeMspdi(document, computed))).toEqual({ document, report: { dropped: [], approximated: [] } });
    });
  }
});

describe('readMspdi reports what it leaves out, once per kind', () => {
  it('aggregates repeated findings with a count, and maps resources, assignments and baselines', () => {
    const tasks = Array.from(
      { length: 50 },
      (_, index) => `<Task><UID>${index + 1}</UID><ID>${index + 1}</ID><Name>T${index + 1}</Name><OutlineLevel>1</OutlineLevel><Duration>PT8H0M0S</Duration><Hyperlink>x</Hyperlink>
        <PredecessorLink><PredecessorUID>999</PredecessorUID><Type>1</Type></PredecessorLink>
        <Baseline><Number>0</Number><Start>2024-01-01T08:00:00</Start><Finish>2024-01-01T17:00:00</Finish><Duration>PT8H0M0S</Duration><Work>PT0H0M0S</Work><Cost>5</Cost></Baseline></Task>`,
    ).join('');
    const xml = `<?xml version="1.0"?><Project xmlns="http://schemas.microsoft.com/project"><Title>R &amp; D</Title><StartDate>2024-01-01T08:00:00</StartDate>
      <Tasks><Task><UID>0</UID><Name>summary row</Name></Task><Task><UID>77</UID><IsNull>1</IsNull></Task>${tasks}</Tasks>
      <Resources><Resource><UID>1</UID><Name>Ada</Name><Type>1</Type></Resource><Resource><UID>2</UID><Name>Steel</Name><Type>0</Type></Resource></Resources>
      <Assignments><Assignment><UID>1</UID><TaskUID>1</TaskUID><ResourceUID>1</ResourceUID><Units>0.5</Units></Assignment>
        <Assignment><UID>2</UID><TaskUID>2</TaskUID><ResourceUID>2</ResourceUID><Units>1</Units></Assignment>
        <Assignment><UID>3</UID><TaskUID>3</TaskUID><ResourceUID>-65535</ResourceUID><Units>1</Units></Assignment></Assignments></Project>`;
    const { document, report } = readMspdi(xml);
    expect(document.name).toBe('R & D');
    expect(document.tasks).toHaveLength(50);
    expect(document.resources).toEqual([{ ref: '1', name: 'Ada', userId: null, maxUnitsPct: 100 }]);
    expect(document.assignments).toEqual([{ taskRef: '1', resourceRef: '1', unitsPct: 50 }]);
    expect(document.baselines).toHaveLength(1);
    expect(document.baselines[0]).toMatchObject({ name: 'Baseline', slot: 0 });
    expect(document.baselines[0]!.tasks[0]).toEqual({ taskRef: '1', startAt: '2024-01-01T08:00:00Z', finishAt: '2024-01-01T17:00:00Z', durationMin: 480, workMin: 0, costFixed: 5 });
    expect(report.approximated).toEqual([]);
    expect(report.dropped.map(({ subject, ref, count }) => ({ subject, ref, count }))).toEqual([
      { subject: 'task', ref: '77', count: 1 },
      { subject: 'task', ref: '1', count: 50 },
      { subject: 'resource', ref: '2', count: 1 },
      { subject: 'dependency', ref: '999->1', count: 50 },
      { subject: 'assignment', ref: '2', count: 1 },
    ]);
  });

  const day = (type: number, working: number, times = '') => `<WeekDay><DayType>${type}</DayType><DayWorking>${working}</DayWorking>${times}</WeekDay>`;
  const week = [1, 2, 3, 4, 5, 6, 7].map((type) => day(type, type === 1 || type === 7 ? 0 : 1)).join('');
  const calendar = (uid: number, name: string, inner: string) => `<Calendar><UID>${uid}</UID><Name>${name}</Name><IsBaseCalendar>1</IsBaseCalendar><BaseCalendarUID>-1</BaseCalendarUID>${inner}</Calendar>`;
  const period = (from: string, to: string) => `<TimePeriod><FromDate>${from}T00:00:00</FromDate><ToDate>${to}T23:59:00</ToDate></TimePeriod>`;
  const working = (from: string, to: string) => `<WorkingTimes><WorkingTime><FromTime>${from}:00</FromTime><ToTime>${to}:00</ToTime></WorkingTime></WorkingTimes>`;
  /** A recurring exception as Project writes it: a period, a type, and the codes of that type; not worked unless `times`. */
  const exception = (name: string, from: string, to: string, codes: string, times = '') =>
    `<Exception>${period(from, to)}<Occurrences>1</Occurrences><Name>${name}</Name>${codes}<DayWorking>${times ? 1 : 0}</DayWorking>${times}</Exception>`;

  it('reads calendar exceptions in both forms, keeps one-off ones and writes them back', () => {
    const legacy = `<WeekDay><DayType>0</DayType><DayWorking>0</DayWorking><TimePeriod><FromDate>2024-12-25T00:00:00</FromDate><ToDate>2024-12-26T23:59:00</ToDate></TimePeriod></WeekDay>`;
    const exceptions = `<Exceptions>${exception('May Day', '2024-05-01', '2024-05-01', '<Type>1</Type>', working('09:00', '13:00'))}${exception('Shutdown', '2024-08-05', '2024-08-09', '<Type>1</Type>')}</Exceptions>`;
    const xml = `<Project xmlns="http://schemas.microsoft.com/project"><StartDate>2024-01-01T08:00:00</StartDate><CalendarUID>1</CalendarUID><Calendars>
      ${calendar(1, 'Old', `<WeekDays>${week}${legacy}</WeekDays>`)}${calendar(2, 'New', `<WeekDays>${week}${legacy}</WeekDays>${exceptions}`)}</Calendars></Project>`;
    const { document, report } = readMspdi(xml);
    expect(document.calendars.map((candidate) => candidate.exceptions)).toEqual([
      [{ name: null, from: '2024-12-25', to: '2024-12-26', intervals: [] }],
      [
        { name: 'May Day', from: '2024-05-01', to: '2024-05-01', intervals: [['09:00', '13:00']] },
        // Project writes one occurrence for a one-off exception of several days: its period counts.
        { name: 'Shutdown', from: '2024-08-05', to: '2024-08-09', intervals: [] },
      ],
    ]);
    expect(document.calendars[0]!.weekly[1]).toEqual([['08:00', '12:00'], ['13:00', '17:00']]);
    expect(report).toEqual({ dropped: [], approximated: [] });
    expect(readMspdi(writeMspdi(document)).document).toEqual(document);
  });

  it('keeps each day of a recurring exception and of a work week, so the plan schedules as Project does', () => {
    const exceptions = [
      exception('Fridays off', '2024-01-01', '2024-01-31', '<Type>6</Type><Period>1</Period><DaysOfWeek>32</DaysOfWeek>'),
      exception('Short days', '2024-03-01', '2024-03-31', '<Type>6</Type><Period>2</Period><DaysOfWeek>6</DaysOfWeek>', working('09:00', '12:00')),
      exception('Christmas', '2024-12-25', '2026-12-25', '<Type>2</Type><Month>11</Month><MonthDay>25</MonthDay>'),
      exception('Thanksgiving', '2024-01-01', '2025-12-31', '<Type>3</Type><Month>10</Month><MonthItem>7</MonthItem><MonthPosition>3</MonthPosition>'),
      exception('Last Friday', '2024-01-01', '2024-06-30', '<Type>5</Type><Period>2</Period><MonthItem>8</MonthItem><MonthPosition>4</MonthPosition>'),
      exception('Month end', '2024-02-01', '2024-04-30', '<Type>4</Type><Period>1</Period><MonthDay>31</MonthDay>'),
      exception('Mid-month', '2024-01-20', '2024-06-30', '<Type>4</Type><Period>2</Period><MonthDay>15</MonthDay>'),
      exception('Before 1970', '1969-12-01', '1970-01-10', '<Type>6</Type><Period>1</Period><DaysOfWeek>2</DaysOfWeek>'),
      exception('Every third day', '2024-07-01', '2024-07-07', '<Type>1</Type><Period>3</Period>'),
      exception('Unreadable', '2024-07-01', '2024-07-07', '<Type>9</Type>'),
    ].join('');
    const summer = `<WorkWeeks><WorkWeek>${period('2024-06-03', '2024-06-16')}<Name>Summer</Name><WeekDays>
      ${[2, 3, 4, 5].map((type) => day(type, 1, working('07:00', '15:00'))).join('')}${day(6, 0)}</WeekDays></WorkWeek></WorkWeeks>`;
    const xml = `<Project xmlns="http://schemas.microsoft.com/project"><StartDate>2024-11-25T08:00:00</StartDate><CalendarUID>1</CalendarUID><Calendars>
      ${calendar(1, 'Standard', `<WeekDays>${week}</WeekDays><Exceptions>${exceptions}</Exceptions>${summer}`)}</Calendars>
      <Tasks><Task><UID>1</UID><ID>1</ID><Name>Across Thanksgiving</Name><OutlineLevel>1</OutlineLevel><Duration>PT32H0M0S</Duration></Task></Tasks></Project>`;
    const { document, report } = readMspdi(xml);
    const days = (name: string) => document.calendars[0]!.exceptions.filter((candidate) => candidate.name === name).map(({ from, to }) => (from === to ? from : `${from}..${to}`));
    expect(days('Fridays off')).toEqual(['2024-01-05', '2024-01-12', '2024-01-19', '2024-01-26']);
    // Monday and Tuesday every other week, weeks counted from the one holding 1 March (from Sunday 25 February): each pair is one range.
    expect(days('Short days')).toEqual(['2024-03-11..2024-03-12', '2024-03-25..2024-03-26']);
    expect(document.calendars[0]!.exceptions.find((candidate) => candidate.name === 'Short days')!.intervals).toEqual([['09:00', '12:00']]);
    expect(days('Christmas')).toEqual(['2024-12-25', '2025-12-25', '2026-12-25']);
    expect(days('Thanksgiving')).toEqual(['2024-11-28', '2025-11-27']);
    expect(days('Last Friday')).toEqual(['2024-01-26', '2024-03-29', '2024-05-31']);
    // A month without a 31st: its last day.
    expect(days('Month end')).toEqual(['2024-02-29', '2024-03-31', '2024-04-30']);
    expect(days('Every third day')).toEqual(['2024-07-01', '2024-07-04', '2024-07-07']);
    // The 15th every other month from 20 January: the count starts with February, the first month that can hold it.
    expect(days('Mid-month')).toEqual(['2024-02-15', '2024-04-15', '2024-06-15']);
    expect(days('Before 1970')).toEqual(['1969-12-01', '1969-12-08', '1969-12-15', '1969-12-22', '1969-12-29', '1970-01-05']);
    // The work week's Monday to Thursday (07:00-15:00), then its Fridays (off); its weekends are the default week's.
    expect(days('Summer')).toEqual(['2024-06-03..2024-06-06', '2024-06-10..2024-06-13', '2024-06-07', '2024-06-14']);
    expect(report.dropped.map(({ message, count }) => ({ message, count }))).toEqual([{ message: 'calendar exceptions without a readable period or recurrence are not kept', count: 1 }]);
    expect(report.approximated).toEqual([]);

    // Four days from Monday 25 November, with Thursday 28 (Thanksgiving) off: Monday to Wednesday, then Friday 29.
    const task = scheduleDocument(document).tasks.find((candidate) => candidate.id === '1')!;
    expect([task.startAt, task.finishAt]).toEqual(['2024-11-25T08:00:00.000Z', '2024-11-29T17:00:00.000Z']);
    expect(readMspdi(writeMspdi(document)).document).toEqual(document);
  });

  it('keeps no more exceptions than a calendar holds, and says how many it left out', () => {
    const weekly = exception('Every Monday', '2000-01-03', '2049-12-27', '<Type>6</Type><Period>1</Period><DaysOfWeek>2</DaysOfWeek>');
    const xml = `<Project xmlns="http://schemas.microsoft.com/project"><StartDate>2024-01-01T08:00:00</StartDate><CalendarUID>1</CalendarUID><Calendars>
      ${calendar(1, 'Standard', `<WeekDays>${week}</WeekDays><Exceptions>${weekly}${exception('Later', '2024-05-01', '2024-05-01', '<Type>1</Type>')}</Exceptions>`)}</Calendars></Project>`;
    const { document, report } = readMspdi(xml);
    expect(document.calendars[0]!.exceptions).toHaveLength(limits.calendarExceptionsMax);
    expect(document.calendars[0]!.exceptions.at(-1)!.from).toBe('2019-02-25');
    expect(report.dropped).toEqual([
      { subject: 'calendar', ref: '1', name: 'Standard', message: `days off and special working days beyond ${limits.calendarExceptionsMax} exceptions per calendar are not kept`, count: 2 },
    ]);
  });

  it('approximates elapsed durations and lags', () => {
    const xml = `<Project xmlns="http://schemas.microsoft.com/project"><StartDate>2024-01-01T08:00:00</StartDate><Tasks>
      <Task><UID>1</UID><Name>A</Name><OutlineLevel>1</OutlineLevel><Duration>PT48H0M0S</Duration><DurationFormat>8</DurationFormat></Task>
      <Task><UID>2</UID><Name>B</Name><OutlineLevel>1</OutlineLevel><Duration>PT8H0M0S</Duration>
        <PredecessorLink><PredecessorUID>1</PredecessorUID><Type>1</Type><LinkLag>14400</LinkLag><LagFormat>8</LagFormat></PredecessorLink></Task></Tasks></Project>`;
    const { document, report } = readMspdi(xml);
    expect(document.tasks[0]!.durationMin).toBe(960);
    expect(document.dependencies[0]!.lagMin).toBe(480);
    expect(report.approximated.map((item) => item.subject)).toEqual(['task', 'dependency']);
  });

  it("keeps each resource's Max. Units within the limits, at one value for all time, and writes them back", () => {
    const resource = (uid: number, name: string, inner: string) => `<Resource><UID>${uid}</UID><Name>${name}</Name><Type>1</Type>${inner}</Resource>`;
    const availability = (units: string) =>
      `<AvailabilityPeriods><AvailabilityPeriod><AvailableFrom>2024-01-01T08:00:00</AvailableFrom><AvailableTo>2024-06-30T17:00:00</AvailableTo><AvailableUnits>${units}</AvailableUnits></AvailabilityPeriod></AvailabilityPeriods>`;
    const xml = `<Project xmlns="http://schemas.microsoft.com/project"><StartDate>2024-01-01T08:00:00</StartDate><Resources>
      ${resource(1, 'Cranes', '<MaxUnits>3.00</MaxUnits>')}${resource(2, 'Intern', '<MaxUnits>0.5</MaxUnits>' + availability('0.5'))}
      ${resource(3, 'Nobody', '<MaxUnits>0</MaxUnits>')}${resource(4, 'Army', '<MaxUnits>5000</MaxUnits>')}
      ${resource(5, 'Seasonal', '<MaxUnits>1</MaxUnits>' + availability('2'))}${resource(6, 'Ada', '')}</Resources></Project>`;
    const { document, report } = readMspdi(xml);
    expect(document.resources.map((r) => [r.name, r.maxUnitsPct])).toEqual([
      ['Cranes', 300],
      ['Intern', 50],
      ['Nobody', 1],
      ['Army', limits.resourceMaxUnitsPct],
      ['Seasonal', 100],
      ['Ada', 100],
    ]);
    // Once per kind, with a count.
    expect(report.approximated.map(({ subject, ref, count }) => `${subject} ${ref} ×${count}`)).toEqual(['resource 3 ×2', 'resource 5 ×1']);

    const written = writeMspdi(document);
    expect([...written.matchAll(/<MaxUnits>([^<]*)<\/MaxUnits>/g)].map((match) => match[1])).toEqual(['3', '0.5', '0.01', '1000', '1', '1']);
    expect(readMspdi(written).document.resources.map((r) => r.maxUnitsPct)).toEqual([300, 50, 1, limits.resourceMaxUnitsPct, 100, 100]);
  });
});

describe('readMspdi refuses what is not a readable MSPDI file, fast', () => {
  const project = (inner: string) => `<Project xmlns="http://schemas.microsoft.com/project">${inner}</Project>`;

  it('refuses a billion laughs', () => {
    const entities = Array.from({ length: 10 }, (_, index) => `<!ENTITY lol${index + 1} "${`&lol${index};`.repeat(10)}">`).join('');
    const error = refusal(`<?xml version="1.0"?><!DOCTYPE Project [<!ENTITY lol0 "lol">${entities}]>${project('<Name>&lol10;</Name>')}`);
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/^data: .*DOCTYPE/);
  });

  it('refuses external and parameter entities without reading or fetching anything', async () => {
    let requests = 0;
    const server = createServer((_request, response) => {
      requests++;
      response.end('x');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      for (const doctype of [
        '<!DOCTYPE Project [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
        `<!DOCTYPE Project [<!ENTITY xxe SYSTEM "http://127.0.0.1:${port}/x">]>`,
        `<!DOCTYPE Project SYSTEM "http://127.0.0.1:${port}/dtd">`,
        `<!DOCTYPE Project [<!ENTITY % remote SYSTEM "http://127.0.0.1:${port}/p"> %remote;]>`,
      ]) {
        expect(refusal(`<?xml version="1.0"?>${doctype}${project('<Name>&xxe;</Name>')}`).message).toMatch(/DOCTYPE/);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(requests).toBe(0);
  });

  it('refuses malformed XML and XML that is not MSPDI', () => {
    expect(refusal(project('<Name>open</Tasks>')).message).toMatch(/not well-formed/);
    expect(refusal('not xml at all').message).toMatch(/not well-formed/);
    expect(refusal('<Project><Name>x</Name></Project>').message).toMatch(/not a Microsoft Project XML file/);
    expect(refusal('<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>').message).toMatch(/not a Microsoft Project XML file/);
  });

  it('refuses a file just over the size limit', () => {
    const padding = ' '.repeat(limits.requestBodyMaxBytes - project('').length + 1);
    expect(refusal(project(padding)).message).toMatch(/larger than/);
  });

  it('refuses more tasks than the import limit', () => {
    const task = '<Task><UID>1</UID></Task>';
    expect(refusal(project(`<Tasks>${task.repeat(limits.importTasksMax + 2)}</Tasks>`)).message).toMatch(/more than 20000 tasks/);
  });

  it('refuses 100,000 nested levels without a stack overflow', () => {
    const started = performance.now();
    expect(refusal(project(`${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}`)).message).toMatch(/nested deeper than/);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe('file work off the main thread', () => {
  it('reads on a worker thread what readMspdi reads, and refuses what it refuses', async () => {
    const xml = readFileSync(join(FIXTURES, 'task-links-project2019-mspdi.xml'), 'utf8');
    expect(await readMspdiOffThread(xml)).toEqual(readMspdi(xml));
    const refused = await readMspdiOffThread('<Project xmlns="http://schemas.microsoft.com/project"><Tasks>').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).details).toEqual({ fields: [{ path: 'data', message: expect.stringMatching(/^not well-formed XML/) }] });
  });

  it('writes on a worker thread what writeMspdi and writeCsv write', async () => {
    const { document } = readMspdi(readFileSync(join(FIXTURES, 'task-links-project2019-mspdi.xml'), 'utf8'));
    const schedule = new Map(document.tasks.map((task) => [task.ref, { startAt: '2026-03-02T08:00:00.000Z', finishAt: '2026-03-03T17:00:00.000Z' }]));
    expect(await writeFileOffThread('mspdi', document, schedule)).toBe(writeMspdi(document, schedule));
    expect(await writeFileOffThread('csv', document, schedule)).toBe(writeCsv(document, schedule));
  });

  it('keeps its threads for the next jobs, and no more of them than cores, however many jobs come at once', async () => {
    const xml = readFileSync(join(FIXTURES, 'task-links-project2019-mspdi.xml'), 'utf8');
    const reads = await Promise.all(Array.from({ length: 3 * availableParallelism() }, () => readMspdiOffThread(xml)));
    expect(reads.every((read) => read.document.tasks.length === readMspdi(xml).document.tasks.length)).toBe(true);
    const threads = fileJobThreads();
    expect(threads).toBeGreaterThan(0);
    expect(threads).toBeLessThanOrEqual(availableParallelism());
    for (let job = 0; job < 3; job++) await readMspdiOffThread(xml);
    expect(fileJobThreads()).toBe(threads);
  });
});
