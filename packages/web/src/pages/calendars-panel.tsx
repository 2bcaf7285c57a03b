import { useState, type FormEvent } from 'react';
import { ApiError, call, describeError } from '../client';
import { Alert, Field, SidePanel, usePanelAction } from '../components';
import { ConfirmDeletion } from '../confirm-dialog';
import type { Calendar, Project } from '../types';

type Interval = [string, string];
type Week = Calendar['weekly'];

/** Monday first, as people read a week; the API's weeks run Sunday..Saturday. */
const weekdays: [index: number, name: string][] = [
  [1, 'Mon'],
  [2, 'Tue'],
  [3, 'Wed'],
  [4, 'Thu'],
  [5, 'Fri'],
  [6, 'Sat'],
  [0, 'Sun'],
];

/** "08:00-12:00, 13:00-17:00" → the intervals, or null when it is not that shape. */
export function parseHours(text: string): Interval[] | null {
  const parts = text.split(',').map((part) => part.trim()).filter(Boolean);
  const intervals = parts.map((part) => /^(\d{2}:\d{2})\s*[-–]\s*(\d{2}:\d{2})$/.exec(part));
  return intervals.every((match) => match !== null) ? intervals.map((match) => [match![1]!, match![2]!]) : null;
}

const hoursText = (intervals: readonly (readonly string[])[]) => intervals.map(([from, to]) => `${from}–${to}`).join(', ');

/** "Mon–Fri 08:00–12:00, 13:00–17:00 · Sat–Sun off" for a calendar's own week (inherited days say so). */
function weekSummary(week: Week): string {
  const runs: { first: string; last: string; hours: string }[] = [];
  for (const [index, name] of weekdays) {
    const day = week[index];
    const hours = day === null || day === undefined ? 'as its base' : day.length === 0 ? 'off' : hoursText(day);
    const run = runs.at(-1);
    if (run?.hours === hours) run.last = name;
    else runs.push({ first: name, last: name, hours });
  }
  return runs.map(({ first, last, hours }) => `${first === last ? first : `${first}–${last}`} ${hours}`).join(' · ');
}

/**
 * The plan's working calendars: which one the project works on, each calendar's week and
 * holidays (added and removed here), and new calendars. Every change reschedules the plan.
 */
export function CalendarsPanel({ project, calendars, editable, onChanged, onClose }: { project: Project; calendars: readonly Calendar[]; editable: boolean; onChanged(): Promise<void>; onClose(): void }) {
  const { error, setError, notice, run } = usePanelAction(onChanged);
  const [name, setName] = useState('');
  const [timeZone, setTimeZone] = useState('UTC');
  const [hours, setHours] = useState('08:00-12:00, 13:00-17:00');
  const [workingDays, setWorkingDays] = useState<ReadonlySet<number>>(new Set([1, 2, 3, 4, 5]));
  const params = { projectId: project.id };

  const rescheduled = (answer: { rescheduled: boolean }) => (answer.rescheduled ? ' The plan was rescheduled.' : '');

  const chooseCalendar = (calendarId: string) =>
    run(async () => `The project works on that calendar now.${rescheduled(await call('updateProject', { params, body: { calendarId: calendarId === '' ? null : calendarId } }))}`);

  const create = (event: FormEvent) => {
    event.preventDefault();
    const intervals = parseHours(hours);
    if (!intervals) return setError('Working hours are times such as 08:00-12:00, 13:00-17:00.');
    const weekly: Interval[][] = [0, 1, 2, 3, 4, 5, 6].map((day) => (workingDays.has(day) ? intervals : []));
    void run(async () => {
      await call('createCalendar', { params, body: { name, timeZone, weekly } });
      setName('');
      return `Calendar "${name}" created: choose it for the project or for a task.`;
    });
  };

  return (
    <SidePanel title="Calendars" closeLabel="Close the calendars" onClose={onClose}>
      {typeof error === 'string' && <Alert>{error}</Alert>}
      {error instanceof ApiError && <Alert>{describeError(error)}</Alert>}
      {notice && <Alert kind="info">{notice}</Alert>}
      <div className="field">
        <label htmlFor="project-calendar">The project works on</label>
        <select id="project-calendar" value={project.calendarId ?? ''} disabled={!editable} onChange={(event) => void chooseCalendar(event.target.value)}>
          <option value="">Standard (Mon–Fri 08:00–17:00, UTC)</option>
          {calendars.map((calendar) => (
            <option key={calendar.id} value={calendar.id}>
              {calendar.name} ({calendar.timeZone})
            </option>
          ))}
        </select>
      </div>
      {calendars.map((calendar) => (
        <CalendarHolidays key={calendar.id} calendar={calendar} editable={editable} run={run} params={{ ...params, calendarId: calendar.id }} rescheduled={rescheduled} />
      ))}
      {editable && (
        <>
          <h3>New calendar</h3>
          <form onSubmit={create}>
            <Field label="Calendar name" required value={name} onChange={(e) => setName(e.target.value)} error={error instanceof ApiError ? error.field('name') : undefined} />
            <Field label="Time zone" value={timeZone} onChange={(e) => setTimeZone(e.target.value)} error={error instanceof ApiError ? error.field('timeZone') : undefined} />
            <fieldset className="weekdays">
              <legend>Working days</legend>
              {weekdays.map(([index, dayName]) => (
                <label key={index} className="check">
                  <input
                    type="checkbox"
                    checked={workingDays.has(index)}
                    onChange={(event) => {
                      const next = new Set(workingDays);
                      if (event.target.checked) next.add(index);
                      else next.delete(index);
                      setWorkingDays(next);
                    }}
                  />{' '}
                  {dayName}
                </label>
              ))}
            </fieldset>
            <Field label="Working hours" value={hours} onChange={(e) => setHours(e.target.value)} />
            <button type="submit">Create calendar</button>
          </form>
        </>
      )}
    </SidePanel>
  );
}

/** One calendar: its week, its holidays (non-working exceptions), one added or removed at a time; the calendar deleted once nothing works on it. */
function CalendarHolidays({ calendar, editable, params, run, rescheduled }: { calendar: Calendar; editable: boolean; params: { projectId: string; calendarId: string }; run(action: () => Promise<string>): Promise<boolean>; rescheduled(answer: { rescheduled: boolean }): string }) {
  const [holiday, setHoliday] = useState({ name: '', from: '', to: '' });
  const [deleting, setDeleting] = useState(false);
  const save = (exceptions: Calendar['exceptions'], done: string) =>
    run(async () => `${done}${rescheduled(await call('updateCalendar', { params, body: { exceptions } }))}`);
  const add = (event: FormEvent) => {
    event.preventDefault();
    const exception = { name: holiday.name.trim() || null, from: holiday.from, to: holiday.to || holiday.from, intervals: [] };
    void save([...calendar.exceptions, exception], 'Holiday added.').then(() => setHoliday({ name: '', from: '', to: '' }));
  };
  return (
    <section className="calendar" aria-label={`Calendar ${calendar.name}`}>
      <h3>
        {calendar.name} <span className="muted">{calendar.timeZone}</span>
      </h3>
      <p className="muted">{weekSummary(calendar.weekly)}</p>
      {editable && (
        <button type="button" className="link danger" onClick={() => setDeleting(true)}>
          Delete calendar
        </button>
      )}
      {deleting && (
        <ConfirmDeletion
          title={`Delete the calendar ${calendar.name}?`}
          explanation="The calendar and its holidays are deleted. Only a calendar nothing works on can be: no date moves."
          expected={calendar.name}
          onConfirm={async () => {
            await call('deleteCalendar', { params });
            await run(async () => `Calendar "${calendar.name}" deleted.`);
          }}
          onClose={() => setDeleting(false)}
        />
      )}
      <ul>
        {calendar.exceptions.map((exception, index) => (
          <li key={`${exception.from}-${index}`}>
            {exception.name ?? 'Exception'}: {exception.from}
            {exception.to !== exception.from && ` – ${exception.to}`} {exception.intervals.length === 0 ? '(not working)' : `(${hoursText(exception.intervals)})`}{' '}
            {editable && (
              <button type="button" className="link danger" onClick={() => void save(calendar.exceptions.filter((_, k) => k !== index), 'Holiday removed.')}>
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      {editable && (
        <form className="holiday" onSubmit={add} aria-label={`New holiday in ${calendar.name}`}>
          <Field label="Holiday" placeholder="Christmas" value={holiday.name} onChange={(e) => setHoliday({ ...holiday, name: e.target.value })} />
          <Field label="From" type="date" required value={holiday.from} onChange={(e) => setHoliday({ ...holiday, from: e.target.value })} />
          <Field label="To (optional)" type="date" value={holiday.to} onChange={(e) => setHoliday({ ...holiday, to: e.target.value })} />
          <button type="submit" className="secondary">
            Add holiday
          </button>
        </form>
      )}
    </section>
  );
}
