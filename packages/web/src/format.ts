import { locales, type Locale } from '@gantry/contract/limits';

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

/** Each language by its own name, for choosing one. */
export function localeNames(): { locale: Locale; name: string }[] {
  return locales.map((locale) => ({ locale, name: new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale }));
}

// Dates are shown in UTC, the zone of the plans' working calendar, so a task's day never
// shifts with the browser's zone; the person's language (their profile's locale) picks the
// format of dates and numbers.
function formatters(locale: string | undefined) {
  return {
    date: new Intl.DateTimeFormat(locale, { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' }),
    day: new Intl.DateTimeFormat(locale, { timeZone: 'UTC', month: 'short', day: 'numeric' }),
    dateTime: new Intl.DateTimeFormat(locale, { timeZone: 'UTC', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }),
    number: new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }),
    locale,
  };
}
let current = formatters(undefined);

/** Formats from now on in this language (the signed-in person's). */
export function setDisplayLocale(locale: string | undefined): void {
  if (locale !== current.locale) current = formatters(locale);
}

export function displayLocale(): string | undefined {
  return current.locale;
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
