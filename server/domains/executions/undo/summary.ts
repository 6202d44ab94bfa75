/**
 * The undo summary a run's detail carries (GET /api/v1/executions/{id}): what its `execution_undos` row
 * says, so the run's page shows "Undone on …" after a reload without asking the undo routes (which
 * check scopes and plan again). Null when the run was never undone.
 */
import type { z } from 'zod';
import { iso } from '../../../core/http/schemas';
import { findUndo, undoClaimLeaseSeconds, type UndoRow } from '../repo-undo';
import type { executionUndoSummarySchema } from './schemas';

export type ExecutionUndoSummary = z.infer<typeof executionUndoSummarySchema>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The stored items' statuses counted (items are appended as made: a running undo's count so far). */
function countsOf(row: Pick<UndoRow, 'items' | 'sent'>): ExecutionUndoSummary['counts'] {
  const items = Array.isArray(row.items) ? row.items.filter(isObject) : [];
  const count = (status: string) => items.filter((item) => item.status === status).length;
  return { undone: count('undone'), skipped: count('skipped'), failed: count('failed'), sent: Array.isArray(row.sent) ? row.sent.length : 0 };
}

/** A `running` row whose holder stopped renewing it: the undo stopped, and the next call takes it over. */
function statusOf(row: Pick<UndoRow, 'status' | 'claimedAt'>, now: Date): ExecutionUndoSummary['status'] {
  if (row.status === 'done') return 'done';
  return now.getTime() - row.claimedAt.getTime() > undoClaimLeaseSeconds * 1000 ? 'interrupted' : 'running';
}

export function presentUndoSummary(row: UndoRow, now = new Date()): ExecutionUndoSummary {
  const status = statusOf(row, now);
  return {
    status,
    undoneAt: status === 'done' ? iso(row.finishedAt ?? row.claimedAt) : null,
    by: { memberId: row.memberId, apiKeyId: row.apiKeyId },
    counts: countsOf(row),
  };
}

export async function findUndoSummary(memberId: string, executionId: string): Promise<ExecutionUndoSummary | null> {
  const row = await findUndo(memberId, executionId);
  return row ? presentUndoSummary(row) : null;
}
