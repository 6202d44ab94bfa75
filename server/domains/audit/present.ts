/** Stored audit entries to the API shape. */
import type { AuditEntry } from '../../generated/prisma/client';
import { iso } from '../../core/http/schemas';
import type { AuditEntryOutput } from './schemas';

export function presentAuditEntry(entry: AuditEntry): AuditEntryOutput {
  return {
    id: entry.id,
    at: iso(entry.at),
    actorKind: entry.actorKind,
    actorMemberId: entry.actorMemberId,
    action: entry.action,
    targetKind: entry.targetKind,
    targetId: entry.targetId,
    details: (entry.details ?? {}) as Record<string, unknown>,
    ip: entry.ip,
  };
}
