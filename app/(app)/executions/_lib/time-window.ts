/**
 * A list's time window from the URL (`from`, `to`: instants, `[from, to)`), as the dashboard's drill-down
 * links write it: read and validated here, shown as a chip in the reader's language and time zone.
 * Shared by the executions list and the message journal.
 */
import type { Locale } from '@/app/i18n';

export interface TimeWindow {
  /** ISO 8601 instant (normalised to UTC), or '' when the window is open on that side. */
  from: string;
  to: string;
}

export const noWindow: TimeWindow = { from: '', to: '' };

/** An ISO 8601 date-time with a zone (what the API accepts); anything else is dropped. */
const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

function instantOf(value: string): string {
  if (value.length > 40 || !isoInstant.test(value)) return '';
  const time = Date.parse(value);
  return Number.isNaN(time) ? '' : new Date(time).toISOString();
}

function first(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/**
 * The window of a query string. A malformed bound is dropped; a window whose start is not before its
 * end (a hand-edited URL) is dropped whole rather than answering an empty list that looks real.
 */
export function windowFromSearch(search: Record<string, string | string[] | undefined>): TimeWindow {
  const from = instantOf(first(search.from).trim());
  const to = instantOf(first(search.to).trim());
  if (from && to && Date.parse(from) >= Date.parse(to)) return noWindow;
  return { from, to };
}

export function hasWindow(window: TimeWindow): boolean {
  return Boolean(window.from || window.to);
}

/** The list query's window: only the bounds that are set. */
export function queryOfWindow(window: TimeWindow): { from?: string; to?: string } {
  return { ...(window.from ? { from: window.from } : {}), ...(window.to ? { to: window.to } : {}) };
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: Locale, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${locale}:${timeZone ?? ''}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-US', {
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      ...(timeZone ? { timeZone } : {}),
    });
    formats.set(key, format);
  }
  return format;
}

/** "Mar 28, 00:00" / "28 mars, 00:00" in the reader's zone (the browser's unless given). */
export function formatWindowBound(iso: string, locale: Locale, timeZone?: string): string {
  const parts = formatter(locale, timeZone).formatToParts(new Date(iso));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  const day = locale === 'fr' ? `${part('day')} ${part('month')}` : `${part('month')} ${part('day')}`;
  return `${day}, ${part('hour')}:${part('minute')}`;
}

/**
 * The chip's text: "Mar 28, 00:00 → Mar 29, 00:00"; one bound only: "from …" / "until …" (the
 * words come from the dictionary).
 */
export function windowLabel(
  window: TimeWindow,
  locale: Locale,
  words: { since: (bound: string) => string; until: (bound: string) => string },
  timeZone?: string,
): string {
  const from = window.from ? formatWindowBound(window.from, locale, timeZone) : '';
  const to = window.to ? formatWindowBound(window.to, locale, timeZone) : '';
  if (from && to) return `${from} → ${to}`;
  if (from) return words.since(from);
  if (to) return words.until(to);
  return '';
}
