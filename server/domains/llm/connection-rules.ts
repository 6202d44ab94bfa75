/**
 * The rules an AI connection's write checks (service.ts applies them): the key (required, refused,
 * kept, sealed), the base URL (the network guard; a stored key does not follow it to a new origin)
 * and the label (unique without regard to case, the unique index the last word).
 */
import type { AiProvider } from '../../core/ai/types';
import { seal, secretHint } from '../../core/crypto/secret-box';
import type { Tx } from '../../core/db';
import { isUniqueViolation } from '../../core/db/sql-state';
import { appError } from '../../core/errors/app-error';
import type { LlmConnection } from '../../generated/prisma/client';
import { checkBaseUrl, refuseBaseUrl } from './base-url';
import { baseUrlRequired, keylessProviders } from './catalogue';
import { keyPurposeOf, labelTaken } from './repo';
import type { CreateLlmConnectionInput, UpdateLlmConnectionInput } from './schemas';

/** A key change: a new key to seal, the key removed, or the stored one kept. */
export type KeyChange = { kind: 'set'; apiKey: string } | { kind: 'remove' } | { kind: 'keep' };

export function contradictoryKey(): never {
  throw appError('request.bad_request', { message: 'Send either `apiKey` or `withoutApiKey: true`, not both.', details: { reason: 'api_key_and_without_api_key' } });
}

export function keyRequired(provider: string, reason: 'missing' | 'provider_needs_key' | 'base_url_changed'): never {
  const messages = {
    missing: 'This connection needs an API key (or `withoutApiKey: true` for a local or compatible server).',
    provider_needs_key: 'This AI vendor needs an API key: only ai_local and ai_generic_compatible work without one.',
    base_url_changed: 'The base URL moves to another address: send the API key again with it.',
  };
  throw appError('llm.api_key_required', { message: messages[reason], details: { reason, provider } });
}

/** The key rules of a new connection. */
export function keyOfNew(input: CreateLlmConnectionInput): KeyChange {
  if (input.withoutApiKey === true) {
    if (input.apiKey !== undefined) contradictoryKey();
    if (!keylessProviders.has(input.provider)) keyRequired(input.provider, 'provider_needs_key');
    return { kind: 'remove' };
  }
  if (input.apiKey === undefined) keyRequired(input.provider, 'missing');
  return { kind: 'set', apiKey: input.apiKey };
}

/** The key rules of an update: absent keeps, `withoutApiKey: true` removes, `false` needs a key. */
export function keyOfUpdate(row: LlmConnection, input: UpdateLlmConnectionInput): KeyChange {
  const provider = row.provider as AiProvider;
  if (input.withoutApiKey === true) {
    if (input.apiKey !== undefined) contradictoryKey();
    if (!keylessProviders.has(provider)) keyRequired(provider, 'provider_needs_key');
    return { kind: 'remove' };
  }
  if (input.apiKey !== undefined) return { kind: 'set', apiKey: input.apiKey };
  if (input.withoutApiKey === false && row.apiKeyEnc === null) keyRequired(provider, 'missing');
  return { kind: 'keep' };
}

export function sealedKey(id: string, change: KeyChange) {
  if (change.kind === 'set') return { apiKeyEnc: seal(change.apiKey, keyPurposeOf(id)), apiKeyHint: secretHint(change.apiKey) || null, withoutApiKey: false };
  if (change.kind === 'remove') return { apiKeyEnc: null, apiKeyHint: null, withoutApiKey: true };
  return {};
}

/** The stored base URL of an input: checked, or null; undefined when absent. */
export async function baseUrlOf(provider: AiProvider, value: string | null | undefined): Promise<string | null | undefined> {
  if (value === undefined) return undefined;
  if (value === null) {
    if (baseUrlRequired.has(provider)) refuseBaseUrl('required');
    return null;
  }
  return checkBaseUrl(provider, value);
}

export function originOf(url: string | null): string | null {
  return url === null ? null : new URL(url).origin;
}

export async function refuseTakenLabel(label: string, exceptId: string | null, tx: Tx): Promise<void> {
  if (await labelTaken(label, exceptId, tx)) throw appError('llm.connection_label_taken', { details: { label } });
}

/** The unique indexes are the last word when two writes race past the checks. */
export function labelRace(error: unknown, label: string): never {
  if (isUniqueViolation(error)) throw appError('llm.connection_label_taken', { details: { label } });
  throw error;
}

/** A stored key kept while the base URL moves to another origin would go somewhere new: refused. */
export function refuseKeyMove(row: LlmConnection, key: KeyChange, baseUrl: string | null | undefined): void {
  if (key.kind === 'keep' && row.apiKeyEnc !== null && typeof baseUrl === 'string' && originOf(baseUrl) !== originOf(row.baseUrl)) {
    keyRequired(row.provider, 'base_url_changed');
  }
}
