import { z } from 'zod';
import type { Db, Tx } from '../../core/db';
import { isoDateTime } from '../../core/http/schemas';
import { DASHBOARD_HOURLY_UP_TO_HOURS, presetHours, type DashboardQuery } from './query';

export type Bucket = 'hour' | 'day';

/**
 * The window figures are counted over: `[from, to)`, the previous period `[previousFrom, from)` of
 * the same length, and the starts of the buckets that cut it, aligned on the reader's zone (the
 * first bucket is the one holding `from`, so it can start before it).
 */
export interface DashboardWindow {
  from: Date;
  to: Date;
  previousFrom: Date;
  bucket: Bucket;
  tz: string;
  bucketStarts: Date[];
}

export const windowOutput = z.object({
  from: isoDateTime,
  to: isoDateTime,
  previousFrom: isoDateTime.describe('Start of the previous period: as long as the window, just before `from`.'),
  bucket: z.enum(['hour', 'day']).describe('`hour` for windows up to 48 hours, `day` (the reader’s local days) beyond.'),
  buckets: z.array(isoDateTime).describe('Start of each bucket (UTC instants of local hour or midnight starts); every series has one value per bucket.'),
});

export function presentWindow(window: DashboardWindow): z.output<typeof windowOutput> {
  return {
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    previousFrom: window.previousFrom.toISOString(),
    bucket: window.bucket,
    buckets: window.bucketStarts.map((start) => start.toISOString()),
  };
}

/**
 * Resolves the query's period into its window. The bucket starts come from PostgreSQL itself
 * (`date_trunc` and `generate_series` in the reader's zone) so they are exactly the keys the
 * counting statements group by, daylight-saving days (23 or 25 hours) included.
 */
export async function resolveWindow(db: Db | Tx, query: DashboardQuery, now = new Date()): Promise<DashboardWindow> {
  const to = query.period === 'custom' ? new Date(query.to!) : now;
  const from = query.period === 'custom' ? new Date(query.from!) : new Date(now.getTime() - presetHours(query.period) * 3_600_000);
  const length = to.getTime() - from.getTime();
  const bucket: Bucket = length <= DASHBOARD_HOURLY_UP_TO_HOURS * 3_600_000 ? 'hour' : 'day';
  const rows = await db.$queryRaw<{ start: Date }[]>`
    select generate_series(
      date_trunc(${bucket}, ${from}::timestamptz, ${query.tz}),
      ${to}::timestamptz - interval '1 millisecond',
      ${bucket === 'hour' ? '1 hour' : '1 day'}::interval,
      ${query.tz}
    ) as start`;
  return {
    from,
    to,
    previousFrom: new Date(from.getTime() - length),
    bucket,
    tz: query.tz,
    bucketStarts: rows.map((row) => row.start),
  };
}

/**
 * Places counted rows `{bucket start, value}` (from `date_trunc(bucket, at, tz)`) on the window's
 * buckets: one value per bucket, 0 where nothing was counted.
 */
export function onBuckets<Row extends { start: Date }>(window: DashboardWindow, rows: Row[], value: (row: Row) => number): number[] {
  const byStart = new Map<number, number>();
  for (const row of rows) byStart.set(row.start.getTime(), (byStart.get(row.start.getTime()) ?? 0) + value(row));
  return window.bucketStarts.map((start) => byStart.get(start.getTime()) ?? 0);
}
