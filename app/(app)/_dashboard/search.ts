/**
 * The dashboard's view lives in the address (period, zone, scope and filters), so a view can be
 * shared and reloads the same. A custom period is two calendar days (`from`, `to`, inclusive) read in
 * the view's zone: `from`'s midnight to the midnight after `to`.
 */
import { DASHBOARD_MAX_WINDOW_DAYS, type DashboardQuery } from '@/server/domains/dashboard/query';
import { isUuid } from '@/server/core/ids';

export const periods = ['24h', '7d', '30d', 'custom'] as const;
export type Period = (typeof periods)[number];

export interface DashboardView {
  period: Period;
  /** Calendar days `YYYY-MM-DD` of a custom period (inclusive). */
  from: string;
  to: string;
  /** IANA zone written in the address; empty: the browser's. */
  tz: string;
  scope: 'me' | 'org';
  mailboxId: string;
  workflowId: string;
  memberId: string;
}

export const defaultView: DashboardView = { period: '7d', from: '', to: '', tz: '', scope: 'me', mailboxId: '', workflowId: '', memberId: '' };

const day = /^\d{4}-\d{2}-\d{2}$/;
const zone = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;

type SearchLike = { get(name: string): string | null };

/** Reads the view from the address; anything malformed falls back to its default (never a crash). */
export function viewFromSearch(params: SearchLike): DashboardView {
  const pick = (name: string, valid: (value: string) => boolean) => {
    const value = params.get(name) ?? '';
    return value && value.length <= 64 && valid(value) ? value : '';
  };
  const period = params.get('period');
  return {
    period: (periods as readonly string[]).includes(period ?? '') ? (period as Period) : defaultView.period,
    from: pick('from', (v) => day.test(v)),
    to: pick('to', (v) => day.test(v)),
    tz: pick('tz', (v) => zone.test(v)),
    scope: params.get('scope') === 'org' ? 'org' : 'me',
    mailboxId: pick('mailboxId', isUuid),
    workflowId: pick('workflowId', isUuid),
    memberId: pick('memberId', isUuid),
  };
}

/** The address of a view: defaults left out, so the plain home page stays `/`. */
export function searchOfView(view: DashboardView): string {
  const params = new URLSearchParams();
  if (view.period !== defaultView.period) params.set('period', view.period);
  if (view.period === 'custom') {
    if (view.from) params.set('from', view.from);
    if (view.to) params.set('to', view.to);
  }
  if (view.tz) params.set('tz', view.tz);
  if (view.scope !== 'me') params.set('scope', view.scope);
  if (view.scope === 'org' && view.memberId) params.set('memberId', view.memberId);
  if (view.mailboxId) params.set('mailboxId', view.mailboxId);
  if (view.workflowId) params.set('workflowId', view.workflowId);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Milliseconds to add to UTC to read the wall clock of `tz` at `instant`. */
function zoneOffset(instant: number, tz: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
    .formatToParts(new Date(instant))
    .reduce<Record<string, number>>((acc, part) => (part.type === 'literal' ? acc : { ...acc, [part.type]: Number(part.value) }), {});
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) - (instant - (instant % 1000));
}

/** The instant local midnight starts on calendar day `date` (`YYYY-MM-DD`) in `tz`. */
export function zonedMidnight(date: string, tz: string): Date {
  const [year, month, dayOfMonth] = date.split('-').map(Number);
  const wall = Date.UTC(year, month - 1, dayOfMonth);
  let instant = wall - zoneOffset(wall, tz);
  // A second pass settles days whose offset differs from the guess's (daylight saving).
  instant = wall - zoneOffset(instant, tz);
  return new Date(instant);
}

function nextDay(date: string): string {
  const [year, month, dayOfMonth] = date.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, dayOfMonth + 1)).toISOString().slice(0, 10);
}

export type CustomProblem = 'missing' | 'order' | 'tooLong';

/** What is wrong with a custom period, if anything (checked before asking the API). */
export function customProblem(view: DashboardView): CustomProblem | null {
  if (view.period !== 'custom') return null;
  if (!view.from || !view.to) return 'missing';
  if (view.to < view.from) return 'order';
  const days = (Date.parse(`${view.to}T00:00:00Z`) - Date.parse(`${view.from}T00:00:00Z`)) / 86_400_000 + 1;
  return days > DASHBOARD_MAX_WINDOW_DAYS ? 'tooLong' : null;
}

/** The API query of a view in the zone `tz` (null while a custom period is incomplete or wrong). */
export function queryOfView(view: DashboardView, tz: string): DashboardQuery | null {
  if (customProblem(view)) return null;
  const query: DashboardQuery = { scope: view.scope, period: view.period, tz };
  if (view.period === 'custom') {
    query.from = zonedMidnight(view.from, tz).toISOString();
    query.to = zonedMidnight(nextDay(view.to), tz).toISOString();
  }
  if (view.mailboxId) query.mailboxId = view.mailboxId;
  if (view.workflowId) query.workflowId = view.workflowId;
  if (view.scope === 'org' && view.memberId) query.memberId = view.memberId;
  return query;
}

/** The browser's zone (UTC when it names none). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
