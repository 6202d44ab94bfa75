/**
 * Date and time helpers in a time zone: now, parse, format, add, subtract, diff. Dates go out as
 * ISO 8601 strings in UTC (`iso`) plus the same instant written in the zone (`local`).
 */
import { z } from 'zod';
import { TZDate } from '@date-fns/tz';
import { add, differenceInMilliseconds, format, parseISO, sub } from 'date-fns';
import { defineNode } from '../../contract/define-node';
import { fail } from '../../contract/failures';

const units = ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months', 'years'] as const;
type Unit = (typeof units)[number];

function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const dateText = z.string().min(1).max(100);

function parseDate(text: string | undefined, path: string, zone: string): TZDate {
  if (text === undefined) throw fail.permanent('invalid_parameter', { message: `${path} is required for this operation.`, details: { path } });
  const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/i.test(text.trim());
  // A date without an offset is read as a wall-clock time in the zone.
  const time = hasOffset ? parseISO(text).getTime() : TZDate.tz(zone, ...wallClock(text)).getTime();
  if (Number.isNaN(time)) throw fail.permanent('invalid_parameter', { message: `${path} is not a date (ISO 8601 expected).`, details: { path } });
  return new TZDate(time, zone);
}

function wallClock(text: string): [number, number, number, number, number, number, number] {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/.exec(text.trim());
  if (!match) return [NaN, 0, 1, 0, 0, 0, 0];
  const [, y, mo, d, h, mi, s, ms] = match;
  return [Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0), Number((ms ?? '0').padEnd(3, '0'))];
}

function present(date: TZDate) {
  return { iso: new Date(date.getTime()).toISOString(), local: format(date, "yyyy-MM-dd'T'HH:mm:ss.SSSxxx"), timeZone: date.timeZone ?? 'UTC', epochMs: date.getTime() };
}

export const datetimeNode = defineNode({
  type: 'data.datetime',
  version: 1,
  category: 'data',
  label: { en: 'Date & time', fr: 'Date et heure' },
  description: {
    en: 'Gives the current time, reads, formats, shifts or compares dates in a time zone.',
    fr: 'Donne l’heure actuelle, lit, met en forme, décale ou compare des dates dans un fuseau horaire.',
  },
  params: z.strictObject({
    operation: z.enum(['now', 'parse', 'format', 'add', 'subtract', 'diff']).describe('What to do.'),
    date: dateText.optional().describe('The date (ISO 8601; without an offset it is read in the time zone). Not used by `now`.'),
    otherDate: dateText.optional().describe('`diff` only: the date to subtract from `date`.'),
    amount: z.number().int().min(-1_000_000).max(1_000_000).optional().describe('`add` / `subtract`: how many units.'),
    unit: z.enum(units).default('days').describe('The unit of `amount` (add, subtract) or of the result (diff).'),
    pattern: z
      .string()
      .min(1)
      .max(100)
      .default("yyyy-MM-dd'T'HH:mm:ssxxx")
      .describe('`format` only: a date-fns pattern (`yyyy-MM-dd HH:mm`, `EEEE d MMMM`).'),
    timeZone: z.string().min(1).max(64).refine(validZone, 'An IANA time zone such as Europe/Paris.').default('UTC').describe('The IANA time zone (default UTC).'),
  }),
  outputs: ['main'],
  effect: 'none',
  requires: [],
  scopes: [],
  async execute({ params, now }) {
    const zone = params.timeZone;
    switch (params.operation) {
      case 'now':
        return { data: present(new TZDate(now().getTime(), zone)) };
      case 'parse':
        return { data: present(parseDate(params.date, 'params.date', zone)) };
      case 'format': {
        const date = parseDate(params.date, 'params.date', zone);
        try {
          return { data: { ...present(date), formatted: format(date, params.pattern) } };
        } catch {
          throw fail.permanent('invalid_parameter', { message: 'params.pattern is not a valid date pattern.', details: { path: 'params.pattern' } });
        }
      }
      case 'add':
      case 'subtract': {
        if (params.amount === undefined) throw fail.permanent('invalid_parameter', { message: 'params.amount is required.', details: { path: 'params.amount' } });
        const date = parseDate(params.date, 'params.date', zone);
        const duration = { [params.unit]: params.amount } as Record<Unit, number>;
        const shifted = params.operation === 'add' ? add(date, duration) : sub(date, duration);
        if (Number.isNaN(shifted.getTime())) throw fail.permanent('invalid_parameter', { message: 'The result is not a valid date.' });
        return { data: present(new TZDate(shifted.getTime(), zone)) };
      }
      case 'diff': {
        const date = parseDate(params.date, 'params.date', zone);
        const other = parseDate(params.otherDate, 'params.otherDate', zone);
        const ms = differenceInMilliseconds(date, other);
        const per: Record<Unit, number> = { seconds: 1e3, minutes: 6e4, hours: 3.6e6, days: 8.64e7, weeks: 6.048e8, months: 2.6298e9, years: 3.15576e10 };
        return { data: { milliseconds: ms, value: Math.trunc(ms / per[params.unit]), unit: params.unit } };
      }
    }
  },
});
