import { describe, expect, it } from 'vitest';
import { inRawRanges, inRolledHours, splitByHours, type HourSplit } from './hours';
import { SqlParams } from './sql';
import type { DashboardWindow } from './window';

const hour = 3_600_000;
const day = 24 * hour;
const at = (iso: string) => new Date(iso);

/** Daily bucket starts at `offsetMinutes` past UTC midnight (a zone without daylight saving), the first holding `from`. */
function dailyWindow(from: Date, days: number, offsetMinutes: number): DashboardWindow {
  const to = new Date(from.getTime() + days * day);
  const offset = offsetMinutes * 60_000;
  const firstStart = Math.floor((from.getTime() - offset) / day) * day + offset;
  const bucketStarts: Date[] = [];
  for (let start = firstStart; start < to.getTime(); start += day) bucketStarts.push(new Date(start));
  return { from, to, previousFrom: new Date(from.getTime() - days * day), bucket: 'day', tz: 'test', bucketStarts };
}

/** Where an instant is counted: 'raw', or the rolled hour that holds it; null when nowhere (a hole). */
function countedAs(split: HourSplit, instant: number): 'raw' | number | null {
  const inRaw = split.raw.some((range) => instant >= range.from.getTime() && instant < range.to.getTime());
  const hourStart = Math.floor(instant / hour) * hour;
  const rolled = hourStart >= split.rolledFrom.getTime() && hourStart < split.rolledTo.getTime() && !split.straddled.some((cut) => cut.getTime() === hourStart);
  if (inRaw && rolled) throw new Error(`counted twice: ${new Date(instant).toISOString()}`);
  return inRaw ? 'raw' : rolled ? hourStart : null;
}

describe('splitByHours', () => {
  it('reads a rolling 30-day window in UTC from rollups but for its two partial edge hours and the hour `from` cuts', () => {
    const window = dailyWindow(at('2026-11-02T10:17:23.456Z'), 30, 0);
    const split = splitByHours(window);
    expect(split.rolledFrom).toEqual(at('2026-10-03T11:00:00Z'));
    expect(split.rolledTo).toEqual(at('2026-12-02T10:00:00Z'));
    expect(split.straddled).toEqual([at('2026-11-02T10:00:00Z')]);
    expect(split.raw).toEqual([
      { from: at('2026-10-03T10:17:23.456Z'), to: at('2026-10-03T11:00:00Z') },
      { from: at('2026-11-02T10:00:00Z'), to: at('2026-11-02T11:00:00Z') },
      { from: at('2026-12-02T10:00:00Z'), to: at('2026-12-02T10:17:23.456Z') },
    ]);
  });

  it('reads raw every hour a local midnight at :30 or :45 UTC cuts (Asia/Kolkata, Asia/Kathmandu)', () => {
    for (const offsetMinutes of [-330 + 24 * 60, -345 + 24 * 60]) {
      const window = dailyWindow(at('2026-11-02T10:17:23.456Z'), 7, offsetMinutes);
      const split = splitByHours(window);
      const midnights = window.bucketStarts.filter((start) => start > window.from).map((start) => new Date(Math.floor(start.getTime() / hour) * hour));
      expect(midnights).toHaveLength(7);
      for (const cut of midnights) expect(split.straddled).toContainEqual(cut);
      expect(split.straddled).toHaveLength(8);
    }
  });

  it('reads nothing raw for a custom window on whole UTC hours with whole-hour buckets', () => {
    const window = dailyWindow(at('2026-11-02T00:00:00Z'), 3, 0);
    const split = splitByHours(window);
    expect(split.raw).toEqual([]);
    expect(split.straddled).toEqual([]);
    expect(split.rolledFrom).toEqual(window.previousFrom);
    expect(split.rolledTo).toEqual(window.to);
  });

  it('reads a window shorter than its whole hours entirely raw', () => {
    const from = at('2026-11-02T10:10:00Z');
    const window: DashboardWindow = { from, to: at('2026-11-02T10:40:00Z'), previousFrom: at('2026-11-02T09:40:00Z'), bucket: 'hour', tz: 'UTC', bucketStarts: [at('2026-11-02T10:00:00Z')] };
    const split = splitByHours(window);
    expect(split.raw).toEqual([{ from: window.previousFrom, to: window.to }]);
    expect(inRolledHours(new SqlParams(), 'r.hour', split)).toBe('false');
  });

  it('counts every instant of [previousFrom, to) exactly once, and a rolled hour never spans two buckets or two periods', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const wrong: string[] = [];
    for (let trial = 0; trial < 100; trial += 1) {
      const from = new Date(Date.UTC(2026, 10, 2) + Math.floor(random() * day));
      const window = dailyWindow(from, 1 + Math.floor(random() * 10), Math.floor(random() * 96) * 15);
      const split = splitByHours(window);
      const bucketOf = (t: number) => window.bucketStarts.filter((start) => start.getTime() <= t).length;
      for (let instant = window.previousFrom.getTime(); instant < window.to.getTime(); instant += 7 * 60_000 + 13) {
        const where = countedAs(split, instant);
        const current = instant >= window.from.getTime();
        const misplaced = typeof where === 'number' && ((where >= window.from.getTime()) !== current || (current && bucketOf(where) !== bucketOf(instant)));
        if (where === null || misplaced) wrong.push(`${new Date(instant).toISOString()} in a window from ${from.toISOString()}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('writes its conditions as bound parameters', () => {
    const split = splitByHours(dailyWindow(at('2026-11-02T10:17:23.456Z'), 30, 330));
    const p = new SqlParams();
    expect(inRolledHours(p, 'r.hour', split)).toBe('(r.hour >= $1::timestamptz AND r.hour < $2::timestamptz AND r.hour <> ALL($3::timestamptz[]))');
    expect(inRawRanges(p, 'e.created_at', split)).toMatch(/^\(\(e\.created_at >= \$4::timestamptz AND e\.created_at < \$5::timestamptz\) OR /);
    expect(p.values.length).toBe(3 + split.raw.length * 2);
  });
});
