/**
 * The evaluation runs domain's queries, always scoped to one member: another member's run is the
 * same 404 `eval.not_found` as an unknown one.
 */
import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client';
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { isUuid } from '../../core/ids';
import type { NotStartedVerdict } from '../../engine';
import { reasonOf } from './present';
import type { EvalRunStatus } from './schemas';

export async function findOwnedRunOrThrow(memberId: string, id: string, tx: Pick<Tx, 'evalRun'> = db()) {
  const row = isUuid(id) ? await tx.evalRun.findFirst({ where: { id: id.toLowerCase(), memberId } }) : null;
  if (!row) throw appError('eval.not_found');
  return row;
}

export function latestRuns(memberId: string, workflowId: string, take: number) {
  return db().evalRun.findMany({ where: { memberId, workflowId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take });
}

/** A run of the workflow still queued or running, if any. */
export function activeRunOf(workflowId: string, tx: Pick<Tx, 'evalRun'>) {
  return tx.evalRun.findFirst({ where: { workflowId, status: { in: ['queued', 'running'] } }, select: { id: true } });
}

export interface CaseMessage {
  id: string;
  subject: string | null;
  fromName: string | null;
  fromEmail: string | null;
}

/**
 * The member's mirrored messages of these mailboxes (empty: every mailbox of the member), newest
 * first, drafts left out; within [from, to) when given.
 */
export function findCaseMessages(tx: Pick<Tx, 'mailMessage'>, memberId: string, mailboxIds: string[], window: { from?: Date; to?: Date }, take: number): Promise<CaseMessage[]> {
  return tx.mailMessage.findMany({
    where: {
      mailbox: { memberId },
      ...(mailboxIds.length > 0 ? { mailboxId: { in: mailboxIds } } : {}),
      draft: false,
      ...(window.from || window.to ? { receivedAt: { ...(window.from ? { gte: window.from } : {}), ...(window.to ? { lt: window.to } : {}) } } : {}),
    },
    orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
    take,
    select: { id: true, subject: true, fromName: true, fromEmail: true },
  });
}

/** Cases are listed in their order (index ascending); the cursor names the last index seen. */
const caseCursorShape = z.object({ i: z.number().int().min(0).max(1_000_000) });

export function encodeCaseCursor(index: number): string {
  return Buffer.from(JSON.stringify({ i: index })).toString('base64url');
}

export function decodeCaseCursor(cursor: string | undefined): number | null {
  if (!cursor) return null;
  try {
    const parsed = caseCursorShape.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data.i : null;
  } catch {
    return null;
  }
}

export interface CaseFilter {
  changed?: boolean;
  outcome?: 'triggered' | 'not_triggered' | 'error' | 'effects';
}

export function findCases(evalRunId: string, filter: CaseFilter, afterIndex: number | null, take: number) {
  const where: Prisma.EvalCaseWhereInput = { evalRunId };
  if (filter.changed !== undefined) where.changed = filter.changed;
  if (filter.outcome === 'triggered') where.triggered = true;
  if (filter.outcome === 'not_triggered') where.triggered = false;
  if (filter.outcome === 'error') where.NOT = { error: { equals: Prisma.DbNull } };
  if (filter.outcome === 'effects') where.NOT = { effects: { equals: [] } };
  if (afterIndex !== null) where.index = { gt: afterIndex };
  return db().evalCase.findMany({ where, orderBy: { index: 'asc' }, take });
}

/**
 * Recomputes a run's counters from its cases (idempotent: whoever finishes cases calls it in the same
 * transaction) and answers the run's progress.
 */
export async function refreshCounters(tx: Pick<Tx, '$queryRaw'>, evalRunId: string) {
  const rows = await tx.$queryRaw<{ workflowId: string; memberId: string; status: string; done: number; total: number }[]>`
    UPDATE eval_runs r
       SET done = c.done, triggered = c.triggered, would_send = c.would_send, would_draft = c.would_draft,
           errors = c.errors, changed = c.changed, updated_at = now()
      FROM (SELECT count(*) FILTER (WHERE status = 'done')::int AS done,
                   count(*) FILTER (WHERE triggered)::int AS triggered,
                   coalesce(sum((SELECT count(*) FROM jsonb_array_elements(effects) e WHERE e->>'kind' = 'mail.send')), 0)::int AS would_send,
                   coalesce(sum((SELECT count(*) FROM jsonb_array_elements(effects) e WHERE e->>'kind' = 'mail.draft')), 0)::int AS would_draft,
                   count(*) FILTER (WHERE error IS NOT NULL)::int AS errors,
                   count(*) FILTER (WHERE changed)::int AS changed
              FROM eval_cases WHERE eval_run_id = ${evalRunId}::uuid) c
     WHERE r.id = ${evalRunId}::uuid
    RETURNING r.workflow_id AS "workflowId", r.member_id AS "memberId", r.status, r.done, r.total`;
  return rows[0] ?? null;
}

/**
 * The known cost (USD) of the model calls of these runs (their simulated executions, both versions),
 * by run id. Reads the member's usage rows since the oldest run's creation (the (member, created_at)
 * index) joined to their executions; unknown costs count 0.
 */
export async function modelCostsOf(memberId: string, runs: readonly { id: string; createdAt: Date; callModels: boolean }[], tx: Pick<Tx, '$queryRaw'> = db()): Promise<Map<string, number>> {
  const calling = runs.filter((run) => run.callModels);
  if (calling.length === 0) return new Map();
  const since = new Date(Math.min(...calling.map((run) => run.createdAt.getTime())));
  const rows = await tx.$queryRaw<{ evalRunId: string; costUsd: number | null }[]>`
    SELECT e.eval_run_id AS "evalRunId", sum(u.cost_usd)::float8 AS "costUsd"
      FROM llm_usage u JOIN executions e ON e.id = u.execution_id
     WHERE u.member_id = ${memberId}::uuid AND u.created_at >= ${since}
       AND e.eval_run_id = ANY(${calling.map((run) => run.id)}::uuid[])
     GROUP BY e.eval_run_id`;
  return new Map(rows.map((row) => [row.evalRunId, Number(row.costUsd ?? 0)]));
}

/**
 * Why the runs' cases were not triggered, grouped by reason (verdict, rule, parameter), the most
 * frequent first, at most `perRun` groups a run, by run id.
 */
export async function reasonCountsOf(runIds: readonly string[], perRun: number, tx: Pick<Tx, '$queryRaw'> = db()) {
  const counts = new Map<string, { verdict: NotStartedVerdict; ruleRef: string | null; param: string | null; count: number }[]>();
  if (runIds.length === 0) return counts;
  const rows = await tx.$queryRaw<{ evalRunId: string; verdict: string; ruleRef: string | null; param: string | null; count: number }[]>`
    SELECT eval_run_id AS "evalRunId", reason->>'verdict' AS verdict, reason->>'ruleRef' AS "ruleRef", reason->>'param' AS param, count(*)::int AS count
      FROM eval_cases
     WHERE eval_run_id = ANY(${[...runIds]}::uuid[]) AND reason IS NOT NULL
     GROUP BY 1, 2, 3, 4
     ORDER BY count DESC, verdict, "ruleRef" NULLS FIRST, param NULLS FIRST`;
  for (const row of rows) {
    const reason = reasonOf({ verdict: row.verdict, ruleRef: row.ruleRef, param: row.param });
    const list = counts.get(row.evalRunId) ?? [];
    if (!reason || list.length >= perRun) continue;
    list.push({ ...reason, count: row.count });
    counts.set(row.evalRunId, list);
  }
  return counts;
}

/** A version of the workflow by id (an evaluation of a chosen version), or null. */
export function findWorkflowVersion(tx: Tx, workflowId: string, versionId: string) {
  return tx.workflowVersion.findFirst({ where: { id: versionId, workflowId } });
}

/** A number-less version: the snapshot of the draft an evaluation runs. */
export function insertDraftSnapshot(tx: Tx, data: Prisma.WorkflowVersionUncheckedCreateInput) {
  return tx.workflowVersion.create({ data });
}

/** The graph of the published version (the `published` baseline). */
export function findVersionGraph(tx: Tx, versionId: string) {
  return tx.workflowVersion.findUnique({ where: { id: versionId }, select: { graph: true } });
}

/** A new run and its cases, in that order. */
export async function insertRunWithCases(tx: Tx, data: Prisma.EvalRunUncheckedCreateInput, cases: Omit<Prisma.EvalCaseCreateManyInput, 'evalRunId'>[]) {
  const run = await tx.evalRun.create({ data });
  await tx.evalCase.createMany({ data: cases.map((item) => ({ evalRunId: run.id, ...item })) });
  return run;
}

/** Locks the run's row (FOR UPDATE) and reads its status: the runner takes it FOR SHARE before it starts a case. */
export async function lockRunStatus(tx: Tx, evalRunId: string): Promise<{ status: EvalRunStatus } | undefined> {
  const [locked] = await tx.$queryRaw<{ status: EvalRunStatus }[]>`SELECT status FROM eval_runs WHERE id = ${evalRunId}::uuid FOR UPDATE`;
  return locked;
}

/** The runs the run's running cases started. */
export function findRunningCaseRuns(tx: Tx, evalRunId: string) {
  return tx.evalCase.findMany({ where: { evalRunId, status: 'running' }, select: { executionId: true, baselineExecutionId: true } });
}

/** The run's pending and running cases end `cancelled`. */
export function cancelOpenCases(tx: Tx, evalRunId: string) {
  return tx.evalCase.updateMany({ where: { evalRunId, status: { in: ['pending', 'running'] } }, data: { status: 'cancelled', finishedAt: new Date() } });
}

export function markRunCancelled(tx: Tx, evalRunId: string) {
  return tx.evalRun.update({ where: { id: evalRunId }, data: { status: 'cancelled', finishedAt: new Date() } });
}

export function findRunOrThrow(tx: Tx, evalRunId: string) {
  return tx.evalRun.findUniqueOrThrow({ where: { id: evalRunId } });
}
