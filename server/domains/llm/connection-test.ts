/**
 * Two additive services of the llm domain (issue 11, second increment): testing a connection
 * against its provider (admin), and the models a member may pick for the assistant.
 */
import { aiProviderFacts, testEndpoint, type AiNetOptions } from '../../core/ai';
import type { AiEndpoint, AiProvider } from '../../core/ai/types';
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit } from '../../core/audit';
import { llmNetOptions } from './base-url';
import { isAiProvider } from './catalogue';
import { endpointOf, findConnectionOrThrow } from './repo';
import { modelsOf, resolveModel } from './resolve';
import { routingSnapshot } from './service';

let testNet: AiNetOptions = {};

/** Tests only: opens the fake vendors' loopback addresses to the connection test. */
export function setConnectionTestNetForTests(net: AiNetOptions): void {
  if (!process.env.VITEST) throw new Error('Set by tests only.');
  testNet = net;
}

/**
 * Lists the connection's models at its provider with its stored key: `{ok, modelCount, latencyMs}`
 * or `{ok: false, code, message}` (the provider layer's fixed sentences, never the vendor's text).
 * Audited `llm.connection_tested` with the outcome, without the key.
 */
/**
 * Lists an endpoint's models as a connection test: `{ok: true, modelCount, latencyMs}` or `{ok: false,
 * code, message}` with the provider layer's fixed sentences (never the key, the URL or the vendor's text).
 * Shared by the administrators' connections and the members' own keys.
 */
export async function tryEndpoint(endpoint: AiEndpoint, net: AiNetOptions) {
  const result = await testEndpoint(endpoint, { timeoutMs: 15_000, net });
  const answer = result.ok
    ? { ok: true as const, modelCount: result.modelCount, latencyMs: result.latencyMs }
    : { ok: false as const, code: result.code, message: result.message.slice(0, 300) };
  return { answer, latencyMs: result.latencyMs };
}

export async function testLlmConnection(actor: AuthenticatedActor, id: string, ip: string | null) {
  const row = await findConnectionOrThrow(id);
  const endpoint = endpointOf(row);
  // The operator's LLM_ALLOW_HOSTS, as every call of this connection will have it (tests may open the fakes instead).
  const net = llmNetOptions(endpoint.provider);
  const { answer, latencyMs } = await tryEndpoint(endpoint, { ...net, ...testNet, allowPrivate: net.allowPrivate });
  await recordAudit(auditByOf(actor), {
    action: 'llm.connection_tested',
    targetKind: 'llm_connection',
    targetId: row.id,
    details: { provider: row.provider, label: row.label, ok: answer.ok, code: answer.ok ? null : answer.code, latencyMs },
    ip,
  });
  return answer;
}

/**
 * GET /api/v1/assistant/models: the model serving the `assistant` purpose (null: none can), and
 * every model a member may pick: each connection's enabled models, else its provider's usual ones.
 */
export async function assistantModels() {
  const snapshot = await routingSnapshot();
  const choice = resolveModel('assistant', snapshot);
  const options = snapshot.connections.flatMap((connection) => {
    if (!isAiProvider(connection.provider)) return [];
    const provider = connection.provider as AiProvider;
    return modelsOf(connection).models.map((model) => ({
      provider,
      model,
      connectionId: connection.id,
      connectionLabel: connection.row.label,
      supportsTools: aiProviderFacts[provider].supportsTools,
    }));
  });
  return {
    default: choice && choice.source !== 'requested' ? { provider: choice.connection.provider as AiProvider, model: choice.model, source: choice.source } : null,
    options,
  };
}
