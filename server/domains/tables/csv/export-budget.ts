/**
 * How many CSV exports may stream at once in this process. An export holds a pool connection and an
 * open (read-only) transaction for as long as its client reads, so exports get a budget of their own,
 * below the pool's size: slow readers can never take the connections sign-in and every other route
 * need. Per member (429 `tables.too_many_exports`) and overall (503 `internal.busy`), counted in this
 * process, like the pool they protect.
 */
import { config } from '../../../core/config';
import { poolSize } from '../../../core/db';
import { appError, busyError } from '../../../core/errors/app-error';

const retryAfterSeconds = 5;

const perMember = new Map<string, number>();
let running = 0;

export function exportBudget(): { overall: number; perMember: number } {
  const c = config();
  return { overall: c.TABLES_MAX_EXPORTS ?? Math.max(1, Math.floor(poolSize() / 3)), perMember: c.TABLES_MAX_EXPORTS_PER_MEMBER };
}

/** Exports streaming now in this process (for tests and diagnostics). */
export function runningExports(): { overall: number; byMember: ReadonlyMap<string, number> } {
  return { overall: running, byMember: perMember };
}

/** Takes one export slot for the member, or refuses; the returned function gives it back (once, however often called). */
export function takeExportSlot(memberId: string): () => void {
  const budget = exportBudget();
  const mine = perMember.get(memberId) ?? 0;
  if (mine >= budget.perMember) {
    throw appError('tables.too_many_exports', {
      details: { limit: budget.perMember, retryAfterSeconds },
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
  if (running >= budget.overall) throw busyError(retryAfterSeconds, { reason: 'exports', limit: budget.overall });
  perMember.set(memberId, mine + 1);
  running += 1;
  let given = false;
  return () => {
    if (given) return;
    given = true;
    running -= 1;
    const left = (perMember.get(memberId) ?? 1) - 1;
    if (left > 0) perMember.set(memberId, left);
    else perMember.delete(memberId);
  };
}
