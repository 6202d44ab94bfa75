/** Stored AI connections to their two answer shapes: never the sealed key, at most its hint. */
import { iso } from '../../core/http/schemas';
import type { LlmConnection } from '../../generated/prisma/client';
import type { AiProvider } from '../../core/ai/types';
import type { LlmConnectionAdmin } from './schemas';
import type { RoutableConnection } from './resolve';

export function presentAdmin(row: LlmConnection): LlmConnectionAdmin {
  return {
    id: row.id,
    provider: row.provider as AiProvider,
    label: row.label,
    isDefault: row.isDefault,
    hasApiKey: row.apiKeyEnc !== null,
    apiKeyHint: row.apiKeyEnc !== null && row.apiKeyHint ? row.apiKeyHint : null,
    baseUrl: row.baseUrl,
    enabledModels: row.enabledModels.length > 0 ? row.enabledModels : null,
    updatedAt: iso(row.updatedAt),
  };
}

export function presentMember(row: LlmConnection) {
  return { id: row.id, provider: row.provider as AiProvider, label: row.label, isDefault: row.isDefault };
}

/** The routing view of a row (empty `enabledModels` is no restriction). */
export function routable(row: LlmConnection): RoutableConnection & { row: LlmConnection } {
  return { id: row.id, provider: row.provider, isDefault: row.isDefault, enabledModels: row.enabledModels.length > 0 ? row.enabledModels : null, row };
}
