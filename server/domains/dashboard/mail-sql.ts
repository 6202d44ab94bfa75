/**
 * The mail dashboard's statements, built as plain `{text, values}` so the route and the bench (bare
 * pg) run the very same SQL. Two statements, run in parallel:
 *
 * 1. The message journal over `[previousFrom, to)`: entries grouped by period, bucket (window only)
 *    and outcome, with the automated ones counted alongside (`automated`, copied from the message's
 *    ingest signals when dispatch writes the entry: dispatch-mail.ts `isAutomatedMail`), so the
 *    statement reads the journal alone.
 * 2. Outbound messages made by workflow runs: drafts by creation time, sends by delivery time.
 *
 * The journal is read from its hourly rollup `dashboard_journal_hours` (kept by a trigger on the journal, reconciled
 * by the runner: rollups/mail-ai-reconcile.ts) for the window's whole UTC hours, and raw for the rest (hours.ts:
 * the partial hours at the edges and the hours a bucket start cuts), grouped the same way, so the answer is the
 * raw statement's (`mailFiguresRawSql`, kept for the agreement test and the bench's "before").
 * The `workflowId` filter reads raw: "the message started a real run of the workflow" is a fact about runs that
 * can be added long after the entry (a replay), which no journal rollup can hold. It starts from the workflow's
 * runs since the period began and looks each message's entry up by its unique `message_id` (journalOfWorkflowSql):
 * the workflow's size, not the organisation's. (The raw statement's EXISTS let the planner hash the runs and read
 * every entry of the window instead: 500,000 for a workflow's 2,400 runs over a busy month, bench/dashboard.ts.)
 * Outbound stays raw: only a workflow's drafts and sends are counted, each a reply to some of the dispatched mail
 * (far fewer rows than the journal), read through the `created_at`/`sent_at` indexes; the bench seeds none, and
 * at the sizes it is not the cost.
 */
import type { DashboardAudience } from './audience';
import { inRawRanges, inRolledHours, splitByHours } from './hours';
import { SqlParams, type SqlStatement } from './sql';
import type { DashboardWindow } from './window';


export function mailFiguresSql(window: DashboardWindow, audience: DashboardAudience): SqlStatement[] {
  return [audience.workflowId ? journalOfWorkflowSql(window, audience, audience.workflowId) : journalRolledSql(window, audience), outboundSql(window, audience)];
}

/** The same figures from raw rows only: the agreement test's reference and the bench's "before". */
export function mailFiguresRawSql(window: DashboardWindow, audience: DashboardAudience): SqlStatement[] {
  return [journalRawSql(window, audience), outboundSql(window, audience)];
}

/** The journal statement's rows (same columns, same groups) from the rollup's whole hours and raw rows elsewhere. */
function journalRolledSql(window: DashboardWindow, audience: DashboardAudience): SqlStatement {
  const p = new SqlParams();
  const split = splitByHours(window);
  const from = p.add(window.from, 'timestamptz');
  const bucket = p.add(window.bucket, 'text');
  const tz = p.add(window.tz, 'text');
  const filters = (alias: string) => [
    ...(audience.memberId ? [`${alias}.member_id = ${p.add(audience.memberId, 'uuid')}`] : []),
    ...(audience.mailboxId ? [`${alias}.mailbox_id = ${p.add(audience.mailboxId, 'uuid')}`] : []),
  ];
  // A rollup row at 0 (its entries deleted or moved) is no group: the raw statement has none.
  const rolled = [inRolledHours(p, 'h.hour', split), 'h.entries <> 0', ...filters('h')];
  const raw = [inRawRanges(p, 'j.created_at', split), ...filters('j')];
  return {
    text: `SELECT current, start, outcome, sum(entries)::int AS entries, sum(automated)::int AS automated
  FROM (SELECT (h.hour >= ${from}) AS current,
               CASE WHEN h.hour >= ${from} THEN date_trunc(${bucket}, h.hour, ${tz}) END AS start,
               h.outcome, h.entries, h.automated
          FROM dashboard_journal_hours h
         WHERE ${rolled.join(' AND ')}
        UNION ALL
        SELECT (j.created_at >= ${from}) AS current,
               CASE WHEN j.created_at >= ${from} THEN date_trunc(${bucket}, j.created_at, ${tz}) END AS start,
               j.outcome, 1, j.automated::int
          FROM mail_journal_entries j
         WHERE ${raw.join(' AND ')}) f
 GROUP BY 1, 2, 3`,
    values: p.values,
  };
}

/**
 * The journal rows of the messages that started a real run of the workflow, driven by the runs: the workflow's
 * live runs since `previousFrom` (a day to spare: dispatch journals a message before starting its runs, a replay
 * comes later still), one lookup per message in the journal's `message_id` index. The LATERAL with LIMIT 1 (a
 * message has one entry) keeps the planner from flattening it into a join it could hash over the whole window.
 * DISTINCT: a message that started several runs of the workflow (a replay) counts once, as with EXISTS.
 */
function journalOfWorkflowSql(window: DashboardWindow, audience: DashboardAudience, workflowId: string): SqlStatement {
  const p = new SqlParams();
  const from = p.add(window.from, 'timestamptz');
  const previousFrom = p.add(window.previousFrom, 'timestamptz');
  const where = [`j.created_at >= ${previousFrom}`, `j.created_at < ${p.add(window.to, 'timestamptz')}`];
  if (audience.memberId) where.push(`j.member_id = ${p.add(audience.memberId, 'uuid')}`);
  if (audience.mailboxId) where.push(`j.mailbox_id = ${p.add(audience.mailboxId, 'uuid')}`);
  // The counted runs' predicate, as the covering index `executions_dashboard_workflow_created_at_idx` states it, so
  // the runs are read by index only. Leaving loop iterations out changes no answer: runs started by a step
  // (iterations, sub-workflow runs) carry no message (engine/run/children.ts).
  const runs = `SELECT DISTINCT e.message_id FROM executions e
         WHERE e.workflow_id = ${p.add(workflowId, 'uuid')} AND e.simulated = false AND e.eval_run_id IS NULL
           AND e.started_by IS DISTINCT FROM 'loop_iteration'
           AND e.message_id IS NOT NULL AND e.created_at >= ${previousFrom} - interval '1 day'`;
  const bucket = p.add(window.bucket, 'text');
  const tz = p.add(window.tz, 'text');
  return {
    text: `${journalEntriesSelect(from, bucket, tz)}
  FROM (${runs}) r
  CROSS JOIN LATERAL (SELECT j.created_at, j.member_id, j.mailbox_id, j.outcome, j.automated
                        FROM mail_journal_entries j WHERE j.message_id = r.message_id LIMIT 1) j
 WHERE ${where.join(' AND ')}
 GROUP BY 1, 2, 3`,
    values: p.values,
  };
}

/** The raw journal statements' select list over entries `j`: period, bucket start, outcome, counts (grouped by 1, 2, 3). */
function journalEntriesSelect(from: string, bucket: string, tz: string): string {
  return `SELECT (j.created_at >= ${from}) AS current,
       CASE WHEN j.created_at >= ${from} THEN date_trunc(${bucket}, j.created_at, ${tz}) END AS start,
       j.outcome,
       count(*)::int AS entries,
       count(*) FILTER (WHERE j.automated)::int AS automated`;
}

function journalRawSql(window: DashboardWindow, audience: DashboardAudience): SqlStatement {
  const p = new SqlParams();
  const from = p.add(window.from, 'timestamptz');
  const where = [`j.created_at >= ${p.add(window.previousFrom, 'timestamptz')}`, `j.created_at < ${p.add(window.to, 'timestamptz')}`];
  if (audience.memberId) where.push(`j.member_id = ${p.add(audience.memberId, 'uuid')}`);
  if (audience.mailboxId) where.push(`j.mailbox_id = ${p.add(audience.mailboxId, 'uuid')}`);
  if (audience.workflowId) {
    // Messages that started a real run of the workflow (not a test or evaluation run). Dispatch journals a
    // message before it starts the message's runs (a replay comes later still), so a counted entry's runs
    // were created after `previousFrom`; the bound (with a day to spare) lets the workflow's
    // (workflow_id, created_at) index keep the window's runs instead of hashing all of the workflow's history
    // (bench/dashboard.ts: 50,000 runs read for 3,500 over a year).
    where.push(
      `EXISTS (SELECT 1 FROM executions e WHERE e.message_id = j.message_id AND e.workflow_id = ${p.add(audience.workflowId, 'uuid')} AND NOT e.simulated AND e.eval_run_id IS NULL AND e.created_at >= ${p.add(window.previousFrom, 'timestamptz')} - interval '1 day')`,
    );
  }
  const bucket = p.add(window.bucket, 'text');
  const tz = p.add(window.tz, 'text');
  return {
    text: `${journalEntriesSelect(from, bucket, tz)}
  FROM mail_journal_entries j
 WHERE ${where.join(' AND ')}
 GROUP BY 1, 2, 3`,
    values: p.values,
  };
}

function outboundSql(window: DashboardWindow, audience: DashboardAudience): SqlStatement {
  const p = new SqlParams();
  const previousFrom = p.add(window.previousFrom, 'timestamptz');
  const from = p.add(window.from, 'timestamptz');
  const to = p.add(window.to, 'timestamptz');
  const where = [`o.origin = 'workflow'`, `((o.mode = 'draft' AND o.created_at >= ${previousFrom} AND o.created_at < ${to}) OR (o.mode = 'send' AND o.sent_at >= ${previousFrom} AND o.sent_at < ${to}))`];
  if (audience.memberId) where.push(`o.member_id = ${p.add(audience.memberId, 'uuid')}`);
  if (audience.mailboxId) where.push(`o.mailbox_id = ${p.add(audience.mailboxId, 'uuid')}`);
  if (audience.workflowId) where.push(`o.workflow_id = ${p.add(audience.workflowId, 'uuid')}`);
  return {
    text: `SELECT count(*) FILTER (WHERE o.mode = 'draft' AND o.created_at >= ${from})::int AS drafts_current,
       count(*) FILTER (WHERE o.mode = 'draft' AND o.created_at < ${from})::int AS drafts_previous,
       count(*) FILTER (WHERE o.mode = 'send' AND o.sent_at >= ${from})::int AS sent_current,
       count(*) FILTER (WHERE o.mode = 'send' AND o.sent_at < ${from})::int AS sent_previous
  FROM outbound_messages o
 WHERE ${where.join(' AND ')}`,
    values: p.values,
  };
}
