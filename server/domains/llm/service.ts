/**
 * AI connections (administrators) and what members read of them.
 *
 * Rules:
 * - `label` unique per instance without regard to case (409 `llm.connection_label_taken`).
 * - A key (1-512) is required unless `withoutApiKey`, which only `ai_local` and
 *   `ai_generic_compatible` accept (400 `llm.api_key_required`). A key is sealed under the instance
 *   key (409 `llm.encryption_disabled` without one), never returned (`hasApiKey`, `apiKeyHint`),
 *   never logged or audited.
 * - `baseUrl` passes the network guard (./base-url.ts); `ai_generic_compatible` needs one.
 * - Moving a connection that keeps its stored key to another origin needs the key again
 *   (`llm.api_key_required`, `details.reason` `base_url_changed`): changing the address alone must
 *   not send a stored key somewhere new.
 * - At most one default (`makeDefault`, `POST …/{id}/default`); deleting a connection removes the
 *   routing entries that point to it and leaves no default if it was one.
 */
import { randomUUID } from 'node:crypto';
import type { AiProvider } from '../../core/ai/types';
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit } from '../../core/audit';
import { requireEncryption, seal, secretHint } from '../../core/crypto/secret-box';
import { db, type Tx } from '../../core/db';
import { isUniqueViolation } from '../../core/db/sql-state';
import { appError } from '../../core/errors/app-error';
import type { LlmConnection } from '../../generated/prisma/client';
import { checkBaseUrl, refuseBaseUrl } from './base-url';
import { baseUrlRequired, keylessProviders, llmPurposes } from './catalogue';
import { presentAdmin, presentMember, routable } from './present';
import {
  clearDefault,
  currentDefault,
  deleteConnectionRow,
  findConnectionOrThrow,
  insertConnection,
  keyPurposeOf,
  labelTaken,
  listConnectionRows,
  listRoutingRows,
  lockConnectionWrites,
  routedPurposes,
  updateConnectionRow,
} from './repo';
import { modelsOf, resolveModel } from './resolve';
import type { CreateLlmConnectionInput, UpdateLlmConnectionInput } from './schemas';

/** A key change: a new key to seal, the key removed, or the stored one kept. */
type KeyChange = { kind: 'set'; apiKey: string } | { kind: 'remove' } | { kind: 'keep' };

function contradictoryKey(): never {
  throw appError('request.bad_request', { message: 'Send either `apiKey` or `withoutApiKey: true`, not both.', details: { reason: 'api_key_and_without_api_key' } });
}

function keyRequired(provider: string, reason: 'missing' | 'provider_needs_key' | 'base_url_changed'): never {
  const messages = {
    missing: 'This connection needs an API key (or `withoutApiKey: true` for a local or compatible server).',
    provider_needs_key: 'This AI vendor needs an API key: only ai_local and ai_generic_compatible work without one.',
    base_url_changed: 'The base URL moves to another address: send the API key again with it.',
  };
  throw appError('llm.api_key_required', { message: messages[reason], details: { reason, provider } });
}

/** The key rules of a new connection. */
function keyOfNew(input: CreateLlmConnectionInput): KeyChange {
  if (input.withoutApiKey === true) {
    if (input.apiKey !== undefined) contradictoryKey();
    if (!keylessProviders.has(input.provider)) keyRequired(input.provider, 'provider_needs_key');
    return { kind: 'remove' };
  }
  if (input.apiKey === undefined) keyRequired(input.provider, 'missing');
  return { kind: 'set', apiKey: input.apiKey };
}

/** The key rules of an update: absent keeps, `withoutApiKey: true` removes, `false` needs a key. */
function keyOfUpdate(row: LlmConnection, input: UpdateLlmConnectionInput): KeyChange {
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

function sealedKey(id: string, change: KeyChange) {
  if (change.kind === 'set') return { apiKeyEnc: seal(change.apiKey, keyPurposeOf(id)), apiKeyHint: secretHint(change.apiKey) || null, withoutApiKey: false };
  if (change.kind === 'remove') return { apiKeyEnc: null, apiKeyHint: null, withoutApiKey: true };
  return {};
}

/** The stored base URL of an input: checked, or null; undefined when absent. */
async function baseUrlOf(provider: AiProvider, value: string | null | undefined): Promise<string | null | undefined> {
  if (value === undefined) return undefined;
  if (value === null) {
    if (baseUrlRequired.has(provider)) refuseBaseUrl('required');
    return null;
  }
  return checkBaseUrl(provider, value);
}

function originOf(url: string | null): string | null {
  return url === null ? null : new URL(url).origin;
}

const distinct = (models: readonly string[]) => [...new Set(models)];

async function refuseTakenLabel(label: string, exceptId: string | null, tx: Tx): Promise<void> {
  if (await labelTaken(label, exceptId, tx)) throw appError('llm.connection_label_taken', { details: { label } });
}

/** The unique indexes are the last word when two writes race past the checks. */
function labelRace(error: unknown, label: string): never {
  if (isUniqueViolation(error)) throw appError('llm.connection_label_taken', { details: { label } });
  throw error;
}

export async function listAdminConnections() {
  return { connections: (await listConnectionRows()).map(presentAdmin) };
}

export async function createLlmConnection(actor: AuthenticatedActor, input: CreateLlmConnectionInput, ip: string | null) {
  const key = keyOfNew(input);
  if (key.kind === 'set') requireEncryption('llm.encryption_disabled');
  const baseUrl = await baseUrlOf(input.provider, input.baseUrl ?? null);
  const id = randomUUID();
  const enabledModels = distinct(input.enabledModels ?? []);
  const isDefault = input.makeDefault === true;
  try {
    return await db().$transaction(async (tx) => {
      await lockConnectionWrites(tx);
      await refuseTakenLabel(input.label, null, tx);
      if (isDefault) await clearDefault(tx);
      const row = await insertConnection(
        { id, provider: input.provider, label: input.label, baseUrl: baseUrl ?? null, enabledModels, isDefault, createdBy: actor.member.id, ...sealedKey(id, key) },
        tx,
      );
      // Never the key, nor its hint.
      await recordAudit(
        auditByOf(actor),
        {
          action: 'llm.connection_created',
          targetKind: 'llm_connection',
          targetId: id,
          details: { provider: row.provider, label: row.label, baseUrl: row.baseUrl, withoutApiKey: row.withoutApiKey, enabledModels: row.enabledModels, isDefault },
          ip,
        },
        tx,
      );
      return presentAdmin(row);
    });
  } catch (error) {
    labelRace(error, input.label);
  }
}

/** A stored key kept while the base URL moves to another origin would go somewhere new: refused. */
function refuseKeyMove(row: LlmConnection, key: KeyChange, baseUrl: string | null | undefined): void {
  if (key.kind === 'keep' && row.apiKeyEnc !== null && typeof baseUrl === 'string' && originOf(baseUrl) !== originOf(row.baseUrl)) {
    keyRequired(row.provider, 'base_url_changed');
  }
}

export async function updateLlmConnection(actor: AuthenticatedActor, input: UpdateLlmConnectionInput, ip: string | null) {
  const current = await findConnectionOrThrow(input.id);
  const provider = current.provider as AiProvider;
  // Checked before the transaction (the base URL's DNS lookup must not hold a database connection),
  // and again on the row under the lock.
  const early = keyOfUpdate(current, input);
  if (early.kind === 'set') requireEncryption('llm.encryption_disabled');
  const baseUrl = await baseUrlOf(provider, input.baseUrl);
  refuseKeyMove(current, early, baseUrl);
  const label = input.label ?? current.label;
  try {
    return await db().$transaction(async (tx) => {
      await lockConnectionWrites(tx);
      // The key rules again on the row as it is under the lock.
      const row = await findConnectionOrThrow(input.id, tx);
      const key = keyOfUpdate(row, input);
      refuseKeyMove(row, key, baseUrl);
      if (input.label !== undefined) await refuseTakenLabel(label, row.id, tx);
      const enabledModels = input.enabledModels === undefined ? undefined : distinct(input.enabledModels ?? []);
      const updated = await updateConnectionRow(
        row.id,
        { label, ...(baseUrl !== undefined ? { baseUrl } : {}), ...(enabledModels !== undefined ? { enabledModels } : {}), ...sealedKey(row.id, key) },
        tx,
      );
      const changed = [
        ...(updated.label !== row.label ? ['label'] : []),
        ...(updated.baseUrl !== row.baseUrl ? ['baseUrl'] : []),
        ...(updated.enabledModels.join('\n') !== row.enabledModels.join('\n') ? ['enabledModels'] : []),
        ...(updated.withoutApiKey !== row.withoutApiKey ? ['withoutApiKey'] : []),
      ];
      // Never the key, nor its hint: only whether it was replaced or removed.
      await recordAudit(
        auditByOf(actor),
        {
          action: 'llm.connection_updated',
          targetKind: 'llm_connection',
          targetId: row.id,
          details: { provider: row.provider, label: updated.label, changed, keyReplaced: key.kind === 'set', keyRemoved: key.kind === 'remove' && row.apiKeyEnc !== null },
          ip,
        },
        tx,
      );
      return presentAdmin(updated);
    });
  } catch (error) {
    labelRace(error, label);
  }
}

export async function deleteLlmConnection(actor: AuthenticatedActor, id: string, ip: string | null) {
  return db().$transaction(async (tx) => {
    await lockConnectionWrites(tx);
    const row = await findConnectionOrThrow(id, tx);
    const routed = await routedPurposes(id, tx);
    // The routing entries go with it (ON DELETE CASCADE).
    await deleteConnectionRow(id, tx);
    await recordAudit(
      auditByOf(actor),
      {
        action: 'llm.connection_deleted',
        targetKind: 'llm_connection',
        targetId: id,
        details: { provider: row.provider, label: row.label, wasDefault: row.isDefault, routingRemoved: routed.map((entry) => entry.purpose).sort() },
        ip,
      },
      tx,
    );
    return { id, deleted: true as const };
  });
}

export async function makeDefaultConnection(actor: AuthenticatedActor, id: string, ip: string | null) {
  return db().$transaction(async (tx) => {
    await lockConnectionWrites(tx);
    const row = await findConnectionOrThrow(id, tx);
    if (row.isDefault) return presentAdmin(row);
    const previous = await currentDefault(tx);
    await clearDefault(tx);
    const updated = await updateConnectionRow(id, { isDefault: true }, tx);
    await recordAudit(
      auditByOf(actor),
      { action: 'llm.default_changed', targetKind: 'llm_connection', targetId: id, details: { provider: row.provider, label: row.label, previousDefaultId: previous?.id ?? null }, ip },
      tx,
    );
    return presentAdmin(updated);
  });
}

export async function listMemberConnections() {
  return { connections: (await listConnectionRows()).map(presentMember) };
}

export async function connectionModels(id: string) {
  const row = await findConnectionOrThrow(id);
  return { connectionId: row.id, provider: row.provider as AiProvider, ...modelsOf(routable(row)) };
}

/** The routing and connections as resolveModel reads them, in one snapshot. */
export async function routingSnapshot(tx: Pick<Tx, 'llmRouting' | 'llmConnection'> = db()) {
  const [routing, rows] = await Promise.all([listRoutingRows(tx), listConnectionRows(tx)]);
  return { routing, connections: rows.map(routable) };
}

export async function llmDefaults() {
  const snapshot = await routingSnapshot();
  const defaults = Object.fromEntries(
    llmPurposes.map((purpose) => {
      const choice = resolveModel(purpose, snapshot);
      return [purpose, choice ? { provider: choice.connection.provider as AiProvider, model: choice.model } : null];
    }),
  ) as Record<(typeof llmPurposes)[number], { provider: AiProvider; model: string } | null>;
  return { defaults };
}
