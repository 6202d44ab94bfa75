/**
 * The statements the dashboard's routes run, as the floor of bench/dashboard.ts runs them on bare pg: the
 * window's bucket starts (server/domains/dashboard/window.ts's statement), then the route's counting
 * statements, in parallel as the route runs them.
 *
 * The counting statements are the routes' own builders (`executionFiguresSql`, `mailFiguresSql`,
 * `aiFiguresSql` + the budgets row) when the route module exports one; otherwise candidates written here
 * (to learn which indexes raw aggregation needs before the routes exist). Each statement is named so the
 * bench prints its plan and time.
 */
import { DASHBOARD_HOURLY_UP_TO_HOURS, presetHours, type DashboardQuery } from '../server/domains/dashboard/query';

export type DashboardRoute = 'executions' | 'mail' | 'ai';

export interface Statement {
  name: string;
  sql: string;
  values: unknown[];
}

export interface BenchAudience {
  memberId: string | null;
  mailboxId: string | null;
  workflowId: string | null;
  isAdmin: boolean;
}

interface Window {
  from: Date;
  to: Date;
  previousFrom: Date;
  bucket: 'hour' | 'day';
  tz: string;
}

function windowOf(query: DashboardQuery, now: Date): Window {
  const to = query.period === 'custom' ? new Date(query.to!) : now;
  const from = query.period === 'custom' ? new Date(query.from!) : new Date(now.getTime() - presetHours(query.period) * 3_600_000);
  const length = to.getTime() - from.getTime();
  return { from, to, previousFrom: new Date(from.getTime() - length), bucket: length <= DASHBOARD_HOURLY_UP_TO_HOURS * 3_600_000 ? 'hour' : 'day', tz: query.tz };
}

/** window.ts's bucket-starts statement. */
function windowStatement(window: Window): Statement {
  return {
    name: 'window',
    sql: `select generate_series(date_trunc($1, $2::timestamptz, $3), $4::timestamptz - interval '1 millisecond', $5::interval, $3) as start`,
    values: [window.bucket, window.from, window.tz, window.to, window.bucket === 'hour' ? '1 hour' : '1 day'],
  };
}

/** Placeholders over one values array (each window value numbered at its first use), and the audience's filters. */
function builder(window: Window) {
  const values: unknown[] = [];
  const add = (value: unknown) => `$${values.push(value)}`;
  const once = (value: unknown) => {
    let placeholder: string | null = null;
    return () => (placeholder ??= add(value));
  };
  const [from, to, previousFrom, bucket, tz] = [once(window.from), once(window.to), once(window.previousFrom), once(window.bucket), once(window.tz)];
  return {
    values,
    add,
    get from() { return from(); },
    get to() { return to(); },
    get previousFrom() { return previousFrom(); },
    get bucket() { return bucket(); },
    get tz() { return tz(); },
  };
}

type Builder = ReturnType<typeof builder>;

function filters(b: Builder, audience: BenchAudience, columns: { member?: string; mailbox?: string; workflow?: string }, alias = ''): string {
  const where: string[] = [];
  if (audience.memberId && columns.member) where.push(`${alias}${columns.member} = ${b.add(audience.memberId)}::uuid`);
  if (audience.mailboxId && columns.mailbox) where.push(`${alias}${columns.mailbox} = ${b.add(audience.mailboxId)}::uuid`);
  if (audience.workflowId && columns.workflow) where.push(`${alias}${columns.workflow} = ${b.add(audience.workflowId)}::uuid`);
  return where.map((clause) => ` AND ${clause}`).join('');
}

/** One statement per builder (each keeps its own placeholders). */
function statement(name: string, window: Window, make: (b: Builder) => string): Statement {
  const b = builder(window);
  return { name, sql: make(b), values: b.values };
}

const counted = 'NOT simulated AND eval_run_id IS NULL';

function executionStatements(audience: BenchAudience, window: Window): Statement[] {
  const where = (b: Builder, alias = '') => `${counted.replace(/(simulated|eval_run_id)/g, `${alias}$1`)}${filters(b, audience, { member: 'member_id', mailbox: 'mailbox_id', workflow: 'workflow_id' }, alias)}`;
  return [
    statement(
      'totals',
      window,
      (b) => `SELECT (created_at >= ${b.from}::timestamptz) AS cur, status, count(*)::int AS n,
                     percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM finished_at - started_at) * 1000) AS median_ms
                FROM executions
               WHERE created_at >= ${b.previousFrom}::timestamptz AND created_at < ${b.to}::timestamptz AND ${where(b)}
               GROUP BY GROUPING SETS ((1, 2), (1))`,
    ),
    statement(
      'series',
      window,
      (b) => `SELECT date_trunc(${b.bucket}, created_at, ${b.tz}) AS start, status, count(*)::int AS n
                FROM executions
               WHERE created_at >= ${b.from}::timestamptz AND created_at < ${b.to}::timestamptz AND ${where(b)}
               GROUP BY 1, 2`,
    ),
    statement(
      'workflows',
      window,
      (b) => `SELECT f.*, w.name, m.name AS member_name FROM (
                SELECT workflow_id, count(*)::int AS total, count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
                       count(*) FILTER (WHERE status = 'failed')::int AS failed, max(created_at) AS last_run_at,
                       row_number() OVER (ORDER BY count(*) DESC, workflow_id) AS by_total,
                       row_number() OVER (ORDER BY count(*) FILTER (WHERE status = 'failed') DESC, workflow_id) AS by_failed
                  FROM executions
                 WHERE created_at >= ${b.from}::timestamptz AND created_at < ${b.to}::timestamptz AND ${where(b)}
                 GROUP BY workflow_id) f
                JOIN workflows w ON w.id = f.workflow_id LEFT JOIN members m ON m.id = w.member_id
               WHERE f.by_total <= 5 OR (f.by_failed <= 5 AND f.failed > 0)`,
    ),
    statement(
      'recent failures',
      window,
      (b) => `SELECT i.id, i.execution_id, i.workflow_id, i.workflow_name, m.name AS member_name, i.failed_at, e.error->>'code' AS error_code,
                     i.error_summary, i.node_id, i.node_name, i.acknowledged_at IS NOT NULL AS acknowledged
                FROM incidents i JOIN executions e ON e.id = i.execution_id LEFT JOIN members m ON m.id = i.member_id
               WHERE i.failed_at >= ${b.from}::timestamptz AND i.failed_at < ${b.to}::timestamptz${filters(b, audience, { member: 'member_id', mailbox: 'mailbox_id', workflow: 'workflow_id' }, 'i.')}
               ORDER BY i.failed_at DESC, i.id DESC LIMIT 10`,
    ),
  ];
}

function mailStatements(audience: BenchAudience, window: Window): Statement[] {
  // The journal has no workflow: a workflow filter does not narrow it in these candidates.
  const where = (b: Builder) => filters(b, audience, { member: 'member_id', mailbox: 'mailbox_id' });
  return [
    statement(
      'totals',
      window,
      (b) => `SELECT (created_at >= ${b.from}::timestamptz) AS cur, outcome, count(*)::int AS n
                FROM mail_journal_entries
               WHERE created_at >= ${b.previousFrom}::timestamptz AND created_at < ${b.to}::timestamptz${where(b)}
               GROUP BY 1, 2`,
    ),
    statement(
      'series',
      window,
      (b) => `SELECT date_trunc(${b.bucket}, created_at, ${b.tz}) AS start, count(*)::int AS received, count(*) FILTER (WHERE outcome = 'dispatched')::int AS dispatched
                FROM mail_journal_entries
               WHERE created_at >= ${b.from}::timestamptz AND created_at < ${b.to}::timestamptz${where(b)}
               GROUP BY 1`,
    ),
    statement(
      'outbound',
      window,
      (b) => `SELECT (created_at >= ${b.from}::timestamptz) AS cur, count(*) FILTER (WHERE mode = 'draft')::int AS drafts,
                     count(*) FILTER (WHERE mode = 'send' AND send_status = 'done')::int AS sent
                FROM outbound_messages
               WHERE origin = 'workflow' AND created_at >= ${b.previousFrom}::timestamptz AND created_at < ${b.to}::timestamptz${filters(b, audience, { member: 'member_id', mailbox: 'mailbox_id', workflow: 'workflow_id' })}
               GROUP BY 1`,
    ),
  ];
}

function aiStatements(audience: BenchAudience, window: Window): Statement[] {
  const where = (b: Builder) => filters(b, audience, { member: 'member_id', workflow: 'workflow_id' });
  return [
    statement(
      'totals and breakdowns',
      window,
      (b) => `SELECT (created_at >= ${b.from}::timestamptz) AS cur, provider, model, purpose, member_id, GROUPING(provider, model, purpose, member_id) AS grouping,
                     count(*)::int AS calls, sum(input_tokens)::bigint AS input_tokens, sum(output_tokens)::bigint AS output_tokens,
                     sum(reasoning_tokens)::bigint AS reasoning_tokens, coalesce(sum(cost_usd), 0) AS cost_usd,
                     count(*) FILTER (WHERE cost_usd IS NULL)::int AS unpriced_calls,
                     coalesce(sum(cost_usd) FILTER (WHERE credential_id IS NULL), 0) AS instance_cost_usd,
                     count(*) FILTER (WHERE credential_id IS NOT NULL)::int AS member_key_calls,
                     coalesce(sum(cost_usd) FILTER (WHERE credential_id IS NOT NULL), 0) AS member_key_cost_usd
                FROM llm_usage
               WHERE created_at >= ${b.previousFrom}::timestamptz AND created_at < ${b.to}::timestamptz${where(b)}
               GROUP BY GROUPING SETS ((1), (1, provider, model), (1, purpose), (1, member_id))`,
    ),
    statement(
      'series',
      window,
      (b) => `SELECT date_trunc(${b.bucket}, created_at, ${b.tz}) AS start, count(*)::int AS calls, coalesce(sum(cost_usd), 0) AS cost_usd
                FROM llm_usage
               WHERE created_at >= ${b.from}::timestamptz AND created_at < ${b.to}::timestamptz${where(b)}
               GROUP BY 1`,
    ),
    {
      name: 'budgets',
      sql: `SELECT b.instance_monthly_usd, b.member_monthly_usd,
                   (SELECT coalesce(sum(cost_usd), 0) FROM llm_usage WHERE credential_id IS NULL AND created_at >= date_trunc('month', now(), 'UTC')) AS instance_spent,
                   (SELECT coalesce(sum(cost_usd), 0) FROM llm_usage WHERE credential_id IS NULL AND member_id = $1::uuid AND created_at >= date_trunc('month', now(), 'UTC')) AS member_spent
              FROM (SELECT 1) one LEFT JOIN llm_budgets b ON b.id = 'instance'`,
      values: [audience.memberId ?? '00000000-0000-0000-0000-000000000000'],
    },
  ];
}

export interface RouteWindow extends Window {
  bucketStarts: Date[];
}

export interface FloorSql {
  /** `route`: the route module's own builder; `candidate`: the bench's. */
  source: 'route' | 'candidate';
  window: Statement;
  /** The counting statements once the bucket starts are known (they run in parallel). */
  counting(bucketStarts: Date[]): Statement[];
  /** The window's total (`current.total`, `.received` or `.calls`) from their answers, to check the route agrees. */
  total(answers: { rows: Record<string, unknown>[] }[]): number;
}

type Built = { text: string; values: unknown[] };
type RouteBuilder = (window: RouteWindow, audience: BenchAudience, budget: { month: { month: string; from: Date; to: Date }; memberId: string }) => Built[] | Record<string, Built>;

/** The route modules' exported builders, when they exist (looked up by name: the bench runs before and after they land). */
export async function routeBuilders(): Promise<Partial<Record<DashboardRoute, RouteBuilder>>> {
  const found: Partial<Record<DashboardRoute, RouteBuilder>> = {};
  const modules: [DashboardRoute, string, Record<string, unknown>][] = [
    ['executions', 'executionFiguresSql', await import('../server/domains/dashboard/executions')],
    ['mail', 'mailFiguresSql', await import('../server/domains/dashboard/mail').then((module: Record<string, unknown>) => ('mailFiguresSql' in module ? module : import('../server/domains/dashboard/mail-sql' as string).catch(() => module)))],
    ['ai', 'aiFiguresSql', await import('../server/domains/dashboard/ai').then((module: Record<string, unknown>) => ('aiFiguresSql' in module ? module : import('../server/domains/dashboard/ai-sql' as string).catch(() => module)))],
  ];
  for (const [route, name, module] of modules) if (typeof module[name] === 'function') found[route] = module[name] as RouteBuilder;
  return found;
}

const sum = (rows: Record<string, unknown>[], keep: (row: Record<string, unknown>) => boolean, column: string) =>
  rows.filter(keep).reduce((total, row) => total + Number(row[column] ?? 0), 0);

export function floorSql(route: DashboardRoute, audience: BenchAudience, query: DashboardQuery, now: Date, budgetMemberId: string, builder?: RouteBuilder): FloorSql {
  const window = windowOf(query, now);
  if (builder) {
    const named = (built: Built[] | Record<string, Built>, names: string[]): Statement[] =>
      Array.isArray(built) ? built.map((item, index) => ({ name: names[index] ?? `statement ${index + 1}`, sql: item.text, values: item.values })) : Object.entries(built).map(([name, item]) => ({ name, sql: item.text, values: item.values }));
    const names = route === 'mail' ? ['journal', 'outbound'] : route === 'ai' ? ['totals', 'breakdowns', 'month spend'] : [];
    const month = (() => {
      const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      return { month: from.toISOString().slice(0, 7), from, to: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
    })();
    return {
      source: 'route',
      window: windowStatement(window),
      counting: (bucketStarts) => [
        ...named(builder({ ...window, bucketStarts }, audience, { month, memberId: budgetMemberId }), names),
        // The AI route reads the budgets row too (Prisma's findUnique: every column).
        ...(route === 'ai' ? [{ name: 'budgets row', sql: `SELECT * FROM llm_budgets WHERE id = $1 LIMIT 1`, values: ['instance'] }] : []),
      ],
      total: (answers) => {
        const rows = answers[0]?.rows ?? [];
        const current = (row: Record<string, unknown>) => row.current === true;
        return route === 'executions' ? sum(rows, current, 'count') : route === 'mail' ? sum(rows, current, 'entries') : sum(rows, current, 'calls');
      },
    };
  }
  const counting = route === 'executions' ? executionStatements(audience, window) : route === 'mail' ? mailStatements(audience, window) : aiStatements(audience, window);
  return {
    source: 'candidate',
    window: windowStatement(window),
    counting: () => counting,
    total: (answers) => {
      const rows = answers[0]?.rows ?? [];
      if (route === 'executions') return sum(rows, (row) => row.cur === true && row.status === null, 'n');
      if (route === 'mail') return sum(rows, (row) => row.cur === true, 'n');
      return sum(rows, (row) => row.cur === true && Number(row.grouping) === 15, 'calls');
    },
  };
}

/**
 * Indexes the candidates would read by index-only scans (tried by the bench after the schema's own, then
 * dropped): the window's rows of the counted runs, journal entries and usage, with every column the
 * statements read, by time alone (`scope=org`), by member (`scope=me`) and by workflow; the latest incidents.
 */
export const candidateIndexes: { name: string; sql: string }[] = [
  {
    name: 'bench_executions_counted_at',
    sql: `CREATE INDEX bench_executions_counted_at ON executions (created_at) INCLUDE (status, workflow_id, member_id, started_at, finished_at) WHERE NOT simulated AND eval_run_id IS NULL`,
  },
  {
    name: 'bench_executions_counted_member_at',
    sql: `CREATE INDEX bench_executions_counted_member_at ON executions (member_id, created_at) INCLUDE (status, workflow_id, started_at, finished_at) WHERE NOT simulated AND eval_run_id IS NULL`,
  },
  {
    name: 'bench_executions_counted_workflow_at',
    sql: `CREATE INDEX bench_executions_counted_workflow_at ON executions (workflow_id, created_at) INCLUDE (status, member_id, started_at, finished_at) WHERE NOT simulated AND eval_run_id IS NULL`,
  },
  { name: 'bench_incidents_failed_at', sql: `CREATE INDEX bench_incidents_failed_at ON incidents (failed_at DESC, id DESC)` },
  { name: 'bench_journal_at', sql: `CREATE INDEX bench_journal_at ON mail_journal_entries (created_at) INCLUDE (outcome, member_id, mailbox_id)` },
  { name: 'bench_journal_member_at', sql: `CREATE INDEX bench_journal_member_at ON mail_journal_entries (member_id, created_at) INCLUDE (outcome, mailbox_id)` },
];
