/**
 * A member's own AI endpoints: their connections of type `llm_provider` (server/domains/connections/),
 * opened for a call. Empty when the instance does not allow members' keys (`LLM_MEMBER_KEYS`). The AI
 * capability uses them for that member's AI nodes only, with `llmNetOptions(provider, { forMember: true })`
 * (./base-url.ts) as the provider layer's network options. Never answered by a route: the key is in clear.
 */
import type { AiEndpoint } from '../../core/ai/types';
import { config } from '../../core/config';
import { openJson } from '../../core/crypto/secret-box';
import { findMemberConnectionsOfType, llmProviderData, llmProviderType } from '../connections';
import { catalogueModels, providerDefaultModel } from './catalogue';

export interface MemberAiEndpoint extends AiEndpoint {
  /** The connection (credential) id and its name, to name the endpoint in a step or a choice. */
  connectionId: string;
  name: string;
}

/** The member's `llm_provider` connections, oldest first; a secret that no longer opens or parses is skipped. */
export async function memberEndpoints(memberId: string): Promise<MemberAiEndpoint[]> {
  if (!config().LLM_MEMBER_KEYS) return [];
  const rows = await findMemberConnectionsOfType(memberId, llmProviderType);
  const endpoints: MemberAiEndpoint[] = [];
  for (const row of rows) {
    let secret: unknown;
    try {
      secret = openJson(row.dataEnc, `credential:${row.id}`);
    } catch {
      continue;
    }
    const parsed = llmProviderData.safeParse(secret);
    if (!parsed.success) continue;
    endpoints.push({ connectionId: row.id, name: row.name, provider: parsed.data.provider, apiKey: parsed.data.apiKey ?? null, baseUrl: parsed.data.baseUrl ?? null });
  }
  return endpoints;
}

export interface MemberAiChoice {
  endpoint: MemberAiEndpoint;
  model: string;
}

/**
 * Which of the member's own keys serves one of their AI nodes, or null for the instance's routing.
 * A member who stores a key has their AI steps run on it (their account pays). A node naming a model
 * uses the oldest key whose provider lists that model, else the oldest key (the static lists are a
 * typing aid, not the vendors' whole catalogue). Without a model, the oldest key whose provider has a
 * default model; keys of the generic compatible provider (no default) serve only nodes naming one.
 */
export async function memberChoice(memberId: string, requestedModel?: string): Promise<MemberAiChoice | null> {
  const endpoints = await memberEndpoints(memberId);
  if (endpoints.length === 0) return null;
  if (requestedModel) {
    const listed = endpoints.find((endpoint) => catalogueModels(endpoint.provider).includes(requestedModel));
    return { endpoint: listed ?? endpoints[0], model: requestedModel };
  }
  for (const endpoint of endpoints) {
    const model = providerDefaultModel(endpoint.provider);
    if (model !== null) return { endpoint, model };
  }
  return null;
}
