/**
 * The administrator's routing: per purpose, a connection and a model. What actually serves a
 * purpose (`effective`) also falls back to the default connection and the configuration order
 * (./resolve.ts); callers that need a model for a call use `resolveForPurpose`.
 */
import type { AiProvider } from '../../core/ai/types';
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit } from '../../core/audit';
import { db } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { llmPurposes, type LlmPurpose } from './catalogue';
import { clearRouting, findConnection, lockConnectionWrites, putRoutingRow } from './repo';
import { isModelAllowed, resolveModel, type ModelChoice, type ModelRequest, type Refusal } from './resolve';
import type { PutRoutingInput } from './schemas';
import { routingSnapshot } from './service';
import type { routable } from './present';

type Snapshot = Awaited<ReturnType<typeof routingSnapshot>>;
type Routed = ReturnType<typeof routable>;

function perPurpose<T>(value: (purpose: LlmPurpose) => T): Record<LlmPurpose, T> {
  return Object.fromEntries(llmPurposes.map((purpose) => [purpose, value(purpose)])) as Record<LlmPurpose, T>;
}

function routingView(snapshot: Snapshot) {
  return {
    routing: perPurpose((purpose) => {
      const entry = snapshot.routing.find((candidate) => candidate.purpose === purpose);
      return entry ? { connectionId: entry.connectionId, model: entry.model } : null;
    }),
    effective: perPurpose((purpose) => {
      const choice = resolveModel(purpose, snapshot);
      if (!choice || choice.source === 'requested') return null;
      return { connectionId: choice.connection.id, provider: choice.connection.provider as AiProvider, model: choice.model, source: choice.source };
    }),
  };
}

export async function getRouting() {
  return routingView(await routingSnapshot());
}

export async function putRouting(actor: AuthenticatedActor, input: PutRoutingInput, ip: string | null) {
  return db().$transaction(async (tx) => {
    // Connections cannot change (be deleted, lose a model) while their routing is written.
    await lockConnectionWrites(tx);
    const changes: Record<string, { connectionId: string; model: string } | null> = {};
    for (const purpose of llmPurposes) {
      const entry = input.routing[purpose];
      if (entry === undefined) continue;
      changes[purpose] = entry;
      if (entry === null) {
        await clearRouting(purpose, tx);
        continue;
      }
      const connection = await findConnection(entry.connectionId, tx);
      if (!connection) throw appError('llm.connection_not_found', { details: { purpose, connectionId: entry.connectionId } });
      if (!isModelAllowed(connection, entry.model)) {
        throw appError('llm.model_not_allowed', { details: { purpose, connectionId: connection.id, model: entry.model, enabledModels: connection.enabledModels } });
      }
      const data = { connectionId: connection.id, model: entry.model, updatedBy: actor.member.id };
      await putRoutingRow(purpose, data, tx);
    }
    await recordAudit(auditByOf(actor), { action: 'llm.routing_updated', targetKind: 'llm_routing', details: { changes }, ip }, tx);
    return routingView(await routingSnapshot(tx));
  });
}

/**
 * The connection and model for a call of `purpose`, with an optional requested model (a node
 * naming its model, the assistant's choice). null: no provider can serve.
 */
export async function resolveForPurpose(purpose: LlmPurpose, requested?: ModelRequest): Promise<ModelChoice<Routed> | Refusal | null> {
  const snapshot = await routingSnapshot();
  return resolveModel(purpose, { ...snapshot, requested });
}
