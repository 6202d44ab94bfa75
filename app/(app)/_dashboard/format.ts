/** Figures and bucket labels of the dashboard, in the reader's language and zone (Intl). */
import type { Locale } from '@/app/i18n';

const tag = (locale: Locale) => (locale === 'fr' ? 'fr-FR' : 'en-GB');

/**
 * A bucket's label in the view's zone: its local hour for hourly buckets (with the day when the
 * window covers more than one), its local day for daily buckets.
 */
export function formatBucket(iso: string, bucket: 'hour' | 'day', tz: string, locale: Locale, withDay = false): string {
  const options: Intl.DateTimeFormatOptions =
    bucket === 'day' ? { timeZone: tz, day: 'numeric', month: 'short' } : { timeZone: tz, hour: '2-digit', minute: '2-digit', ...(withDay ? { day: 'numeric', month: 'short' } : {}) };
  return new Intl.DateTimeFormat(tag(locale), options).format(new Date(iso));
}

/** Whether hourly buckets run over more than one local day (their labels then carry the day). */
export function spansDays(buckets: string[], tz: string): boolean {
  if (buckets.length < 2) return false;
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' });
  return day.format(new Date(buckets[0])) !== day.format(new Date(buckets[buckets.length - 1]));
}

export function formatCount(value: number, locale: Locale): string {
  return new Intl.NumberFormat(tag(locale)).format(value);
}

export function formatRate(value: number | null, locale: Locale): string {
  if (value === null) return '—';
  return new Intl.NumberFormat(tag(locale), { style: 'percent', maximumFractionDigits: 1 }).format(value);
}

/** Dollars with cents; sub-cent spends keep up to four decimals so a small bill is not "$0.00". */
export function formatUsd(value: number, locale: Locale): string {
  const small = value > 0 && value < 0.01;
  return new Intl.NumberFormat(tag(locale), { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: small ? 4 : 2 }).format(value);
}

/** "+12.5 %", "−3 pts": a change's amount with its sign. */
export function formatChange(amount: number, unit: 'percent' | 'points', locale: Locale, pointsWord: string): string {
  const number = new Intl.NumberFormat(tag(locale), { maximumFractionDigits: Math.abs(amount) < 10 ? 1 : 0, signDisplay: 'exceptZero' }).format(amount);
  return unit === 'percent' ? `${number}\u00a0%` : `${number}\u00a0${pointsWord}`;
}
