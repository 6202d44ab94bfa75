/**
 * Retry settings and backoff (spec, Run failure handling). Settings come from the first level that
 * sets them: the node, then the node type, then the built-in defaults. Delays double up to 15
 * minutes with randomness; a test run cuts every delay to 2 seconds. Only temporary failures retry;
 * the attempts count includes the first attempt.
 */
import type { RetryDefaults } from '../contract/define-node';
import { builtInRetry, engineBounds } from '../contract/limits';

export interface NodeRetrySettings {
  retry?: { maxAttempts: number; delayMs: number };
  timeoutMs?: number;
}

export function retrySettingsOf(node: NodeRetrySettings, nodeType: Partial<RetryDefaults> | undefined): RetryDefaults {
  return {
    maxAttempts: node.retry?.maxAttempts ?? nodeType?.maxAttempts ?? builtInRetry.maxAttempts,
    delayMs: node.retry?.delayMs ?? nodeType?.delayMs ?? builtInRetry.delayMs,
    timeoutMs: node.timeoutMs ?? nodeType?.timeoutMs ?? builtInRetry.timeoutMs,
  };
}

/**
 * The delay before attempt `failedAttempt + 1`: `delayMs × 2^(failedAttempt-1)`, capped at 15
 * minutes, then spread by ±20 % (`random` in [0, 1)) so runs failing together do not retry together.
 */
export function retryDelayMs(settings: Pick<RetryDefaults, 'delayMs'>, failedAttempt: number, options: { simulated: boolean; random?: number }): number {
  if (options.simulated) return engineBounds.testRunDelayMs;
  const exponent = Math.min(Math.max(failedAttempt - 1, 0), 30);
  const base = Math.min(settings.delayMs * 2 ** exponent, engineBounds.maxBackoffMs);
  const spread = 0.8 + 0.4 * (options.random ?? Math.random());
  return Math.min(Math.round(base * spread), engineBounds.maxBackoffMs);
}

export function shouldRetry(kind: 'transient' | 'permanent', attempt: number, settings: Pick<RetryDefaults, 'maxAttempts'>): boolean {
  return kind === 'transient' && attempt < settings.maxAttempts;
}
