// Dates are shown in UTC, the zone of the plans' working calendar, so a task's day never
// shifts with the browser's zone; the browser's language picks the format.
const dateFormat = new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' });
const dayFormat = new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', month: 'short', day: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

export function formatDate(iso: string | null | undefined): string {
  return iso ? dateFormat.format(new Date(iso)) : '—';
}

/** Day and month only, for the task grid (the year is in the header's scale and the tooltips). */
export function formatDay(iso: string | null | undefined): string {
  return iso ? dayFormat.format(new Date(iso)) : '—';
}

export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTimeFormat.format(new Date(iso)) : '—';
}

/** Working minutes as days of the Standard calendar (8 working hours a day). */
export const minutesPerDay = 480;

export function formatDays(minutes: number | null | undefined): string {
  return minutes === null || minutes === undefined ? '—' : `${numberFormat.format(minutes / minutesPerDay)} d`;
}
