/**
 * What every `ai` capability answers the same way (contract/capabilities.ts AiCapability): a simulated
 * call's deterministic outcome, and a provider error as the step's failure (rate_limited → RateLimited,
 * postponed, 60 s when the vendor gave no Retry-After; transient → `ai_call_failed` /
 * `ai_invalid_output` temporary; others permanent). The real capability (server/engine-adapters/ai.ts) and
 * the node tests' vendor capability (nodes/ai/vendor-ai.ts) share them.
 */
import { failureFamily, isAiCallError } from '../../core/ai';
import type { AiCallInput, AiCallOutcome } from './capabilities';
import { fail, NodeFailure, RateLimited } from './failures';

const defaultRateLimitWaitMs = 60_000;

export function simulatedOutcome(input: Pick<AiCallInput, 'simulate'>): AiCallOutcome {
  const answer = input.simulate();
  return { text: answer.text, object: answer.object, toolCalls: [], provider: null, model: null, usage: null, costUsd: null, simulated: true };
}

/** A provider-layer error as the engine's failure (RateLimited is a postponement, not a failure). */
export function aiFailure(error: unknown, now = Date.now()): unknown {
  if (error instanceof NodeFailure || error instanceof RateLimited) return error;
  if (!isAiCallError(error)) return error;
  const details = { code: error.code, provider: error.provider, status: error.status };
  switch (failureFamily(error)) {
    case 'rate_limited':
      return new RateLimited(new Date(now + (error.retryAfterMs ?? defaultRateLimitWaitMs)));
    case 'transient':
      return fail.transient(error.kind === 'invalid_output' ? 'ai_invalid_output' : 'ai_call_failed', { message: error.message, details });
    case 'permanent':
      return fail.permanent('ai_call_failed', { message: error.message, details });
  }
}
