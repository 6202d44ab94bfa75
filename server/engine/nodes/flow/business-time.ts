/**
 * Deadlines counted in business time (flow.wait_for_reply): a duration that only runs during business
 * hours, the opening hours (`start`-`end`, wall-clock time) of the listed weekdays in a time zone. A
 * business day is the length of one business day's hours (9:00-18:00: nine hours), so "3 days" from
 * Friday 16:00 ends on Wednesday 16:00, and from Saturday on Wednesday at closing time. Wall-clock hours are
 * read in the zone each day (@date-fns/tz), so a change to or from summer time moves nothing but the
 * instants. Public holidays are not known: a holiday counts as a business day. Pure.
 */
import { z } from 'zod';
import { TZDate } from '@date-fns/tz';

export const weekdays = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof weekdays)[number];
export type DurationUnit = 'minutes' | 'hours' | 'days';

export interface BusinessHours {
  timeZone: string;
  days: Weekday[];
  /** `HH:MM`, 24-hour wall-clock time in the zone. */
  start: string;
  end: string;
}

function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'A time such as 09:00 (24-hour).');

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

export const businessHoursSchema = z
  .strictObject({
    timeZone: z.string().min(1).max(64).refine(validZone, 'An IANA time zone such as Europe/Paris.').describe('The IANA time zone of the business hours (such as Europe/Paris).'),
    days: z
      .array(z.enum(weekdays))
      .min(1)
      .max(7)
      .refine((days) => new Set(days).size === days.length, 'Each day once.')
      .default(['mon', 'tue', 'wed', 'thu', 'fri'])
      .describe('The business days (`mon` … `sun`; default Monday to Friday).'),
    start: clock.default('09:00').describe('When business hours start each business day (HH:MM, default 09:00).'),
    end: clock.default('18:00').describe('When business hours end each business day (HH:MM, after `start`; default 18:00).'),
  })
  .refine((hours) => minutesOf(hours.end) > minutesOf(hours.start), { message: 'Business hours end after they start.', path: ['end'] });

const unitMs: Record<Exclude<DurationUnit, 'days'>, number> = { minutes: 60_000, hours: 3_600_000 };
const dayMs = 86_400_000;
/** Calendar days looked at, at most, before giving up (a year: far beyond any wait the engine allows). */
const maxCalendarDays = 400;

/** The instant `amount` units after `from`: calendar time, or business time when `hours` is given. Null when out of reach. */
export function deadlineAfter(from: Date, amount: number, unit: DurationUnit, hours: BusinessHours | null): Date | null {
  if (!hours) return new Date(from.getTime() + amount * (unit === 'days' ? dayMs : unitMs[unit]));
  const open = minutesOf(hours.start);
  const close = minutesOf(hours.end);
  let budget = amount * (unit === 'days' ? (close - open) * 60_000 : unitMs[unit]);
  const local = new TZDate(from.getTime(), hours.timeZone);
  // Calendar days are counted in UTC arithmetic from the zone's date of `from` (no summer time in it).
  const firstDay = Date.UTC(local.getFullYear(), local.getMonth(), local.getDate());
  const businessDays = new Set(hours.days);
  let cursor = from.getTime();
  for (let offset = 0; offset < maxCalendarDays; offset += 1) {
    const day = new Date(firstDay + offset * dayMs);
    if (!businessDays.has(weekdays[day.getUTCDay()])) continue;
    const at = (minutes: number) => TZDate.tz(hours.timeZone, day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), Math.floor(minutes / 60), minutes % 60).getTime();
    const windowStart = Math.max(at(open), cursor);
    const windowEnd = at(close);
    if (windowStart >= windowEnd) continue;
    if (budget <= windowEnd - windowStart) return new Date(windowStart + budget);
    budget -= windowEnd - windowStart;
    cursor = windowEnd;
  }
  return null;
}
