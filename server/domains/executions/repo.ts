/**
 * The executions domain's queries, always scoped to one member. Lists are keyset-paginated on the
 * indexes of the schema: (member_id, created_at desc, id desc) for executions, (member_id, failed_at
 * desc, id desc) for incidents. Filters are bound parameters, never text spliced into SQL.
 */
import { z } from 'zod';
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import type { CursorPosition } from '../../core/http/cursor';
import { isoDateTimeInput } from '../../core/http/schemas';
import { executionListSelect, type ExecutionRow } from './present';

type Reader = Pick<Tx, 'execution' | 'executionStep' | 'workflow' | 'incident' | 'mailbox' | '$queryRawUnsafe'>;

/** Collects bound parameters: `param(value)` answers its placeholder (`$n`). */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** `q` as a LIKE pattern matching itself literally anywhere. */
function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export interface ExecutionFilter {
  workflowId?: string;
  mailboxId?: string;
  status?: string;
  simulated?: boolean;
  /** The stored `acted` flag (finished runs only): index (member_id, acted, created_at desc, id desc). */
  acted?: boolean;
  q?: string;
  /** false: no loop iterations (`started_by = 'loop_iteration'`); true: loop iterations only. */
  loopIterations?: boolean;
  /** `created_at` in `[from, to)`: the dashboard's drill-down window. */
  from?: Date;
  to?: Date;
}

/** Loads list-form rows by id, in the order of `ids`. */
async function rowsInOrder(ids: string[], tx: Reader = db()): Promise<ExecutionRow[]> {
  if (ids.length === 0) return [];
  const rows = await tx.execution.findMany({ where: { id: { in: ids } }, select: executionListSelect });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Newest first, strictly after `after`; `take` rows at most. */
export async function findExecutions(memberId: string, filter: ExecutionFilter, after: CursorPosition | null, take: number): Promise<ExecutionRow[]> {
  const params = new Params();
  // Runs of evaluation runs are read through their evaluation, never listed here.
  const where = [`member_id = ${params.add(memberId)}::uuid`, 'eval_run_id IS NULL'];
  if (filter.workflowId) where.push(`workflow_id = ${params.add(filter.workflowId)}::uuid`);
  if (filter.mailboxId) where.push(`mailbox_id = ${params.add(filter.mailboxId)}::uuid`);
  if (filter.status) where.push(`status = ${params.add(filter.status)}`);
  if (filter.simulated !== undefined) where.push(`simulated = ${params.add(filter.simulated)}`);
  if (filter.acted !== undefined) where.push(`acted = ${params.add(filter.acted)}`);
  if (filter.loopIterations === false) where.push("started_by IS DISTINCT FROM 'loop_iteration'");
  if (filter.loopIterations === true) where.push("started_by = 'loop_iteration'");
  if (filter.from) where.push(`created_at >= ${params.add(filter.from)}::timestamptz`);
  if (filter.to) where.push(`created_at < ${params.add(filter.to)}::timestamptz`);
  if (filter.q) {
    const pattern = params.add(containsPattern(filter.q));
    where.push(
      `(message_headline->>'subject' ILIKE ${pattern} OR message_headline->>'fromEmail' ILIKE ${pattern} OR message_headline->>'fromName' ILIKE ${pattern})`,
    );
  }
  if (after) {
    const at = params.add(after.at);
    where.push(`(created_at, id) < (${at}::timestamptz, ${params.add(after.id)}::uuid)`);
  }
  const limit = params.add(take);
  const rows = await db().$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM executions WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ${limit}::int`,
    ...params.values,
  );
  return rowsInOrder(rows.map((row) => row.id));
}

/** Position in the waiting list (deadline ascending, no deadline last, then id). */
export interface WaitingPosition {
  waitUntil: Date | null;
  id: string;
}

const waitingCursorShape = z.object({ w: isoDateTimeInput.nullable(), i: z.uuid() });

export function encodeWaitingCursor(position: WaitingPosition): string {
  return Buffer.from(JSON.stringify({ w: position.waitUntil?.toISOString() ?? null, i: position.id })).toString('base64url');
}

export function decodeWaitingCursor(cursor: string | undefined): WaitingPosition | null {
  if (!cursor) return null;
  try {
    const parsed = waitingCursorShape.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    if (!parsed.success) return null;
    return { waitUntil: parsed.data.w === null ? null : new Date(parsed.data.w), id: parsed.data.i };
  } catch {
    return null;
  }
}

export async function findWaiting(memberId: string, after: WaitingPosition | null, take: number) {
  const params = new Params();
  const where = [`member_id = ${params.add(memberId)}::uuid`, `status = 'waiting'`, 'eval_run_id IS NULL'];
  if (after) {
    const id = params.add(after.id);
    if (after.waitUntil) {
      const at = params.add(after.waitUntil);
      where.push(`(wait_until > ${at}::timestamptz OR (wait_until = ${at}::timestamptz AND id > ${id}::uuid) OR wait_until IS NULL)`);
    } else {
      where.push(`(wait_until IS NULL AND id > ${id}::uuid)`);
    }
  }
  const limit = params.add(take);
  const found = await db().$queryRawUnsafe<{ id: string; wait_until: Date | null }[]>(
    `SELECT id, wait_until FROM executions WHERE ${where.join(' AND ')} ORDER BY wait_until ASC NULLS LAST, id ASC LIMIT ${limit}::int`,
    ...params.values,
  );
  const rows = await rowsInOrder(found.map((row) => row.id));
  const waitUntilById = new Map(found.map((row) => [row.id, row.wait_until]));
  return rows.map((row) => ({ row, waitUntil: waitUntilById.get(row.id) ?? null }));
}

/** The member's execution; another member's is 404 `execution.not_found`, never 403. */
export async function findOwnedExecutionOrThrow(memberId: string, id: string, tx: Reader = db()) {
  const row = await tx.execution.findFirst({ where: { id, memberId } });
  if (!row) throw appError('execution.not_found');
  return row;
}

export function findSteps(executionId: string, tx: Reader = db()) {
  return tx.executionStep.findMany({
    where: { executionId },
    orderBy: [{ seq: 'asc' }, { startedAt: { sort: 'asc', nulls: 'last' } }, { id: 'asc' }],
  });
}

/** The member's workflow (archived included); another member's is 404 `workflow.not_found`. */
export async function findOwnedWorkflowOrThrow(memberId: string, id: string, tx: Reader = db()) {
  const row = await tx.workflow.findFirst({ where: { id, memberId } });
  if (!row) throw appError('workflow.not_found');
  return row;
}

export async function memberOwnsMailbox(memberId: string, mailboxId: string): Promise<boolean> {
  return (await db().mailbox.count({ where: { id: mailboxId, memberId } })) > 0;
}

export interface SummaryCounts {
  workflowId: string;
  name: string | null;
  total: number;
  failed: number;
  inProgress: number;
  succeeded: number;
  lastFailedAt: Date | null;
}

/** Live runs created since `since`, counted per workflow (name null when the workflow was deleted). */
export function summaryByWorkflow(memberId: string, since: Date): Promise<SummaryCounts[]> {
  return db().$queryRawUnsafe<SummaryCounts[]>(
    `SELECT e.workflow_id AS "workflowId", w.name AS "name",
            count(*)::int AS "total",
            count(*) FILTER (WHERE e.status = 'failed')::int AS "failed",
            count(*) FILTER (WHERE e.status IN ('queued', 'running', 'waiting'))::int AS "inProgress",
            count(*) FILTER (WHERE e.status = 'succeeded')::int AS "succeeded",
            max(coalesce(e.finished_at, e.created_at)) FILTER (WHERE e.status = 'failed') AS "lastFailedAt"
       FROM executions e LEFT JOIN workflows w ON w.id = e.workflow_id
      WHERE e.member_id = $1::uuid AND e.simulated = false AND e.eval_run_id IS NULL AND e.created_at >= $2::timestamptz
      GROUP BY e.workflow_id, w.name`,
    memberId,
    since,
  );
}

export function findIncidents(memberId: string, filter: { since?: Date; unacknowledged: boolean }, after: CursorPosition | null, take: number) {
  return db().incident.findMany({
    where: {
      memberId,
      ...(filter.since ? { failedAt: { gte: filter.since } } : {}),
      ...(filter.unacknowledged ? { acknowledgedAt: null } : {}),
      ...(after ? { OR: [{ failedAt: { lt: after.at } }, { failedAt: after.at, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ failedAt: 'desc' }, { id: 'desc' }],
    take,
  });
}

/** The name of the member's workflow (a run's detail shows it), or null. */
export function findOwnedWorkflowName(memberId: string, workflowId: string) {
  return db().workflow.findFirst({ where: { id: workflowId, memberId }, select: { name: true } });
}

/** Acknowledges the member's incident unless it is already (the first instant is kept). */
export function markIncidentAcknowledged(memberId: string, id: string) {
  return db().incident.updateMany({ where: { id, memberId, acknowledgedAt: null }, data: { acknowledgedAt: new Date() } });
}

/** When the member's incident was acknowledged; null when it is not one of theirs. */
export function findIncidentAcknowledgement(memberId: string, id: string) {
  return db().incident.findFirst({ where: { id, memberId }, select: { acknowledgedAt: true } });
}

/** The graph of a workflow version (a replay's scopes are checked on it). */
export function findVersionGraph(versionId: string) {
  return db().workflowVersion.findUnique({ where: { id: versionId }, select: { graph: true } });
}
