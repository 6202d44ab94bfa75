/**
 * The queries of undoing a run's mailbox changes (./undo/): the run tree's effect records, the undo's
 * claim and progress (`execution_undos`, one row per run), and a workflow's runs in a window.
 */
import { db, type Tx } from '../../core/db';

export interface EffectRecordRow {
  effectKey: string;
  executionId: string;
  nodeId: string;
  kind: string;
  description: string;
  result: unknown;
}

/**
 * The done effect records of a run and of the runs it called (loop iterations and sub-workflow runs,
 * at any depth: a recursive walk of `parent_execution_id`), in the order they were made. At most
 * `limit` rows (the caller asks for one more than it accepts, to tell a run that is too large).
 */
export async function findRunTreeEffects(executionId: string, limit: number, tx: Pick<Tx, '$queryRaw'> = db()): Promise<EffectRecordRow[]> {
  const rows = await tx.$queryRaw<{ effect_key: string; execution_id: string; node_id: string; kind: string; description: string; result: unknown }[]>`
    WITH RECURSIVE tree AS (
      SELECT id FROM executions WHERE id = ${executionId}::uuid
      UNION ALL
      SELECT child.id FROM executions child JOIN tree ON child.parent_execution_id = tree.id
       WHERE child.started_by IN ('loop_iteration', 'sub_workflow'))
    SELECT effect_key, execution_id, node_id, kind, description, result FROM execution_effects
     WHERE execution_id IN (SELECT id FROM tree) AND status = 'done'
     ORDER BY done_at, created_at, effect_key
     LIMIT ${limit}::int`;
  return rows.map((row) => ({ effectKey: row.effect_key, executionId: row.execution_id, nodeId: row.node_id, kind: row.kind, description: row.description, result: row.result }));
}

export interface UndoRow {
  memberId: string;
  apiKeyId: string | null;
  status: string;
  items: unknown;
  sent: unknown;
  claimedAt: Date;
  finishedAt: Date | null;
}

/** A claim older than this belongs to a holder that died: the next call takes it over. */
export const undoClaimLeaseSeconds = 120;

/**
 * Claims the run's undo: a new row, or a `running` one whose holder stopped renewing it. Answers the
 * row as claimed (its `items` are what a previous holder already made), or null when another call
 * holds it or it is done (read it with findUndo). `apiKeyId`: the key the caller acts with (null in
 * the app), kept so the run's page can say how it was undone.
 */
export async function claimUndo(memberId: string, executionId: string, apiKeyId: string | null, tx: Pick<Tx, '$queryRaw'> = db()): Promise<UndoRow | null> {
  const rows = await tx.$queryRaw<{ member_id: string; api_key_id: string | null; status: string; items: unknown; sent: unknown; claimed_at: Date; finished_at: Date | null }[]>`
    INSERT INTO execution_undos (execution_id, member_id, api_key_id) VALUES (${executionId}::uuid, ${memberId}::uuid, ${apiKeyId}::uuid)
    ON CONFLICT (execution_id) DO UPDATE SET claimed_at = now(), api_key_id = EXCLUDED.api_key_id
     WHERE execution_undos.status = 'running' AND execution_undos.claimed_at < now() - make_interval(secs => ${undoClaimLeaseSeconds}::int)
    RETURNING member_id, api_key_id, status, items, sent, claimed_at, finished_at`;
  const row = rows[0];
  return row
    ? { memberId: row.member_id, apiKeyId: row.api_key_id, status: row.status, items: row.items, sent: row.sent, claimedAt: row.claimed_at, finishedAt: row.finished_at }
    : null;
}

const undoRowSelect = { memberId: true, apiKeyId: true, status: true, items: true, sent: true, claimedAt: true, finishedAt: true } as const;

export function findUndo(memberId: string, executionId: string, tx: Pick<Tx, 'executionUndo'> = db()): Promise<UndoRow | null> {
  return tx.executionUndo.findFirst({ where: { executionId, memberId }, select: undoRowSelect });
}

/** One more item made: appended to the progress, and the claim renewed (its heartbeat). */
export async function appendUndoItem(executionId: string, item: object, tx: Pick<Tx, '$executeRaw'> = db()): Promise<void> {
  await tx.$executeRaw`
    UPDATE execution_undos SET items = items || jsonb_build_array(${JSON.stringify(item)}::jsonb), claimed_at = now()
     WHERE execution_id = ${executionId}::uuid AND status = 'running'`;
}

/** The undo done: its answer kept for every later call. */
export function finishUndo(tx: Pick<Tx, 'executionUndo'>, executionId: string, answer: { items: object[]; sent: object[] }) {
  return tx.executionUndo.update({
    where: { executionId },
    data: { status: 'done', items: answer.items, sent: answer.sent, finishedAt: new Date() },
    select: { finishedAt: true },
  });
}

export interface RunToUndo {
  id: string;
  createdAt: Date;
  /** The stored headline of the triggering email (`{subject, fromName, fromEmail}`), when there was one. */
  messageHeadline: unknown;
}

/**
 * The workflow's finished live top-level runs that acted, created in `[from, to)` and not undone yet,
 * newest first (the order a bulk undo takes them in): at most `take`. Served by the index on
 * (workflow_id, created_at desc, id desc).
 */
export async function findRunsToUndo(memberId: string, workflowId: string, window: { from: Date; to: Date }, take: number, tx: Pick<Tx, '$queryRaw'> = db()): Promise<RunToUndo[]> {
  const rows = await tx.$queryRaw<{ id: string; created_at: Date; message_headline: unknown }[]>`
    SELECT e.id, e.created_at, e.message_headline FROM executions e
     WHERE e.workflow_id = ${workflowId}::uuid AND e.member_id = ${memberId}::uuid
       AND e.created_at >= ${window.from} AND e.created_at < ${window.to}
       AND e.simulated = false AND e.eval_run_id IS NULL AND e.parent_execution_id IS NULL AND e.acted = true
       AND e.status IN ('succeeded', 'failed', 'cancelled')
       AND NOT EXISTS (SELECT 1 FROM execution_undos u WHERE u.execution_id = e.id AND u.status = 'done')
     ORDER BY e.created_at DESC, e.id DESC
     LIMIT ${take}::int`;
  return rows.map((row) => ({ id: row.id, createdAt: row.created_at, messageHeadline: row.message_headline }));
}
