/** Mailbox rows to the spec's Mailbox resource. */
import type { Mailbox } from '../../generated/prisma/client';
import { iso } from '../../core/http/schemas';
import { backfillSchema, mailboxErrorSchema, mailboxProviderSchema, mailboxStatusSchema, type MailboxOutput } from './schemas';

type BackfillOutput = MailboxOutput['backfill'];

export function presentBackfill(mailbox: Pick<Mailbox, 'backfillStatus' | 'backfillProgressPct' | 'backfillOldestAt'>): BackfillOutput {
  if (mailbox.backfillStatus === null) return null;
  const parsed = backfillSchema.shape.status.safeParse(mailbox.backfillStatus);
  const pct = mailbox.backfillProgressPct;
  return {
    status: parsed.success ? parsed.data : 'failed',
    progressPct: pct === null || !Number.isFinite(pct) ? null : Math.min(100, Math.max(0, pct)),
    oldestSyncedAt: iso(mailbox.backfillOldestAt),
  };
}

/**
 * `lastError` as stored by the sync ({kind, code, message, at, operation, httpStatus}); fields that
 * do not have their type are left out, and a value without `kind` reads as an unknown error.
 */
export function presentLastError(value: unknown): MailboxOutput['lastError'] {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object' || Array.isArray(value)) return { kind: 'unknown' };
  const record = value as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const [field, schema] of Object.entries(mailboxErrorSchema.shape)) {
    if (Object.hasOwn(record, field) && schema.safeParse(record[field]).success && record[field] !== undefined) picked[field] = record[field];
  }
  if (typeof picked.kind !== 'string') picked.kind = 'unknown';
  return picked as MailboxOutput['lastError'];
}

export function presentMailbox(mailbox: Mailbox): MailboxOutput {
  return {
    id: mailbox.id,
    provider: mailboxProviderSchema.parse(mailbox.provider),
    address: mailbox.address,
    status: mailboxStatusSchema.parse(mailbox.status),
    syncMode: mailbox.syncMode === 'processing_only' ? 'processing_only' : 'full',
    connectedAt: iso(mailbox.connectedAt),
    backfill: presentBackfill(mailbox),
    lastDeltaAt: iso(mailbox.lastDeltaAt),
    lastSuccessfulSyncAt: iso(mailbox.lastSuccessfulSyncAt),
    lastError: presentLastError(mailbox.lastError),
    messageCount: Math.max(0, mailbox.messageCount),
    analyzedAt: iso(mailbox.analyzedAt),
  };
}
