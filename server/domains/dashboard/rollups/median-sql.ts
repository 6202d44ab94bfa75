/**
 * The executions figures' `medianDurationMs`, exact, without sorting a period's runs.
 *
 * The figure is `percentile_cont(0.5)` of `finished_at − started_at` (whole ms) over the counted runs of a period
 * (`mediansRawSql`, the statement as it was, kept for the agreement test and the bench's "before"). Org-wide `30d`
 * over a busy month that is a sort of ~855,000 durations. A median cannot be summed, but a histogram can:
 * `dashboard_duration_days` counts the runs per UTC day of `created_at`, member, workflow, mailbox and duration
 * bin (`dashboard_duration_bin`, log-scale, ~5 % wide; table, trigger and function in migration
 * `20261202162000_dashboard_duration_days`), plus one organisation row per day and bin (member, workflow and mailbox
 * null) so an unfiltered org-wide month adds up ~9,000 rows whatever the number of workflows and mailboxes. It is
 * read with the increments run ends appended since the last fold (the view `dashboard_duration_days_now`, migration
 * `run_rollups_take_increments_as_rows`). `mediansSql` is one statement for both periods:
 *
 * 1. histogram: per period and bin, the rolled whole UTC days inside the period plus the raw runs of its partial
 *    days at the edges (when neither period holds a whole UTC day, as a rolling 24 h, the raw statement instead);
 * 2. cumulative counts find the bin(s) holding the 0-based ranks ⌊(n−1)/2⌋ and ⌈(n−1)/2⌉, and each rank's offset in
 *    its bin;
 * 3. refine: a LATERAL reads only that bin's raw runs of the period (the expression index
 *    `executions_dashboard_duration_bin_idx`), `ORDER BY duration OFFSET k LIMIT 1|2`;
 * 4. the answer is percentile_cont's own interpolation of the two values, `lo + (hi − lo) × 0.5` (exact on whole
 *    milliseconds), null when the period has no run.
 *
 * Exactness needs only that the rollup holds the raw counts (the trigger, the reconciler) and that the bin never
 * decreases as the duration grows; the bin edges themselves do not matter. Days rather than hours: the median is one
 * figure per period, not per bucket, so the rollup needs no alignment on the reader's zone, and the rolling
 * window's two partial days (one at each end of each period, the middle two adjacent) add up to about two days of
 * raw rows read by `created_at`.
 */
import type { DashboardAudience } from '../audience';
import { SqlParams, type SqlStatement } from '../sql';
import type { DashboardWindow } from '../window';

/** A run's duration as the figure has always counted it: whole ms (timestamptz(3)), `round` keeps the float8 exact. */
const duration = "round(date_part('epoch', e.finished_at - e.started_at) * 1000)";
/** Its bin: this text is the expression of `executions_dashboard_duration_bin_idx` (the planner matches it). */
const durationBin = `dashboard_duration_bin(${duration})`;

const dayMs = 86_400_000;
const floorDay = (at: Date) => new Date(Math.floor(at.getTime() / dayMs) * dayMs);
const ceilDay = (at: Date) => new Date(Math.ceil(at.getTime() / dayMs) * dayMs);
const isoDay = (at: Date) => at.toISOString().slice(0, 10);

interface Range {
  from: Date;
  to: Date;
}

/** How one period `[from, to)` is read: whole UTC days from the rollup (if any), the rest raw. */
function splitPeriod(from: Date, to: Date): { days: Range | null; raw: Range[] } {
  const firstDay = ceilDay(from);
  const lastDay = floorDay(to);
  if (firstDay.getTime() >= lastDay.getTime()) return { days: null, raw: [{ from, to }] };
  return { days: { from: firstDay, to: lastDay }, raw: [{ from, to: firstDay }, { from: lastDay, to }].filter((range) => range.from < range.to) };
}

/** Sorted ranges, empty ones dropped and adjacent ones joined (the previous period's last edge meets the current's first). */
function joined(ranges: Range[]): Range[] {
  const out: Range[] = [];
  for (const range of [...ranges].sort((a, b) => a.from.getTime() - b.from.getTime())) {
    if (range.from >= range.to) continue;
    const last = out.at(-1);
    if (last && last.to.getTime() >= range.from.getTime()) last.to = new Date(Math.max(last.to.getTime(), range.to.getTime()));
    else out.push({ ...range });
  }
  return out;
}

/** The counted runs for the alias `alias` (executions.ts's `countedRuns`: live, not evaluation runs, not loop iterations) with both instants. */
function countedRunsWithDuration(alias: string): string {
  return `${alias}.simulated = false AND ${alias}.eval_run_id IS NULL AND ${alias}.started_by IS DISTINCT FROM 'loop_iteration' AND ${alias}.finished_at IS NOT NULL AND ${alias}.started_at IS NOT NULL`;
}

/** The audience's filters on `alias` (the same parameters for every part of the statement). */
function audienceFilters(params: SqlParams, audience: DashboardAudience): (alias: string) => string {
  const filters: [string, string][] = [];
  if (audience.memberId !== null) filters.push(['member_id', params.add(audience.memberId, 'uuid')]);
  if (audience.workflowId !== null) filters.push(['workflow_id', params.add(audience.workflowId, 'uuid')]);
  if (audience.mailboxId !== null) filters.push(['mailbox_id', params.add(audience.mailboxId, 'uuid')]);
  return (alias) => filters.map(([column, value]) => ` AND ${alias}.${column} = ${value}`).join('');
}

/** The rollup rows to add up: the organisation's rows (member null) when nothing is filtered, else the runs' own rows the filters select. */
function rollupLevel(audience: DashboardAudience): string {
  return audience.memberId === null && audience.workflowId === null && audience.mailboxId === null ? ' AND r.member_id IS NULL' : '';
}

/** `col >= $a AND col < $b OR …` for the ranges, 'false' when none. */
function inRanges(params: SqlParams, column: string, ranges: Range[], cast: 'timestamptz' | 'date'): string {
  if (ranges.length === 0) return 'false';
  const value = (at: Date) => (cast === 'date' ? `${params.add(isoDay(at))}::date` : params.add(at.toISOString(), 'timestamptz'));
  return ranges.map((range) => `${column} >= ${value(range.from)} AND ${column} < ${value(range.to)}`).join(' OR ');
}

/** The medians statement, from the rollup: one row `{current, previous}` (float8 ms or null), the raw statement's answer. */
export function mediansSql(window: DashboardWindow, audience: DashboardAudience): SqlStatement {
  const params = new SqlParams();
  const filters = audienceFilters(params, audience);
  const from = params.add(window.from.toISOString(), 'timestamptz');
  const to = params.add(window.to.toISOString(), 'timestamptz');
  const previousFrom = params.add(window.previousFrom.toISOString(), 'timestamptz');
  const current = splitPeriod(window.from, window.to);
  const previous = splitPeriod(window.previousFrom, window.from);
  const days = joined([current.days, previous.days].filter((range): range is Range => range !== null));
  // No whole UTC day in either period (a rolling 24 h): every run would be read raw anyway, and percentile_cont's
  // one sort of them beats a histogram of them plus the refine (at the bench's busy month: 84 vs 166 ms).
  if (days.length === 0) return mediansRawSql(window, audience);
  const raw = joined([...current.raw, ...previous.raw]);
  // A rolled day belongs to the current period when it starts at or after `from` (no day straddles `from`).
  const currentDay = current.days ? `r.day >= ${params.add(isoDay(current.days.from))}::date` : 'false';

  // One SELECT per raw range, UNION ALL: each can be an index-only scan of a covering index (member, workflow), where
  // an OR of ranges makes a bitmap scan that reads every row from the heap (3× slower at the bench's busy month).
  const text = `WITH histogram AS (
  SELECT h.current, h.bin, sum(h.runs)::bigint AS runs
    FROM (
      SELECT ${currentDay} AS current, r.bin, r.runs
        FROM dashboard_duration_days_now r
       WHERE (${inRanges(params, 'r.day', days, 'date')})${filters('r')}${rollupLevel(audience)}
${raw.map((range) => `      UNION ALL
      SELECT e.created_at >= ${from} AS current, ${durationBin} AS bin, 1 AS runs
        FROM executions e
       WHERE ${countedRunsWithDuration('e')}${filters('e')}
         AND ${inRanges(params, 'e.created_at', [range], 'timestamptz')}`).join('\n')}
    ) h
   GROUP BY h.current, h.bin
), cumulative AS (
  SELECT c.current, c.bin, c.runs, (sum(c.runs) OVER (PARTITION BY c.current ORDER BY c.bin))::bigint AS upto, (sum(c.runs) OVER (PARTITION BY c.current))::bigint AS n
    FROM histogram c
), middle AS (
  -- The 0-based ranks ⌊(n−1)/2⌋ and ⌈(n−1)/2⌉ (one rank when n is odd), by the bin holding them: the first one's offset in the bin and how many to take.
  SELECT c.current, c.bin, min(ranks.rank - (c.upto - c.runs)) AS skip, count(DISTINCT ranks.rank) AS take
    FROM cumulative c CROSS JOIN LATERAL (VALUES ((c.n - 1) / 2), (c.n / 2)) ranks(rank)
   WHERE c.n > 0 AND ranks.rank >= c.upto - c.runs AND ranks.rank < c.upto
   GROUP BY c.current, c.bin
), picked AS (
  SELECT m.current, v.ms
    FROM middle m
   CROSS JOIN LATERAL (
     SELECT ${duration} AS ms
       FROM executions e
      WHERE ${durationBin} = m.bin AND ${countedRunsWithDuration('e')}${filters('e')}
        AND e.created_at >= CASE WHEN m.current THEN ${from} ELSE ${previousFrom} END
        AND e.created_at < CASE WHEN m.current THEN ${to} ELSE ${from} END
      ORDER BY 1
     OFFSET m.skip LIMIT m.take
   ) v
)
SELECT min(p.ms) FILTER (WHERE p.current) + (max(p.ms) FILTER (WHERE p.current) - min(p.ms) FILTER (WHERE p.current)) * 0.5 AS current,
       min(p.ms) FILTER (WHERE NOT p.current) + (max(p.ms) FILTER (WHERE NOT p.current) - min(p.ms) FILTER (WHERE NOT p.current)) * 0.5 AS previous
  FROM picked p`;
  return { text, values: params.values };
}

/** The medians as they were computed before the rollup: `percentile_cont(0.5)` over every counted run of both periods (the agreement test's and the bench's reference). */
export function mediansRawSql(window: DashboardWindow, audience: DashboardAudience): SqlStatement {
  const medians = new SqlParams();
  const mediansFrom = medians.add(window.from.toISOString());
  const where = ['e.simulated = false', 'e.eval_run_id IS NULL', "e.started_by IS DISTINCT FROM 'loop_iteration'"];
  if (audience.memberId !== null) where.push(`e.member_id = ${medians.add(audience.memberId)}::uuid`);
  if (audience.workflowId !== null) where.push(`e.workflow_id = ${medians.add(audience.workflowId)}::uuid`);
  if (audience.mailboxId !== null) where.push(`e.mailbox_id = ${medians.add(audience.mailboxId)}::uuid`);
  const text = `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ${duration}) FILTER (WHERE e.created_at >= ${mediansFrom}::timestamptz) AS current,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY ${duration}) FILTER (WHERE e.created_at < ${mediansFrom}::timestamptz) AS previous
  FROM executions e
 WHERE ${where.join(' AND ')}
   AND e.created_at >= ${medians.add(window.previousFrom.toISOString())}::timestamptz AND e.created_at < ${medians.add(window.to.toISOString())}::timestamptz
   AND e.finished_at IS NOT NULL AND e.started_at IS NOT NULL`;
  return { text, values: medians.values };
}
