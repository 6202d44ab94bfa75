/**
 * How a dashboard window splits between hourly rollups and raw rows.
 *
 * Rollup tables keep counts per whole UTC hour. An hour can be read from a rollup only when it lies
 * wholly inside one period and one bucket: then `date_trunc(bucket, hour, tz)`, `width_bucket(hour,
 * starts)` and `hour >= from` place its rollup row exactly where each of its raw rows would go. The
 * other instants of `[previousFrom, to)` are read raw: the partial hours at the two edges (presets
 * are rolling: `from` is now − 30 days, to the millisecond) and every hour that `from` or a bucket
 * start cuts (a local midnight at :30 UTC in Asia/Kolkata, at :45 in Asia/Kathmandu). Over 30 days in
 * a whole-hour zone that is under two hours of raw rows; in a half-hour zone, one hour a day more.
 */
import type { SqlParams } from './sql';
import type { DashboardWindow } from './window';

const hourMs = 3_600_000;

export interface HourSplit {
  /** Rollup rows with an hour in `[rolledFrom, rolledTo)` and not in `straddled` count whole. */
  rolledFrom: Date;
  rolledTo: Date;
  /** Whole UTC hours inside the rolled span cut by `from` or a bucket start: counted from raw rows. */
  straddled: Date[];
  /** Sorted, disjoint ranges `[from, to)` read raw: both edges and each straddled hour. */
  raw: { from: Date; to: Date }[];
}

const floorHour = (at: number) => Math.floor(at / hourMs) * hourMs;
const ceilHour = (at: number) => Math.ceil(at / hourMs) * hourMs;

/** The split of `[previousFrom, to)`: whole hours for rollups, the rest raw. */
export function splitByHours(window: DashboardWindow): HourSplit {
  const start = window.previousFrom.getTime();
  const end = window.to.getTime();
  const rolledFrom = ceilHour(start);
  const rolledTo = Math.max(rolledFrom, floorHour(end));
  if (rolledFrom >= rolledTo) {
    return { rolledFrom: new Date(rolledFrom), rolledTo: new Date(rolledFrom), straddled: [], raw: [{ from: window.previousFrom, to: window.to }] };
  }
  // Only boundaries inside the rolled span can cut a rolled hour; a bucket start at or before `from`
  // belongs to the first bucket, which holds `from` (window.ts).
  const boundaries = [window.from.getTime(), ...window.bucketStarts.map((at) => at.getTime()).filter((at) => at > window.from.getTime())];
  const cut = new Set<number>();
  for (const at of boundaries) {
    if (at % hourMs === 0) continue;
    const hour = floorHour(at);
    if (hour >= rolledFrom && hour < rolledTo) cut.add(hour);
  }
  const straddled = [...cut].sort((a, b) => a - b);
  const pieces: [number, number][] = [];
  if (start < rolledFrom) pieces.push([start, rolledFrom]);
  for (const hour of straddled) pieces.push([hour, hour + hourMs]);
  if (rolledTo < end) pieces.push([rolledTo, end]);
  // Adjacent pieces (two cut hours in a row, a cut hour next to an edge) become one range.
  const raw: [number, number][] = [];
  for (const piece of pieces) {
    const last = raw.at(-1);
    if (last && last[1] >= piece[0]) last[1] = Math.max(last[1], piece[1]);
    else raw.push([...piece]);
  }
  return {
    rolledFrom: new Date(rolledFrom),
    rolledTo: new Date(rolledTo),
    straddled: straddled.map((at) => new Date(at)),
    raw: raw.map(([from, to]) => ({ from: new Date(from), to: new Date(to) })),
  };
}

/** `column` (whole UTC hours) in the rolled hours. */
export function inRolledHours(p: SqlParams, column: string, split: HourSplit): string {
  if (split.rolledFrom.getTime() >= split.rolledTo.getTime()) return 'false';
  const range = `${column} >= ${p.add(split.rolledFrom, 'timestamptz')} AND ${column} < ${p.add(split.rolledTo, 'timestamptz')}`;
  if (split.straddled.length === 0) return `(${range})`;
  return `(${range} AND ${column} <> ALL(${p.add(split.straddled.map((at) => at.toISOString()))}::timestamptz[]))`;
}

/**
 * `column` (an instant) in one of the raw ranges: an OR of ranges, so that each one is an index range
 * scan (a bitmap OR) rather than a filter over the whole window.
 */
export function inRawRanges(p: SqlParams, column: string, split: HourSplit): string {
  if (split.raw.length === 0) return 'false';
  return `(${split.raw.map((range) => `(${column} >= ${p.add(range.from, 'timestamptz')} AND ${column} < ${p.add(range.to, 'timestamptz')})`).join(' OR ')})`;
}
