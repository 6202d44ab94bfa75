import { z } from 'zod';
import { limitParam } from '../../core/http/cursor';
import { isoDateTime, isoDateTimeInput } from '../../core/http/schemas';

export const auditEntrySchema = z
  .object({
    id: z.uuid(),
    at: isoDateTime,
    actorKind: z.enum(['member', 'system', 'webhook']),
    actorMemberId: z.uuid().nullable(),
    action: z.string(),
    targetKind: z.string(),
    targetId: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
    ip: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' });

export type AuditEntryOutput = z.infer<typeof auditEntrySchema>;

export const auditQueryInput = z.object({
  action: z.string().min(1).max(120).optional(),
  actor: z.uuid().optional(),
  since: isoDateTimeInput.optional(),
  cursor: z.string().max(500).optional(),
  limit: limitParam(50, 200),
});

export type AuditQuery = z.infer<typeof auditQueryInput>;

export const auditPageOutput = z.object({ entries: z.array(auditEntrySchema), nextCursor: z.string().nullable() });
