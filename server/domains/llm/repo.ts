/**
 * AI connection queries. Connections are the instance's (no member scope): administrators write
 * them, every member reads their member form. The key is sealed under `llm-connection:<id>` and
 * opened only for the provider layer (`endpointOf`), never for an answer.
 */
import type { AiEndpoint, AiProvider } from '../../core/ai/types';
import { open } from '../../core/crypto/secret-box';
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import type { LlmConnection, Prisma } from '../../generated/prisma/client';
import { isAiProvider } from './catalogue';

type Reader = Pick<Tx, 'llmConnection'>;

export const keyPurposeOf = (id: string) => `llm-connection:${id}`;

/** Configuration order: oldest first (the last fallback of routing). */
export const configurationOrder = [{ createdAt: 'asc' as const }, { id: 'asc' as const }];

export function listConnectionRows(tx: Reader = db()): Promise<LlmConnection[]> {
  return tx.llmConnection.findMany({ orderBy: configurationOrder });
}

export async function findConnectionOrThrow(id: string, tx: Reader = db()): Promise<LlmConnection> {
  const row = await tx.llmConnection.findUnique({ where: { id } });
  if (!row) throw appError('llm.connection_not_found', { details: { connectionId: id } });
  return row;
}

/** Another connection with this label, compared as the unique index does (lower()). */
export async function labelTaken(label: string, exceptId: string | null, tx: Pick<Tx, '$queryRaw'> = db()): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM llm_connections WHERE lower(label) = lower(${label}) AND (${exceptId}::uuid IS NULL OR id <> ${exceptId}::uuid) LIMIT 1`;
  return rows.length > 0;
}

/**
 * Serialises the writes that decide labels and the default, so two administrators cannot both pass
 * the checks (the unique indexes would still refuse the second, less kindly).
 */
export async function lockConnectionWrites(tx: Pick<Tx, '$executeRaw'>): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('llm:connections'))`;
}

/** What the provider layer needs to call through a connection, its key opened. */
export function endpointOf(row: LlmConnection): AiEndpoint {
  if (!isAiProvider(row.provider)) throw new Error(`llm: connection ${row.id} has an unknown provider`);
  return { provider: row.provider as AiProvider, baseUrl: row.baseUrl, apiKey: row.apiKeyEnc ? open(row.apiKeyEnc, keyPurposeOf(row.id)) : null };
}

export function listRoutingRows(tx: Pick<Tx, 'llmRouting'> = db()) {
  return tx.llmRouting.findMany({ orderBy: { purpose: 'asc' } });
}

export function insertConnection(data: Prisma.LlmConnectionUncheckedCreateInput, tx: Tx): Promise<LlmConnection> {
  return tx.llmConnection.create({ data });
}

export function updateConnectionRow(id: string, data: Prisma.LlmConnectionUncheckedUpdateInput, tx: Tx): Promise<LlmConnection> {
  return tx.llmConnection.update({ where: { id }, data });
}

/** The routing entries go with it (ON DELETE CASCADE). */
export async function deleteConnectionRow(id: string, tx: Tx): Promise<void> {
  await tx.llmConnection.delete({ where: { id } });
}

export function currentDefault(tx: Tx): Promise<{ id: string } | null> {
  return tx.llmConnection.findFirst({ where: { isDefault: true }, select: { id: true } });
}

/** No connection is the default any more (before another becomes it, in the same transaction). */
export async function clearDefault(tx: Tx): Promise<void> {
  await tx.llmConnection.updateMany({ where: { isDefault: true }, data: { isDefault: false } });
}

/** The purposes routed to this connection. */
export function routedPurposes(connectionId: string, tx: Tx): Promise<{ purpose: string }[]> {
  return tx.llmRouting.findMany({ where: { connectionId }, select: { purpose: true } });
}

export function findConnection(id: string, tx: Tx): Promise<LlmConnection | null> {
  return tx.llmConnection.findUnique({ where: { id } });
}

/** A purpose's routing entry removed (the purpose falls back to the default). */
export async function clearRouting(purpose: string, tx: Tx): Promise<void> {
  await tx.llmRouting.deleteMany({ where: { purpose } });
}

export async function putRoutingRow(purpose: string, data: { connectionId: string; model: string; updatedBy: string }, tx: Tx): Promise<void> {
  await tx.llmRouting.upsert({ where: { purpose }, create: { purpose, ...data }, update: data });
}
