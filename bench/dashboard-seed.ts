/**
 * The facts the dashboard counts, for bench/dashboard.ts, made by SQL generate_series in a few statements
 * (secondary indexes of the seeded tables dropped for the load and rebuilt after it, then VACUUM ANALYZE).
 *
 * An organisation of `members` (the first an administrator), 2 mailboxes each and 2 workflows each (20 in
 * all); facts go round-robin over members, so each member holds 1/10 of everything:
 *
 * - `executions`: 85 % succeeded, 8 % failed (with an error object), 3 % cancelled, 2 % waiting, 1 % running,
 *   1 % queued; 5 % test runs (`simulated`), 10 % loop iterations (`started_by = 'loop_iteration'`, depth 1, no
 *   slot); 70 % started by mail (headline, mailbox); durations log-normal (median ≈ 0.7 s, from a few ms to
 *   minutes, at most an hour); one incident per failed run (half acknowledged).
 * - `mail_journal_entries`: dispatched 45 % (each the message of a live mail-triggered run: `executions.message_id`),
 *   unmatched 40 %, guardrail 5 %, excluded_member 6 %, excluded_org 4 %; 30 % `automated` (copied by dispatch
 *   onto the entry: the route reads no `mail_messages`, so none are seeded).
 * - `llm_usage`: 5 models of 4 providers, one of them local (`ollama`, cost null); 5 purposes; 15 % on a
 *   member's own key (`credential_id`); plus the instance's `llm_budgets` row.
 *
 * bench/dashboard.ts runs the load with the seeded tables' triggers off (`withoutTriggers`: the rollups' per-row
 * triggers would turn each bulk INSERT into a million upserts), then fills the rollups with the runner's reconcile
 * over the whole history, as an instance backfilling them would, and prints how long it took.
 *
 * `spread` is when they happened: `year` uniform over the last 365 days, `month` all in the last 30 days (the
 * worst case for `period=30d`). Rows are inserted in time order, as they arrive in production (a window's rows sit
 * together in the heap). `random()` is seeded, so a run is reproducible.
 */
import type pg from 'pg';
import { mailAiRollupTables } from '../server/domains/dashboard/rollups/mail-ai-reconcile';

export type Spread = 'year' | 'month';

export interface DashboardOrg {
  admin: { id: string };
  members: { id: string; name: string }[];
  mailboxes: { id: string; memberId: string }[];
  workflows: { id: string; versionId: string; memberId: string }[];
}

export interface SeedSizes {
  executions: number;
  journal: number;
  usage: number;
}

/** The tables the seed fills; their secondary indexes are dropped for the load. */
export const seededTables = ['executions', 'incidents', 'mail_journal_entries', 'llm_usage'] as const;
/** The dashboard's rollups of those facts: emptied with them (TRUNCATE fires no trigger), refilled by the reconcile. */
export const rollupTables = ['dashboard_run_hours', 'dashboard_run_hour_deltas', 'dashboard_duration_days', 'dashboard_duration_day_deltas', ...mailAiRollupTables];

const spreadDays = (spread: Spread) => (spread === 'year' ? 365 : 30);

/** An instant in the spread, going back from now (random() per row). */
const at = (spread: Spread) => `now() - random() * interval '${spreadDays(spread)} days'`;

export async function seedDashboardFacts(client: pg.Client, org: DashboardOrg, sizes: SeedSizes, spread: Spread): Promise<void> {
  const memberIds = org.members.map((member) => member.id);
  const workflowIds = org.workflows.map((workflow) => workflow.id);
  const versionIds = org.workflows.map((workflow) => workflow.versionId);
  const workflowMembers = org.workflows.map((workflow) => workflow.memberId);
  // Mailboxes in member order, two each: member i owns mailboxes 2i and 2i+1.
  const mailboxIds = org.members.flatMap((member) => org.mailboxes.filter((mailbox) => mailbox.memberId === member.id).map((mailbox) => mailbox.id));
  await client.query('SELECT setseed(0.42)');

  // Executions: workflow j % 20 (2 per member), so member = the workflow's owner.
  await client.query(
    `INSERT INTO executions (id, member_id, workflow_id, workflow_version_id, status, simulated, holds_slot, started_by, call_depth, mailbox_id, message_id,
        message_headline, trigger_type, trigger_node_id, error, working_ms, timeout_ms, created_at, started_at, finished_at, updated_at, acted)
     SELECT gen_random_uuid(), ($4::uuid[])[w], ($2::uuid[])[w], ($3::uuid[])[w], s.status, s.test, NOT (s.test OR s.loop),
            CASE WHEN s.loop THEN 'loop_iteration' END, CASE WHEN s.loop THEN 1 ELSE 0 END,
            CASE WHEN s.mail THEN ($5::uuid[])[1 + 2 * ((w - 1) / 2) + j % 2] END, CASE WHEN s.mail THEN gen_random_uuid() END,
            CASE WHEN s.mail THEN jsonb_build_object('subject', 'Order ' || j, 'fromName', 'Sender ' || j % 2000, 'fromEmail', 'user' || j % 2000 || '@acme.test') END,
            CASE WHEN s.mail THEN 'mail' ELSE 'webhook' END, 'start',
            CASE WHEN s.status = 'failed' THEN jsonb_build_object('code', 'http_error', 'message', 'The server answered 503.', 'nodeId', 'call',
              'kind', 'transient', 'attempts', 3, 'nodeType', 'http.request') END,
            least(s.ms, 3600000)::int, 3600000,
            s.created, s.created + interval '15 milliseconds',
            CASE WHEN s.status IN ('succeeded', 'failed', 'cancelled') THEN s.created + interval '15 milliseconds' + make_interval(secs => least(s.ms, 3600000) / 1000.0) END,
            s.created,
            CASE WHEN s.status IN ('succeeded', 'failed', 'cancelled') THEN random() < 0.9 END
       FROM (SELECT j, 1 + j % $6 AS w, r < 0.7 AS mail, random() < 0.05 AS test, random() < 0.10 AS loop,
                    CASE WHEN r2 < 0.85 THEN 'succeeded' WHEN r2 < 0.93 THEN 'failed' WHEN r2 < 0.96 THEN 'cancelled'
                         WHEN r2 < 0.98 THEN 'waiting' WHEN r2 < 0.99 THEN 'running' ELSE 'queued' END AS status,
                    -- log-normal: median e^6.5 ≈ 665 ms, σ 1.8 (a few ms to many minutes)
                    exp(6.5 + 1.8 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random())) AS ms,
                    created
               FROM (SELECT j, random() AS r, random() AS r2, ${at(spread)} AS created FROM generate_series(0, $1 - 1) AS j) g) s
      ORDER BY s.created`,
    [sizes.executions, workflowIds, versionIds, workflowMembers, mailboxIds, workflowIds.length],
  );
  // One incident per failed run (a test run's failure makes none), half acknowledged.
  await client.query(
    `INSERT INTO incidents (id, member_id, execution_id, workflow_id, workflow_name, mailbox_id, failed_at, error_summary, node_id, node_name, acknowledged_at)
     SELECT gen_random_uuid(), e.member_id, e.id, e.workflow_id, w.name, e.mailbox_id, e.finished_at, 'The server answered 503.', 'call', 'Call the API',
            CASE WHEN random() < 0.5 THEN e.finished_at + interval '1 hour' END
       FROM executions e JOIN workflows w ON w.id = e.workflow_id
      WHERE e.status = 'failed' AND NOT e.simulated AND e.member_id = ANY($1::uuid[])
      ORDER BY e.finished_at`,
    [memberIds],
  );
  // The message journal: 45 % dispatched, each the message of a live mail-triggered run (so a workflow filter
  // finds its messages through executions.message_id), entered 2 s before the run; the rest on the member j % 10's
  // mailboxes.
  await client.query(
    `INSERT INTO mail_journal_entries (id, member_id, mailbox_id, message_id, outcome, rule_ref, automated, created_at)
     WITH dispatched AS (
       SELECT e.member_id, e.mailbox_id, e.message_id, 'dispatched' AS outcome, NULL AS rule_ref, e.created_at - interval '2 seconds' AS created
         FROM executions e
        WHERE e.message_id IS NOT NULL AND NOT e.simulated AND e.started_by IS NULL
          AND random() < 1.1 * $5::float8 / (SELECT greatest(count(*), 1) FROM executions WHERE message_id IS NOT NULL AND NOT simulated AND started_by IS NULL)
        LIMIT $5
     ), other AS (
       SELECT ($2::uuid[])[1 + m] AS member_id, ($3::uuid[])[1 + 2 * m + (j / 10) % 2] AS mailbox_id, gen_random_uuid() AS message_id, outcome,
              CASE WHEN outcome LIKE 'excluded%' THEN 'rule-' || j % 7 END AS rule_ref, created
         FROM (SELECT j, j % $4 AS m, ${at(spread)} AS created,
                      CASE WHEN r < 0.40 / 0.55 THEN 'unmatched' WHEN r < 0.45 / 0.55 THEN 'guardrail'
                           WHEN r < 0.51 / 0.55 THEN 'excluded_member' ELSE 'excluded_org' END AS outcome
                 FROM (SELECT j, random() AS r FROM generate_series(0, $1 - (SELECT count(*) FROM dispatched) - 1) AS j) g) o
     )
     SELECT gen_random_uuid(), member_id, mailbox_id, message_id, outcome, rule_ref, random() < 0.30, created
       FROM (SELECT * FROM dispatched UNION ALL SELECT * FROM other) entries
      ORDER BY created`,
    [sizes.journal, memberIds, mailboxIds, memberIds.length, Math.round(sizes.journal * 0.45)],
  );
  // AI usage: model by weight, cost from tokens (null for the local model), 15 % on a member's own key.
  await client.query(
    `INSERT INTO llm_usage (id, connection_id, credential_id, provider, model, purpose, member_id, workflow_id, execution_id, step_id,
        input_tokens, output_tokens, reasoning_tokens, cost_usd, created_at)
     SELECT gen_random_uuid(), NULL, CASE WHEN u.own THEN gen_random_uuid() END, u.provider, u.model, u.purpose, ($2::uuid[])[1 + u.m],
            CASE WHEN u.purpose IN ('classify', 'draft', 'extract') THEN ($3::uuid[])[1 + 2 * u.m + u.j % 2] END, NULL, NULL,
            u.input, u.output, CASE WHEN u.model = 'o4-mini' THEN u.output * 2 ELSE 0 END,
            CASE WHEN u.provider = 'ollama' THEN NULL ELSE (u.input * u.inPrice + u.output * u.outPrice) / 1e6 END, u.created
       FROM (SELECT j, j % $4 AS m, random() < 0.15 AS own, ${at(spread)} AS created,
                    (ARRAY['classify','classify','draft','extract','assistant','analyzer'])[1 + (j / 10) % 6] AS purpose,
                    (300 + random() * 3000)::int AS input, (20 + random() * 800)::int AS output,
                    CASE WHEN r < 0.40 THEN 'openai' WHEN r < 0.65 THEN 'anthropic' WHEN r < 0.80 THEN 'openai' WHEN r < 0.90 THEN 'mistral' ELSE 'ollama' END AS provider,
                    CASE WHEN r < 0.40 THEN 'gpt-4o-mini' WHEN r < 0.65 THEN 'claude-sonnet-4' WHEN r < 0.80 THEN 'o4-mini' WHEN r < 0.90 THEN 'mistral-small' ELSE 'llama3.1:8b' END AS model,
                    CASE WHEN r < 0.40 THEN 0.15 WHEN r < 0.65 THEN 3 WHEN r < 0.80 THEN 1.1 WHEN r < 0.90 THEN 0.2 ELSE 0 END AS inPrice,
                    CASE WHEN r < 0.40 THEN 0.6 WHEN r < 0.65 THEN 15 WHEN r < 0.80 THEN 4.4 WHEN r < 0.90 THEN 0.6 ELSE 0 END AS outPrice
               FROM (SELECT j, random() AS r FROM generate_series(0, $1 - 1) AS j) g) u
      ORDER BY u.created`,
    [sizes.usage, memberIds, workflowIds, memberIds.length],
  );
  await client.query(
    `INSERT INTO llm_budgets (id, instance_monthly_usd, member_monthly_usd, updated_at) VALUES ('instance', 500, 50, now())
     ON CONFLICT (id) DO UPDATE SET instance_monthly_usd = 500, member_monthly_usd = 50`,
  );
}

/** Runs `load` with the seeded tables' own triggers disabled (the rollups' triggers), enabled again after it. */
export async function withoutTriggers(client: pg.Client, load: () => Promise<void>): Promise<void> {
  for (const table of seededTables) await client.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
  try {
    await load();
  } finally {
    for (const table of seededTables) await client.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
  }
}

/** Secondary indexes of the seeded tables, to drop before the load and rebuild after it. */
export async function dashboardIndexes(client: pg.Client): Promise<{ name: string; definition: string }[]> {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
      WHERE tablename = ANY($1::text[]) AND indexname NOT LIKE '%_pkey'`,
    [seededTables],
  );
  return rows;
}

/**
 * Empties the seeded tables and their rollups (earlier sections' rows, or the other spread's), and with CASCADE
 * every table that points at them (steps, effects, review items: whatever the schema adds), which TRUNCATE would
 * otherwise refuse.
 */
export async function clearDashboardFacts(client: pg.Client): Promise<void> {
  // Two statements: the journal's and usage's TRUNCATE triggers empty their rollups themselves, and PostgreSQL
  // refuses a trigger's TRUNCATE of a table the same statement is truncating.
  await client.query(`TRUNCATE ${rollupTables.join(', ')}`);
  await client.query(`TRUNCATE ${seededTables.join(', ')} CASCADE`);
}
