/**
 * When a failed outbox item is tried again: exponential from 5 seconds, doubling per failed attempt, capped at
 * 15 minutes, with jitter (a random point in the upper half of the delay) so instances that lost their operator at
 * the same moment do not all come back at the same second. Never gives up: a member's message is never dropped.
 */
export const BACKOFF_BASE_MS = 5_000;
export const BACKOFF_CAP_MS = 15 * 60_000;

/** `attempts`: failed attempts so far, this one included (1 after the first failure). `random` in [0, 1). */
export function retryDelayMs(attempts: number, random: number): number {
  const exponent = Math.min(Math.max(attempts, 1) - 1, 30);
  const delay = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** exponent);
  const share = 0.5 + 0.5 * Math.min(Math.max(random, 0), 1);
  return Math.round(delay * share);
}
