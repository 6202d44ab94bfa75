/** Dates and durations in the interface language. Inputs are the API's ISO 8601 strings. */
import type { Locale } from '@/app/i18n';

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: Locale, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}:${JSON.stringify(options)}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', options);
    dateTimeFormats.set(key, format);
  }
  return format;
}

export function formatDate(iso: string, locale: Locale): string {
  return formatter(locale, { day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(iso));
}

export function formatDateTime(iso: string, locale: Locale): string {
  return formatter(locale, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' }).format(
    new Date(iso),
  );
}

/** "4:05" for a countdown, "45 s" under a minute. */
export function formatWait(seconds: number): string {
  const total = Math.max(0, Math.ceil(seconds));
  if (total < 60) return `${total} s`;
  const minutes = Math.floor(total / 60);
  const rest = String(total % 60).padStart(2, '0');
  return `${minutes}:${rest} min`;
}

/** A list's date column: the time for today, the day for this year, the full date otherwise. */
export function formatListDate(iso: string, locale: Locale, now = new Date()): string {
  const date = new Date(iso);
  if (date.toDateString() === now.toDateString()) return formatter(locale, { hour: '2-digit', minute: '2-digit' }).format(date);
  if (date.getFullYear() === now.getFullYear()) return formatter(locale, { day: 'numeric', month: 'short' }).format(date);
  return formatDate(iso, locale);
}

/** "12 KB", "3.4 MB": sizes of attachments. */
export function formatBytes(bytes: number, locale: Locale): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  const number = new Intl.NumberFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { maximumFractionDigits: digits }).format(value);
  return `${number}\u00a0${locale === 'fr' ? units[unit].replace('B', 'o') : units[unit]}`;
}
