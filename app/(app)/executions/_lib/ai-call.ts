/**
 * The model call an AI step made, as the run's page summarises it: the node's result data keeps the
 * call under `ai` (server/engine/nodes/ai/shared.ts `resultData`: provider, model, simulated, usage,
 * costUsd) and the cost again as `costUsd`. Anything that is not such a record answers null.
 */
export interface AiCallSummary {
  model: string | null;
  simulated: boolean;
  inputTokens: number | null;
  outputTokens: number | null;
  reasoningTokens: number | null;
  /** USD, or null when no price is known for the model. */
  costUsd: number | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> => Boolean(value) && typeof value === 'object' && !Array.isArray(value);
const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null);

export function aiCallOf(data: unknown): AiCallSummary | null {
  if (!isRecord(data) || !Object.hasOwn(data, 'ai')) return null;
  const ai = data.ai;
  if (!isRecord(ai) || typeof ai.simulated !== 'boolean' || typeof ai.purpose !== 'string') return null;
  const usage = isRecord(ai.usage) ? ai.usage : {};
  return {
    model: typeof ai.model === 'string' ? ai.model : null,
    simulated: ai.simulated,
    inputTokens: count(usage.inputTokens),
    outputTokens: count(usage.outputTokens),
    reasoningTokens: count(usage.reasoningTokens),
    costUsd: count(ai.costUsd),
  };
}

/** A cost in US dollars, to the precision of a single cheap call (up to six decimals). */
export function formatUsd(value: number, locale: string): string {
  return new Intl.NumberFormat(locale === 'fr' ? 'fr-FR' : 'en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 6 }).format(value);
}
