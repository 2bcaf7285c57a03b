import { limits } from '@gantry/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMspdi } from '../../src/domain/exchange/mspdi/read.js';
import { documentTask, type PlanDocument } from '../../src/domain/exchange/plan-document.js';
import { documentProblems } from '../../src/domain/projects/plan-documents.js';
import { planningClient, type Body, type PlanTask } from '../support/planning.js';
import { provisionUser, startTestServer, type ApiResponse, type TestServer } from '../support/test-server.js';

interface ReportItem {
  subject: string;
  ref: string | null;
  name: string | null;
  message: string;
  count: number;
}
interface Imported {
  project: { id: string; name: string };
  report: { dropped: ReportItem[]; approximated: ReportItem[] };
}

const NAMESPACE = 'http://schemas.microsoft.com/project';
const project = (inner: string) => `<Project xmlns="${NAMESPACE}"><StartDate>2024-01-01T08:00:00</StartDate>${inner}</Project>`;
const task = (uid: number, inner: string) => `<Task><UID>${uid}</UID><ID>${uid}</ID><OutlineLevel>1</OutlineLevel>${inner}</Task>`;
const tasks = (...rows: string[]) => `<Tasks>${rows.join('')}</Tasks>`;
const week = [1, 2, 3, 4, 5, 6, 7].map((type) => `<WeekDay><DayType>${type}</DayType><DayWorking>${type === 1 || type === 7 ? 0 : 1}</DayWorking></WeekDay>`).join('');
const calendar = (uid: number, exceptions: string) =>
  `<Calendar><UID>${uid}</UID><Name>Calendar ${uid}</Name><IsBaseCalendar>1</IsBaseCalendar><WeekDays>${week}</WeekDays><Exceptions>${exceptions}</Exceptions></Calendar>`;
/** A weekly recurring exception as Microsoft Project writes it, `Occurrences` as large as the probe sent. */
const weekly = (from: string, to: string, daysOfWeek: number) =>
  `<Exception><TimePeriod><FromDate>${from}T00:00:00</FromDate><ToDate>${to}T23:59:00</ToDate></TimePeriod><Occurrences>2147483647</Occurrences><Name>Off</Name><Type>6</Type><Period>1</Period><DaysOfWeek>${daysOfWeek}</DaysOfWeek><DayWorking>0</DayWorking></Exception>`;

/** The one field problem of a refused import: on `data`, with the message it gives. */
function refusal(response: ApiResponse<Body<unknown>>): string {
  expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(400);
  expect(response.body.error).toBe('invalid_request');
  const fields = response.body.details?.fields ?? [];
  expect(fields.map((field) => field.path)).toEqual(['data']);
  return fields[0]!.message;
}

// docs/api.md › Import and export; issue 29: what a malformed, oversized or hostile file
// makes the import do. A file is read strictly, in its own encoding, within documented
// limits, and what it holds is either kept, reported, or refused — never changed in silence.
describe('hostile import files', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer();
    key = (await provisionUser(server, 'importer@example.com')).key;
  });
  afterAll(() => server.close());

  const importData = (data: string) => server.request<Body<Imported>>('POST', '/api/projects/import', { key, body: { format: 'mspdi', data } });
  const importBytes = (bytes: Uint8Array) => server.request<Body<Imported>>('POST', '/api/projects/import', { key, rawBody: bytes, headers: { 'content-type': 'application/xml' } });
  const imported = (response: ApiResponse<Body<Imported>>): Imported => {
    expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(201);
    return response.body;
  };
  const tasksOf = async (response: ApiResponse<Body<Imported>>): Promise<PlanTask[]> => (await planningClient(server, key).fullProject(imported(response).project.id)).body.tasks;

  describe('malformed XML is refused, with its line and column', () => {
    it.each([
      ['a comment holding --', project('<!-- a -- b -->')],
      ['an undefined entity', project('<Title>&nbsp;</Title>')],
      ['an undeclared namespace prefix', project('<x:Title>A</x:Title>')],
      ['a second root element', `${project('')}\n${project('')}`],
      ['a reference to U+0001', project('<Title>&#x1;</Title>')],
      ['a reference to U+FFFE', project('<Title>&#xFFFE;</Title>')],
      ['a reference beyond Unicode', project('<Title>&#x110000;</Title>')],
      ['a reference to NUL', project(tasks(task(1, '<Name>A&#0;B</Name>')))],
      ['a reference to a lone surrogate', project(tasks(task(1, '<Name>A&#xD800;B</Name>')))],
    ])('%s', async (_what, xml) => {
      expect(refusal(await importData(xml))).toMatch(/^not well-formed XML \(line \d+, column \d+\): /);
    });

    it('says where, on the line the error is', async () => {
      expect(refusal(await importData(`<?xml version="1.0"?>\n${project('\n<Title>ok</Title>\n<Name>&nbsp;</Name>')}`))).toBe(
        'not well-formed XML (line 4, column 12): undefined entity.',
      );
    });
  });

  describe('texts keep the rules of the JSON API', () => {
    it('shortens a long name without cutting a character in two, and says so', async () => {
      const name = `${'a'.repeat(limits.nameMaxLength - 1)}😀 and more`;
      const response = await importData(project(tasks(task(1, `<Name>${name}</Name><Duration>PT8H0M0S</Duration>`))));
      expect((await tasksOf(response)).map((t) => t.name)).toEqual(['a'.repeat(limits.nameMaxLength - 1)]);
      expect(imported(response).report.approximated).toContainEqual(expect.objectContaining({ subject: 'task', message: `names longer than ${limits.nameMaxLength} characters are shortened` }));
    });

    it('refuses a document holding NUL or a lone surrogate, whatever made it (a file, a template, a saved version)', async () => {
      const document: PlanDocument = {
        name: 'Plan',
        description: 'fine',
        startDate: '2024-01-01',
        scheduleFrom: 'forward',
        deadline: null,
        currency: 'USD',
        calendarRef: null,
        calendars: [],
        resources: [{ ref: 'r', name: 'Ada\u0000', userId: null }],
        tasks: [documentTask({ ref: 't', name: 'Task', notes: 'half a pair: \uD83D' })],
        dependencies: [],
        assignments: [],
        baselines: [],
      };
      expect(await documentProblems(document)).toEqual([
        { path: 'resources[0].name', message: 'must not contain the NUL character (U+0000)' },
        { path: 'tasks[0].notes', message: 'must be well-formed Unicode (it holds a lone UTF-16 surrogate)' },
      ]);
    });

    it('refuses calendar exceptions the calendar API refuses (working times out of order)', async () => {
      const exception = `<Exception><TimePeriod><FromDate>2024-05-01T00:00:00</FromDate><ToDate>2024-05-01T23:59:00</ToDate></TimePeriod><Name>Odd</Name><Type>1</Type><DayWorking>1</DayWorking>
        <WorkingTimes><WorkingTime><FromTime>13:00:00</FromTime><ToTime>17:00:00</ToTime></WorkingTime><WorkingTime><FromTime>08:00:00</FromTime><ToTime>12:00:00</ToTime></WorkingTime></WorkingTimes></Exception>`;
      const response = await importData(project(`<CalendarUID>1</CalendarUID><Calendars>${calendar(1, exception)}</Calendars>`));
      expect(response.status).toBe(400);
      expect(response.body.details?.fields).toEqual([{ path: 'calendars[0].exceptions[0].intervals[1]', message: expect.stringMatching(/^must start at or after the end/) }]);
    });
  });

  describe('limits are exactly those documented', () => {
    const rows = (count: number) => Array.from({ length: count }, (_, index) => task(index + 1, `<Name>T${index + 1}</Name>`));

    it(`reads ${limits.importTasksMax} tasks (besides the project's own row) and refuses one more`, async () => {
      expect(readMspdi(project(tasks(task(0, '<Name>The project</Name>'), ...rows(limits.importTasksMax)))).document.tasks).toHaveLength(limits.importTasksMax);
      expect(refusal(await importData(project(tasks(...rows(limits.importTasksMax + 1)))))).toBe(`the file holds more than ${limits.importTasksMax} tasks`);
    });

    it(`reads elements nested ${limits.importXmlDepthMax} deep and refuses one level more`, async () => {
      const nested = (levels: number) => project(`${'<Extra>'.repeat(levels - 1)}${'</Extra>'.repeat(levels - 1)}`);
      expect(readMspdi(nested(limits.importXmlDepthMax)).document.tasks).toEqual([]);
      expect(refusal(await importData(nested(limits.importXmlDepthMax + 1)))).toMatch(new RegExp(`^elements nested deeper than ${limits.importXmlDepthMax} levels \\(line 1, column \\d+\\)$`));
    });
  });

  describe('recurring calendar exceptions cost what the plan keeps', () => {
    it(`refuses a file whose recurrences fall on more than ${limits.importCalendarDaysMax} days, at once`, async () => {
      // Each calendar fills its 1,000 exceptions with six days a week: about 6,000 days apiece.
      const calendars = Array.from({ length: 20 }, (_, index) => calendar(index + 1, weekly('1984-01-01', '2149-12-31', 0b1111110))).join('');
      const started = performance.now();
      expect(refusal(await importData(project(`<CalendarUID>1</CalendarUID><Calendars>${calendars}</Calendars>`)))).toMatch(
        new RegExp(`^the recurring calendar exceptions and work weeks of the file fall on more than ${limits.importCalendarDaysMax} days in all \\(the limit was reached in the calendar "Calendar \\d+", UID \\d+\\)$`),
      );
      expect(performance.now() - started).toBeLessThan(10_000);
    });

    it('reads a recurrence on every day of millennia as one range, without looking at each day', async () => {
      const exceptions = Array.from({ length: 100 }, () => weekly('1900-01-01', '9999-12-31', 0b1111111)).join('');
      const started = performance.now();
      const response = await importData(project(`<CalendarUID>1</CalendarUID><Calendars>${calendar(1, exceptions)}</Calendars>`));
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(imported(response).report.dropped).toEqual([
        { subject: 'calendar', ref: '1', name: 'Calendar 1', message: `days of calendar exceptions and work weeks outside the years ${limits.dateYearMin}-${limits.dateYearMax} are not kept`, count: 100 },
      ]);
      const calendars = (await server.request<{ calendars: { exceptions: { from: string; to: string }[] }[] }>('GET', `/api/projects/${response.body.project.id}/calendars`, { key })).body.calendars;
      expect(calendars[0]!.exceptions).toHaveLength(100);
      expect(calendars[0]!.exceptions[0]).toMatchObject({ from: '1900-01-01', to: `${limits.dateYearMax}-12-31` });
    });
  });

  describe('a file is read in the encoding it declares', () => {
    const declared = (encoding: string, body: number[]) => Uint8Array.from([...Buffer.from(`<?xml version="1.0" encoding="${encoding}"?><Project xmlns="${NAMESPACE}"><Title>`), ...body, ...Buffer.from('</Title></Project>')]);
    const utf16 = (text: string, bigEndian: boolean) => {
      const bytes = Buffer.from(`\uFEFF${text}`, 'utf16le');
      return bigEndian ? bytes.swap16() : bytes;
    };
    const nameOf = async (bytes: Uint8Array) => imported(await importBytes(bytes)).project.name;

    it.each([
      ['ISO-8859-1', [0x43, 0x61, 0x66, 0xe9], 'Café'],
      ['windows-1252', [0x80, 0x20, 0x43, 0x61, 0x66, 0xe9], '€ Café'],
      ['Shift_JIS', [0x8d, 0x48, 0x92, 0xf6], '工程'],
      ['GB18030', [0xb9, 0xa4, 0xb3, 0xcc], '工程'],
      ['UTF-8', [...Buffer.from('Café 工程')], 'Café 工程'],
    ])('%s', async (encoding, body, name) => {
      expect(await nameOf(declared(encoding, body))).toBe(name);
    });

    it('UTF-16, little- and big-endian, with its byte order mark; UTF-8 with one', async () => {
      const xml = `<?xml version="1.0" encoding="UTF-16"?><Project xmlns="${NAMESPACE}"><Title>Café 工程</Title></Project>`;
      expect(await nameOf(utf16(xml, false))).toBe('Café 工程');
      expect(await nameOf(utf16(xml, true))).toBe('Café 工程');
      expect(await nameOf(Uint8Array.from([0xef, 0xbb, 0xbf, ...Buffer.from(project('<Title>Café</Title>'))]))).toBe('Café');
    });

    it('refuses an encoding it does not read, naming it, and one the bytes contradict', async () => {
      expect(refusal(await importBytes(declared('UTF-7', [0x41])))).toMatch(/^declares the encoding "UTF-7", which is not supported; UTF-8, UTF-16 and/);
      expect(refusal(await importBytes(Uint8Array.from([0xff, 0xfe, 0x00, 0x00, ...Buffer.from('<\0\0\0')])))).toMatch(/^is in UTF-32, which is not supported/);
      expect(refusal(await importBytes(declared('UTF-16', [0x41])))).toBe('declares the encoding "UTF-16" but is not in UTF-16 (it has no UTF-16 byte order mark)');
      expect(refusal(await importBytes(utf16(project('').replace('<Project', '<?xml version="1.0" encoding="ISO-8859-1"?><Project'), false)))).toBe(
        'is in UTF-16LE but declares the encoding "ISO-8859-1"',
      );
    });

    it('refuses bytes that are not characters of the encoding, saying where, instead of replacing them', async () => {
      const bytes = Uint8Array.from([...Buffer.from(`<?xml version="1.0"?>\n<Project xmlns="${NAMESPACE}">\n<Title>Caf`), 0xe9, ...Buffer.from('</Title></Project>')]);
      expect(refusal(await importBytes(bytes))).toBe('is not valid UTF-8: the bytes at line 3, column 11 are not a character of that encoding');
    });
  });

  describe('values beyond what the plan holds are reported, never changed in silence', () => {
    it('progress, durations, work, codes, dates and units', async () => {
      const response = await importData(
        project(
          tasks(
            task(1, '<Name>Over</Name><Duration>PT8H0M0S</Duration><PercentComplete>500</PercentComplete><ConstraintType>42</ConstraintType>'),
            task(2, '<Name>Under</Name><Duration>-PT8H0M0S</Duration><PercentComplete>-50</PercentComplete><Work>-PT8H0M0S</Work><Type>9</Type>'),
            task(3, '<Name>Unreadable</Name><Duration>8 hours</Duration><PercentComplete>NaN</PercentComplete><Deadline>next week</Deadline><FixedCost>lots</FixedCost>'),
            task(4, '<Name>Linked</Name><Duration>PT8H0M0S</Duration><PredecessorLink><PredecessorUID>1</PredecessorUID><Type>7</Type></PredecessorLink>'),
          ) +
            '<Resources><Resource><UID>1</UID><Name>Ada</Name><Type>1</Type><MaxUnits>many</MaxUnits></Resource></Resources>' +
            '<Assignments><Assignment><UID>1</UID><TaskUID>1</TaskUID><ResourceUID>1</ResourceUID><Units>-2</Units></Assignment></Assignments>',
        ),
      );
      const kept = (await tasksOf(response)).map((t) => [t.name, t.progressPct, t.durationMin, t.workMin, t.constraintKind, t.deadline]);
      expect(kept).toEqual([
        ['Over', 100, 480, 0, 'asap', null],
        ['Under', 0, 0, 0, 'asap', null],
        ['Unreadable', 0, 0, 0, 'asap', null],
        ['Linked', 0, 480, 0, 'asap', null],
      ]);
      const { report } = imported(response);
      const messages = (items: ReportItem[]) => items.map(({ subject, ref, message }) => `${subject} ${ref}: ${message}`);
      expect(messages(report.approximated)).toEqual([
        'task 1: unknown ConstraintType codes are read as As Soon As Possible',
        'task 1: PercentComplete values outside 0..100 are kept at the nearest of the two',
        'task 2: Work values below 0 are read as 0',
        'task 2: Duration values below 0 are read as 0',
        'task 2: unknown Type codes are read as fixed units',
        'dependency 1->4: unknown Type codes are read as finish-to-start',
        'assignment 1: Units (in percent) outside 0..100000 are kept at the nearest of the two',
      ]);
      expect(messages(report.dropped)).toEqual([
        'task 3: Duration values that are not durations are not kept',
        'task 3: PercentComplete values that are not numbers are not kept',
        'task 3: Deadline values that are not dates and times are not kept',
        'task 3: FixedCost values that are not numbers are not kept',
        'resource 1: MaxUnits values that are not numbers are not kept',
      ]);
      expect(report.approximated.find((item) => item.message.startsWith('PercentComplete'))!.count).toBe(2);
    });

    it('week days and working times of calendars', async () => {
      const backwards = `<Exception><TimePeriod><FromDate>2024-05-01T00:00:00</FromDate><ToDate>2024-05-01T23:59:00</ToDate></TimePeriod><Name>Late</Name><Type>1</Type><DayWorking>1</DayWorking>
        <WorkingTimes><WorkingTime><FromTime>17:00:00</FromTime><ToTime>08:00:00</ToTime></WorkingTime></WorkingTimes></Exception>`;
      const unknownDay = '<WeekDay><DayType>9</DayType><DayWorking>1</DayWorking></WeekDay>';
      const response = await importData(project(`<CalendarUID>1</CalendarUID><Calendars>${calendar(1, backwards).replace('</WeekDays>', `${unknownDay}</WeekDays>`)}</Calendars>`));
      expect(imported(response).report.dropped.map(({ subject, ref, message }) => `${subject} ${ref}: ${message}`)).toEqual([
        'calendar 1: week days with an unknown DayType are not kept',
        'calendar 1: working times that are not readable or do not end after they start are not kept (a working day left without any has the Standard day)',
      ]);
    });
  });
});
