/** When a schedule trigger (`trigger.schedule`, params {cron, timeZone}) next fires. */
import { CronExpressionParser } from 'cron-parser';

/** The first run strictly after `now`, or null when the expression or the time zone does not parse. */
export function nextRunAt(cron: unknown, timeZone: unknown, now: Date): Date | null {
  if (typeof cron !== 'string' || cron.length > 200) return null;
  const tz = typeof timeZone === 'string' && timeZone ? timeZone : 'UTC';
  try {
    return CronExpressionParser.parse(cron, { currentDate: now, tz }).next().toDate();
  } catch {
    return null;
  }
}
