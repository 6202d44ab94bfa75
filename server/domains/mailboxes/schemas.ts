import { z } from 'zod';
import { emailInput, isoDateTime, isoDateTimeInput } from '../../core/http/schemas';

export const mailboxProviderSchema = z.enum(['mail_provider_a', 'mail_provider_b', 'imap']);
export const mailboxStatusSchema = z.enum(['active', 'disconnected', 'error']);

export const backfillSchema = z
  .object({
    status: z.enum(['pending', 'running', 'done', 'failed']),
    progressPct: z.number().min(0).max(100).nullable(),
    oldestSyncedAt: isoDateTime.nullable().describe('Receive time of the oldest message mirrored so far.'),
  })
  .meta({ id: 'MailboxBackfill' });

export const mailboxErrorSchema = z
  .object({
    kind: z.string(),
    code: z.string().optional(),
    message: z.string().optional(),
    at: isoDateTime.optional(),
    operation: z.string().optional(),
    httpStatus: z.number().int().optional(),
  })
  .meta({ id: 'MailboxError' });

export const mailboxSchema = z
  .object({
    id: z.string(),
    provider: mailboxProviderSchema,
    address: z.string(),
    status: mailboxStatusSchema,
    syncMode: z.enum(['full', 'processing_only']),
    connectedAt: z.string(),
    backfill: backfillSchema.nullable().describe('Null until a backfill is asked for.'),
    lastDeltaAt: z.string().nullable(),
    lastSuccessfulSyncAt: z.string().nullable().optional(),
    lastError: mailboxErrorSchema.nullable(),
    messageCount: z.number().int().min(0),
    analyzedAt: z.string().nullable().optional(),
  })
  .meta({ id: 'Mailbox' });

export type MailboxOutput = z.infer<typeof mailboxSchema>;

export const mailboxListOutput = z.object({ mailboxes: z.array(mailboxSchema) });

/**
 * A mailbox id in the path. Any string of a sane length: one that names no mailbox of the caller
 * (malformed, unknown or another member's) is the same 404 `mailbox.not_found`.
 */
export const mailboxIdInput = z.object({ id: z.string().min(1).max(200) });

const host = z.string().trim().min(1).max(255);
const port = z.number().int().min(1).max(65535);

/** Booleans and ports are strict: a coerced `"false"` must never turn TLS checks off. */
export const connectImapInput = z.object({
  address: emailInput,
  imapHost: host,
  imapPort: port.default(993),
  imapSecure: z.boolean().default(true),
  smtpHost: host,
  smtpPort: port.default(465),
  smtpSecure: z.boolean().default(true),
  username: z.string().min(1).max(255).optional().describe('The login; the address when absent.'),
  password: z.string().min(1).max(1024).describe('Stored encrypted; never returned or logged.'),
  allowInvalidCertificate: z.boolean().default(false).describe('Accept a self-signed or otherwise invalid certificate.'),
});

export type ConnectImapInput = z.infer<typeof connectImapInput>;

export const connectImapOutput = z.object({
  mailboxId: z.string(),
  address: z.string(),
  created: z.boolean().describe('False when the address was already connected: its credentials and settings were replaced.'),
});

export const enqueuedOutput = z.object({ enqueued: z.boolean() });

export const resyncInput = mailboxIdInput.extend({
  since: isoDateTimeInput.describe('Start of the window to re-read: in the past and within 92 days.'),
});

export const backfillInput = mailboxIdInput.extend({
  since: isoDateTimeInput.nullable().optional().describe('How far back to mirror; null or absent: everything.'),
});

export const backfillOutput = z.object({ enqueued: z.boolean(), backfill: backfillSchema });

export const removalImpactOutput = z.object({
  mailboxId: z.string(),
  address: z.string(),
  messages: z.number().int().min(0),
  pendingExecutions: z.number().int().min(0),
  workflows: z.array(z.object({ id: z.string(), name: z.string(), link: z.enum(['trigger', 'sender']) })),
});

export const credentialOutcomeSchema = z
  .enum(['deleted', 'kept', 'none'])
  .describe('`deleted`: the mailbox’s own secret was removed; `kept`: its OAuth grant still serves another capability; `none`: nothing was stored.');

export const disconnectOutput = z.object({
  mailboxId: z.string(),
  address: z.string(),
  disarmedWorkflows: z.number().int().min(0),
  credential: credentialOutcomeSchema,
});

export const deleteOutput = z.object({
  mailboxId: z.string(),
  address: z.string(),
  deletedMessages: z.number().int().min(0),
  credential: credentialOutcomeSchema,
});
