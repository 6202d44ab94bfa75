/**
 * The statements the dashboard's routes run, as the floor of bench/dashboard.ts runs them on bare pg: the
 * window's bucket starts (server/domains/dashboard/window.ts's statement), then the route's own counting
 * statements, built by the route modules' exported builders (`executionFiguresSql`, `mailFiguresSql`,
 * `aiFiguresSql`, plus the budgets row the AI route reads), run in parallel as the route runs them. Each
 * statement is named so the bench prints its plan and time.
 */
import type { DashboardAudience } from '../server/domains/dashboard/audience';
import { DASHBOARD_HOURLY_UP_TO_HOURS, presetHours, type DashboardQuery } from '../server/domains/dashboard/query';
import type { DashboardWindow } from '../server/domains/dashboard/window';

export type DashboardRoute = 'executions' | 'mail' | 'ai';

export interface Statement {
  name: string;
  sql: string;
  values: unknown[];
}

/** The routes' builders (imported by the bench once DATABASE_URL is set). */
export interface RouteBuilders {
  executionFiguresSql: typeof import('../server/domains/dashboard/executions-sql').executionFiguresSql;
  /** The executions statements from raw rows only, as they were before the rollups: the "before" of the plans. */
  executionFiguresRawSql: typeof import('../server/domains/dashboard/executions-sql').executionFiguresRawSql;
  mailFiguresSql: typeof import('../server/domains/dashboard/mail-sql').mailFiguresSql;
  aiFiguresSql: typeof import('../server/domains/dashboard/ai-sql').aiFiguresSql;
  /** The raw statements the rollups replace: the plans' "before". */
  mailFiguresRawSql: typeof import('../server/domains/dashboard/mail-sql').mailFiguresRawSql;
  aiFiguresRawSql: typeof import('../server/domains/dashboard/ai-sql').aiFiguresRawSql;
  monthOf: typeof import('../server/domains/llm/cost').monthOf;
}

type Window = Omit<DashboardWindow, 'bucketStarts'>;

/** window.ts's `resolveWindow`, without the database: the instants and the bucket size. */
function windowOf(query: DashboardQuery, now: Date): Window {
  const to = query.period === 'custom' ? new Date(query.to!) : now;
  const from = query.period === 'custom' ? new Date(query.from!) : new Date(now.getTime() - presetHours(query.period) * 3_600_000);
  const length = to.getTime() - from.getTime();
  return { from, to, previousFrom: new Date(from.getTime() - length), bucket: length <= DASHBOARD_HOURLY_UP_TO_HOURS * 3_600_000 ? 'hour' : 'day', tz: query.tz };
}

/** window.ts's bucket-starts statement, as Prisma sends it. */
function windowStatement(window: Window): Statement {
  return {
    name: 'window',
    sql: `select generate_series(date_trunc($1, $2::timestamptz, $3), $4::timestamptz - interval '1 millisecond', $5::interval, $6) as start`,
    values: [window.bucket, window.from, window.tz, window.to, window.bucket === 'hour' ? '1 hour' : '1 day', window.tz],
  };
}

export interface FloorSql {
  window: Statement;
  /** The counting statements once the bucket starts are known (they run in parallel). */
  counting(bucketStarts: Date[]): Statement[];
  /** The statements a rollup replaced, as they were before it (raw rows only): their plans are logged as "before". */
  before(bucketStarts: Date[]): Statement[];
  /** The window's total (`current.total`, `.received` or `.calls`) from their answers, to check the route agrees. */
  total(answers: { rows: Record<string, unknown>[] }[]): number;
}

const sum = (rows: Record<string, unknown>[], column: string) => rows.filter((row) => row.current === true).reduce((total, row) => total + Number(row[column] ?? 0), 0);

export function floorSql(route: DashboardRoute, audience: DashboardAudience, query: DashboardQuery, now: Date, budgetMemberId: string, builders: RouteBuilders): FloorSql {
  const window = windowOf(query, now);
  const named = (statements: { text: string; values: unknown[] }[], names: string[]): Statement[] =>
    statements.map((item, index) => ({ name: names[index] ?? `statement ${index + 1}`, sql: item.text, values: item.values }));
  return {
    window: windowStatement(window),
    counting: (bucketStarts) => {
      const full = { ...window, bucketStarts };
      if (route === 'executions') return Object.entries(builders.executionFiguresSql(full, audience)).map(([name, item]) => ({ name, sql: item.text, values: item.values }));
      if (route === 'mail') return named(builders.mailFiguresSql(full, audience), ['journal', 'outbound']);
      return [
        // Totals first, the month's spend last, the breakdowns between (one raw, one per dimension from the rollups).
        ...named(builders.aiFiguresSql(full, audience, { month: builders.monthOf(now), memberId: budgetMemberId }), []).map((statement, index, all) => ({
          ...statement,
          name: index === 0 ? 'totals' : index === all.length - 1 ? 'month spend' : all.length === 3 ? 'breakdowns' : `breakdown ${['by model', 'by purpose', 'by member'][index - 1]}`,
        })),
        // The AI route reads the budgets row too (Prisma's findUnique: every column).
        { name: 'budgets row', sql: `SELECT * FROM llm_budgets WHERE id = $1 LIMIT 1`, values: ['instance'] },
      ];
    },
    before: (bucketStarts) => {
      const full = { ...window, bucketStarts };
      if (route === 'mail') return named(builders.mailFiguresRawSql(full, audience), ['journal (raw, before)']).slice(0, 1);
      if (route === 'ai') return named(builders.aiFiguresRawSql(full, audience, { month: builders.monthOf(now), memberId: budgetMemberId }), ['totals (raw, before)', 'breakdowns (raw, before)']).slice(0, 2);
      const raw = builders.executionFiguresRawSql(full, audience);
      return [
        { name: 'counts (raw, before)', sql: raw.counts.text, values: raw.counts.values },
        { name: 'workflows (raw, before)', sql: raw.workflows.text, values: raw.workflows.values },
        { name: 'medians (raw, before)', sql: raw.medians.text, values: raw.medians.values },
      ];
    },
    total: (answers) => {
      const rows = answers[0]?.rows ?? [];
      return route === 'executions' ? sum(rows, 'count') : route === 'mail' ? sum(rows, 'entries') : sum(rows, 'calls');
    },
  };
}

/** The runs the executions route counts (live, not evaluation runs, not loop iterations: server/domains/dashboard/executions.ts). */
const counted = "e.simulated = false AND e.eval_run_id IS NULL AND e.started_by IS DISTINCT FROM 'loop_iteration'".replace(/e\./g, '');

/**
 * Indexes the candidates would read by index-only scans (tried by the bench after the schema's own, then
 * dropped): the window's rows of the counted runs, journal entries and usage, with every column the
 * statements read, by time alone (`scope=org`). (The member and workflow ones it tried first are now migration
 * 20261202135500_dashboard_covering_indexes.)
 */
export const candidateIndexes: { name: string; sql: string }[] = [
  {
    name: 'bench_executions_counted_at',
    sql: `CREATE INDEX bench_executions_counted_at ON executions (created_at) INCLUDE (status, workflow_id, member_id, started_at, finished_at) WHERE ${counted}`,
  },
  { name: 'bench_journal_at', sql: `CREATE INDEX bench_journal_at ON mail_journal_entries (created_at) INCLUDE (outcome, automated, member_id, mailbox_id)` },
  { name: 'bench_journal_member_at', sql: `CREATE INDEX bench_journal_member_at ON mail_journal_entries (member_id, created_at) INCLUDE (outcome, automated, mailbox_id)` },
];
