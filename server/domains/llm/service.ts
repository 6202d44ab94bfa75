/**
 * AI connections (administrators) and what members read of them; the checks of a write are in
 * ./connection-rules.ts.
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
import { requireEncryption } from '../../core/crypto/secret-box';
import { db, type Tx } from '../../core/db';
import { llmPurposes } from './catalogue';
import { presentAdmin, presentMember, routable } from './present';
import {
  clearDefault,
  currentDefault,
  deleteConnectionRow,
  findConnectionOrThrow,
  insertConnection,
  listConnectionRows,
  listRoutingRows,
  lockConnectionWrites,
  routedPurposes,
  updateConnectionRow,
} from './repo';
import { baseUrlOf, keyOfNew, keyOfUpdate, labelRace, refuseKeyMove, refuseTakenLabel, sealedKey } from './connection-rules';
import { modelsOf, resolveModel } from './resolve';
import type { CreateLlmConnectionInput, UpdateLlmConnectionInput } from './schemas';

const distinct = (models: readonly string[]) => [...new Set(models)];

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
