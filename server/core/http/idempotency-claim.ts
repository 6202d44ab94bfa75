/**
 * Taking an Idempotency-Key for a request, shared by the procedures' middleware and the plain routes'
 * pipeline: check the key, claim it, wait (≤ 10 s) while a first request with it is still running.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { appError } from '../errors/app-error';
import { claim, complete, release, type Claim } from './idempotency-store';

export const idempotencyKeyHeader = 'idempotency-key';

const busyWaitMs = 10_000;
const busyPollMs = 100;

export function assertValidIdempotencyKey(key: string): void {
  if (key.length < 1 || key.length > 200) throw appError('idempotency.invalid_key');
}

/** `execute` (run, then complete or release) or `replay`; 409 for a reused key or one still busy. */
export async function claimIdempotencyKey(scope: Parameters<typeof claim>[0]): Promise<Extract<Claim, { kind: 'execute' | 'replay' }>> {
  let decision = await claim(scope);
  for (let waited = 0; decision.kind === 'busy' && waited < busyWaitMs; waited += busyPollMs) {
    await sleep(busyPollMs);
    decision = await claim(scope);
  }
  if (decision.kind === 'reused') throw appError('idempotency.key_reused');
  if (decision.kind === 'busy') throw appError('idempotency.in_progress');
  return decision;
}

/**
 * Ends a claim with the answer given: a 5xx releases the key (the client may retry it anew), any other
 * answer is stored for replay. `unsupported` when the answer cannot be stored (too large, or not JSON:
 * `storable: false`): the caller says so with `Idempotency-Replayed: unsupported`.
 */
export async function settleIdempotencyKey(
  recordId: string,
  answer: { status: number; body: unknown; storable?: boolean },
): Promise<'stored' | 'released' | 'unsupported'> {
  if (answer.status >= 500 || answer.storable === false) {
    await release(recordId);
    return answer.status >= 500 ? 'released' : 'unsupported';
  }
  return (await complete(recordId, answer.status, answer.body)) ? 'stored' : 'unsupported';
}
