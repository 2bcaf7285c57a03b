import { locales, type Locale } from '@gantry/contract/limits';
import { TimeZone } from '@gantry/engine';

const aliases: Partial<Record<string, Locale>> = { nb: 'no', nn: 'no' };

/** The service's language closest to the browser's, for a new account. */
export function browserLocale(): Locale {
  for (const tag of navigator.languages) {
    const language = tag.toLowerCase().split('-')[0] ?? '';
    const found = aliases[language] ?? locales.find((locale) => locale === language);
    if (found) return found;
  }
  return 'en';
}

/** The service's language a tag is (a person's `locale`), if it is one of them. */
export function knownLocale(tag: string | undefined): Locale | undefined {
  return locales.find((locale) => locale === tag);
}

/** Each language by its own name, for choosing one. */
export function localeNames(): { locale: Locale; name: string }[] {
  return locales.map((locale) => ({ locale, name: new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale }));
}

// Dates are shown in the zone of the open plan's calendar (UTC for the Standard calendar), so a
// task's day is the day it has where the work happens, whatever the browser's zone; the
// person's language (their profile's locale) picks the format of dates and numbers.
function formatters(locale: string | undefined, timeZone: string) {
  return {
    date: new Intl.DateTimeFormat(locale, { timeZone, year: 'numeric', month: 'short', day: 'numeric' }),
    day: new Intl.DateTimeFormat(locale, { timeZone, month: 'short', day: 'numeric' }),
    dateTime: new Intl.DateTimeFormat(locale, { timeZone, month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }),
    number: new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }),
    locale,
  };
}
let planZone = TimeZone.named('UTC');
let current = formatters(undefined, planZone.name);

/** Formats from now on in this language (the signed-in person's). */
export function setDisplayLocale(locale: string | undefined): void {
  if (locale !== current.locale) current = formatters(locale, planZone.name);
}

/**
 * From now on, dates are shown and typed dates meant in this IANA zone: the open plan's
 * calendar's. Null (no plan open, or the Standard calendar): UTC.
 */
export function setPlanZone(name: string | null | undefined): void {
  if ((name ?? 'UTC') === planZone.name) return;
  planZone = TimeZone.named(name);
  current = formatters(current.locale, planZone.name);
}

const minuteMs = 60_000;

/** An instant on the plan's wall clock: the milliseconds of that wall-clock time read as UTC (what days and the timeline count in). */
export function wallClockMs(ms: number): number {
  return planZone.isUtc ? ms : planZone.toLocal(ms / minuteMs) * minuteMs;
}

/** A date and a time of day (`HH:MM`) on the plan's wall clock, as the instant it is. */
export function planInstant(date: string, time: string): string {
  const local = Date.parse(`${date}T${time}:00.000Z`);
  return new Date(planZone.isUtc ? local : planZone.toUtc(local / minuteMs) * minuteMs).toISOString();
}

/** An instant's date (`YYYY-MM-DD`) on the plan's wall clock. */
export function planDate(iso: string): string {
  return new Date(wallClockMs(Date.parse(iso))).toISOString().slice(0, 10);
}

export function displayLocale(): string | undefined {
  return current.locale;
}

/** A count with its noun, singular for one (`1 task`, `3 tasks`). */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

export function formatDate(iso: string | null | undefined): string {
  return iso ? current.date.format(new Date(iso)) : '—';
}

/** Day and month only, for the task grid (the year is in the tooltips). */
export function formatDay(iso: string | null | undefined): string {
  return iso ? current.day.format(new Date(iso)) : '—';
}

export function formatDateTime(iso: string | null | undefined): string {
  return iso ? current.dateTime.format(new Date(iso)) : '—';
}

/** Working minutes as days of the Standard calendar (8 working hours a day). */
export const minutesPerDay = 480;

export function formatDays(minutes: number | null | undefined): string {
  return minutes === null || minutes === undefined ? '—' : `${current.number.format(minutes / minutesPerDay)} d`;
}
