/**
 * Appends to the audit log. Call it inside the transaction of the change it records, so an entry
 * exists exactly when the change does. Details never hold a secret.
 */
import type { Actor } from './auth/access';
import { db, type Tx } from './db';

export interface AuditInput {
  action: string;
  targetKind: string;
  targetId?: string | null;
  details?: Record<string, unknown>;
  ip?: string | null;
}

/** Who an entry is attributed to: a member (possibly acting through one of their keys) or the system. */
export type AuditBy = { memberId: string; apiKeyId?: string } | 'system';

export function auditByOf(actor: Actor): AuditBy {
  if (actor.kind === 'apiKey') return { memberId: actor.member.id, apiKeyId: actor.keyId };
  if (actor.kind === 'session' || actor.kind === 'execution') return { memberId: actor.member.id };
  return 'system';
}

export async function recordAudit(by: AuditBy, input: AuditInput, tx: Tx = db()): Promise<void> {
  const member = by === 'system' ? null : by;
  await tx.auditEntry.create({
    data: {
      actorKind: member ? 'member' : 'system',
      actorMemberId: member?.memberId ?? null,
      action: input.action,
      targetKind: input.targetKind,
      targetId: input.targetId ?? null,
      details: { ...input.details, ...(member?.apiKeyId ? { apiKeyId: member.apiKeyId } : {}) } as never,
      ip: input.ip ?? null,
    },
  });
}
