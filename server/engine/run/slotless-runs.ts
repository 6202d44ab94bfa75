/**
 * The cap on a member's live runs that hold no slot (issue 18: runaway recursion). Slots bound
 * top-level live runs only; sub-workflow runs, loop iterations, test runs and evaluation runs take
 * none, so without this one member's fan-out (a loop of loops) could fill the job queue for everyone.
 * MEMBER_MAX_SLOTLESS_RUNS (default 500) counts the member's queued, running and waiting runs with
 * `holds_slot` false; every start of one counts them under a per-member advisory lock held to the end
 * of the starting transaction, so two runners at the boundary never both pass.
 *
 * Beyond the cap:
 * - a step starting called runs is postponed like a provider rate limit (no attempt consumed) and
 *   tries again, every 2-30 s, until room frees: leaves of the member's trees keep finishing, so a
 *   busy member is slowed, not failed (a loop's window is at most 20 wide, far below the default);
 * - a step that found no room for MEMBER_SLOTLESS_WAIT_SECONDS (default 600) in a row fails
 *   `member_run_limit` (permanent; its `onError` applies). This breaks the one deadlock the cap can
 *   make: every live run of the member waiting to start a child while none can finish. The wait is
 *   measured from a marker in the step's effect store, removed when a start passes;
 * - a test run is refused at once (409 `workflow.run_limit_reached`): a person is there to retry;
 * - an evaluation case waits in `pending` until room frees (server/domains/eval-runs/drive.ts).
 */
import { config } from '../../core/config';
import { db, type Tx } from '../../core/db';
import { effectKeyOf } from './effects';
import { fail, RateLimited } from '../contract/failures';

/** Namespace (first key) of the per-member advisory lock on starts of slot-less runs. */
const memberStartsLock = 80_417_002;

export function slotlessRunLimit(): number {
  return config().MEMBER_MAX_SLOTLESS_RUNS;
}

/**
 * Takes the member's start lock for the rest of the caller's transaction and answers whether `count`
 * more slot-less runs fit under the cap. The caller starts them in the same transaction.
 */
export async function roomForSlotlessRuns(tx: Pick<Tx, '$executeRaw' | '$queryRaw'>, memberId: string, count = 1): Promise<boolean> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${memberStartsLock}::int, hashtext(${memberId}::text))`;
  const [row] = await tx.$queryRaw<{ live: bigint }[]>`
    SELECT count(*) AS live FROM executions
    WHERE member_id = ${memberId}::uuid AND holds_slot = false AND status IN ('queued', 'running', 'waiting')`;
  return Number(row.live) + count <= slotlessRunLimit();
}

const markerOf = (executionId: string, nodeId: string) => effectKeyOf(executionId, nodeId, 'member-run-limit');

/**
 * The step found no room: throws the postponement (`RateLimited`, no attempt consumed), or the
 * permanent `member_run_limit` once the step has found no room for longer than the bound.
 */
export async function postponeForRoom(step: { executionId: string; nodeId: string }): Promise<never> {
  const effectKey = markerOf(step.executionId, step.nodeId);
  // The database's clock for both ends of the wait: runners' clocks may differ.
  const [marker] = await db().$queryRaw<{ waited_ms: number }[]>`
    WITH inserted AS (
      INSERT INTO execution_effects (effect_key, execution_id, node_id, kind, description)
      VALUES (${effectKey}, ${step.executionId}::uuid, ${step.nodeId}, 'member_run_limit', 'Waiting for room under the member’s cap on runs holding no slot')
      ON CONFLICT (effect_key) DO NOTHING RETURNING created_at)
    SELECT (extract(epoch FROM now() - coalesce((SELECT created_at FROM inserted), (SELECT created_at FROM execution_effects WHERE effect_key = ${effectKey}))) * 1000)::float8 AS waited_ms`;
  const waitedMs = Math.max(0, Number(marker?.waited_ms ?? 0));
  const { MEMBER_SLOTLESS_WAIT_SECONDS: boundSeconds } = config();
  if (waitedMs > boundSeconds * 1000) {
    throw fail.permanent('member_run_limit', { details: { limit: slotlessRunLimit(), waitedSeconds: Math.round(waitedMs / 1000) } });
  }
  // Sooner at first, then less often: a member held at the cap for long is not polled hard.
  const delayMs = Math.min(30_000, 2_000 + waitedMs / 10) * (0.8 + Math.random() * 0.4);
  throw new RateLimited(new Date(Date.now() + delayMs), 'Your runs holding no slot are at their limit: the step starts its run when one of them ends.');
}

/** A start passed: the step's next wait for room is measured afresh. */
export async function roomFound(step: { executionId: string; nodeId: string }): Promise<void> {
  await db().executionEffect.deleteMany({ where: { effectKey: markerOf(step.executionId, step.nodeId) } });
}
