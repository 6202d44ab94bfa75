/**
 * Connections of type `llm_provider`: a member's own key for an AI provider, used by that member's AI
 * nodes (server/domains/llm/member-endpoints.ts) when the instance allows it (`LLM_MEMBER_KEYS=1`).
 * The base URL goes through the llm domain's check (server/domains/llm/base-url.ts), without the
 * `ai_local` exception for the instance's own network: a member's URL is never trusted with it.
 *
 * Also here: whether the instance allows members' keys and what each provider needs (for the
 * settings page), and testing one of the member's keys against its provider (a model listing).
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit } from '../../core/audit';
import { config } from '../../core/config';
import { openJson } from '../../core/crypto/secret-box';
import { appError } from '../../core/errors/app-error';
import { llmNetOptions, checkBaseUrl, aiProviders, baseUrlRequired, keylessProviders, tryEndpoint } from '../llm';
import { findVisibleOrThrow } from './repo';
import { llmProviderData, llmProviderType, type LlmProviderData } from './secret-data';

export function requireMemberKeys(): void {
  if (!config().LLM_MEMBER_KEYS) throw appError('credential.llm_member_keys_disabled');
}

/** The secret to store: allowed, the member's own, its base URL checked and normalised. */
export async function checkedLlmProviderData(scope: string, data: LlmProviderData): Promise<LlmProviderData> {
  requireMemberKeys();
  if (scope !== 'member') {
    throw appError('credential.bad_request', {
      message: 'An llm_provider connection is a member’s own key; the instance’s keys are AI connections (Admin → AI models).',
      details: { reason: 'member_only' },
    });
  }
  if (data.baseUrl === undefined) return data;
  return { ...data, baseUrl: await checkBaseUrl(data.provider, data.baseUrl, { forMember: true }) };
}

/** GET /api/v1/llm-member-keys: whether members may store their own AI keys, and what each provider needs. */
export function memberKeysSettings() {
  return {
    allowed: config().LLM_MEMBER_KEYS,
    providers: aiProviders.map((provider) => ({
      provider,
      apiKey: keylessProviders.has(provider) ? ('optional' as const) : ('required' as const),
      baseUrl: baseUrlRequired.has(provider) ? ('required' as const) : ('optional' as const),
    })),
  };
}

/**
 * Lists the models of one of the member's `llm_provider` connections at its provider, with its key
 * (15 s at most, through the network guard with the member's options): `{ok, modelCount, latencyMs}`
 * or `{ok: false, code, message}` (the provider layer's fixed sentences, never the vendor's text or
 * the key). Another member's connection is 404; another type 400 `credential.bad_request`
 * (`not_testable`). Audited `credential.tested` with the outcome, without the key.
 */
export async function testMemberKey(actor: AuthenticatedActor, id: string, ip: string | null) {
  requireMemberKeys();
  const row = await findVisibleOrThrow(actor.member.id, id);
  if (row.type !== llmProviderType || row.scope !== 'member') {
    throw appError('credential.bad_request', { message: 'Only your own AI keys (llm_provider connections) can be tested.', details: { reason: 'not_testable' } });
  }
  const parsed = llmProviderData.safeParse(openJson(row.dataEnc, `credential:${row.id}`));
  if (!parsed.success) throw appError('credential.bad_request', { message: 'This key’s stored settings are no longer valid: save it again.', details: { reason: 'not_testable' } });
  const data = parsed.data;
  const endpoint = { provider: data.provider, apiKey: data.apiKey ?? null, baseUrl: data.baseUrl ?? null };
  const { answer, latencyMs } = await tryEndpoint(endpoint, llmNetOptions(data.provider, { forMember: true }));
  await recordAudit(auditByOf(actor), {
    action: 'credential.tested',
    targetKind: 'credential',
    targetId: row.id,
    details: { name: row.name, type: row.type, provider: data.provider, ok: answer.ok, code: answer.ok ? null : answer.code, latencyMs },
    ip,
  });
  return answer;
}
