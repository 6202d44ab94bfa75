import { z } from 'zod';
import { isoDateTimeInput } from '../../core/http/schemas';

/** The longest window a dashboard reads: a quarter, 92 days (custom periods beyond it are a 400). */
export const DASHBOARD_MAX_WINDOW_DAYS = 92;
/** Windows up to this length are cut into hours, longer ones into the reader's local days. */
export const DASHBOARD_HOURLY_UP_TO_HOURS = 48;

const presets = { '24h': 24, '7d': 24 * 7, '30d': 24 * 30 } as const;
export type DashboardPeriod = keyof typeof presets | 'custom';

export function presetHours(period: keyof typeof presets): number {
  return presets[period];
}

/**
 * An IANA zone name both Intl and PostgreSQL read the same way. Offsets ("+01:00") are refused:
 * PostgreSQL reads a bare offset as a POSIX zone, with the sign the other way round.
 */
export function isIanaTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const description = {
  scope: '`me` (default): the reader’s own figures; `org`: the whole organisation (administrators only, else 403 `dashboard.forbidden`).',
  period: '`24h`, `7d` (default), `30d`: the window ends now; `custom`: between `from` and `to`, both required, at most 92 days.',
  tz: 'IANA time zone of the reader (default `UTC`); buckets start at its local hours or midnights.',
  memberId: 'Administrators only (else 403 `dashboard.forbidden`), with `scope=org`: one member’s figures.',
} as const;

export const dashboardQueryInput = z
  .object({
    scope: z.enum(['me', 'org']).default('me').describe(description.scope),
    period: z.enum(['24h', '7d', '30d', 'custom']).default('7d').describe(description.period),
    from: isoDateTimeInput.optional().describe('Start of a `custom` window (inclusive).'),
    to: isoDateTimeInput.optional().describe('End of a `custom` window (exclusive).'),
    tz: z.string().min(1).max(64).default('UTC').describe(description.tz),
    mailboxId: z.uuid().optional(),
    workflowId: z.uuid().optional(),
    memberId: z.uuid().optional().describe(description.memberId),
  })
  .superRefine((query, issues) => {
    const problem = (path: string, message: string) => issues.addIssue({ code: 'custom', path: [path], message });
    if (!isIanaTimeZone(query.tz)) problem('tz', 'Not an IANA time zone name, e.g. Europe/Paris.');
    if (query.period !== 'custom') {
      if (query.from !== undefined || query.to !== undefined) problem('period', '`from` and `to` go with `period=custom` only.');
      return;
    }
    if (query.from === undefined || query.to === undefined) return problem('period', '`period=custom` needs both `from` and `to`.');
    const length = Date.parse(query.to) - Date.parse(query.from);
    if (length <= 0) problem('to', '`to` must be after `from`.');
    else if (length > DASHBOARD_MAX_WINDOW_DAYS * 24 * 3_600_000) problem('to', `The window is at most ${DASHBOARD_MAX_WINDOW_DAYS} days.`);
  });

export type DashboardQuery = z.output<typeof dashboardQueryInput>;
