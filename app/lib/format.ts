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
