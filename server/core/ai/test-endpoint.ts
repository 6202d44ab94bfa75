/**
 * "Test connection": reads the endpoint's model listing (costs no tokens) and says whether it worked,
 * or why not, with a classified error that carries no secret. Never throws.
 */
import { classifyAiError, type AiErrorCode, type AiErrorKind } from './errors';
import { listModels } from './list-models';
import type { AiEndpoint, AiNetOptions } from './types';

export type AiEndpointTest =
  | { ok: true; modelCount: number; latencyMs: number }
  | { ok: false; kind: AiErrorKind; code: AiErrorCode; status: number | null; retryAfterMs: number | null; message: string; latencyMs: number };

export async function testEndpoint(endpoint: AiEndpoint, options: { signal?: AbortSignal; timeoutMs?: number; net?: AiNetOptions } = {}): Promise<AiEndpointTest> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 15_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const started = performance.now();
  try {
    const list = await listModels(endpoint, signal, options.net);
    return { ok: true, modelCount: list.models.length, latencyMs: Math.round(performance.now() - started) };
  } catch (caught) {
    const error = classifyAiError(caught, { provider: endpoint.provider, signal });
    return {
      ok: false,
      kind: error.kind,
      code: error.code,
      status: error.status,
      retryAfterMs: error.retryAfterMs,
      message: error.message,
      latencyMs: Math.round(performance.now() - started),
    };
  }
}
