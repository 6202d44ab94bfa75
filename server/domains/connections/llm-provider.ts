/**
 * Connections of type `llm_provider`: a member's own key for an AI provider, used by that member's AI
 * nodes (server/domains/llm/member-endpoints.ts) when the instance allows it (`LLM_MEMBER_KEYS=1`).
 * The base URL goes through the llm domain's check (server/domains/llm/base-url.ts), without the
 * `ai_local` exception for the instance's own network: a member's URL is never trusted with it.
 */
import { config } from '../../core/config';
import { appError } from '../../core/errors/app-error';
import { checkBaseUrl } from '../llm/base-url';
import type { LlmProviderData } from './secret-data';

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
