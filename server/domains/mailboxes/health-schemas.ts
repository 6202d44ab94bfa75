/**
 * The mailbox health answer (`GET /api/v1/mailboxes/health`): per mailbox what the runner knows of
 * its sync and its watch, so a trigger that silently stopped shows (issue 20, "Mailbox health").
 */
import { z } from 'zod';
import { isoDateTime } from '../../core/http/schemas';
import { mailboxErrorSchema, mailboxProviderSchema, mailboxStatusSchema } from './schemas';

export const healthStateSchema = z
  .enum(['healthy', 'syncing', 'stalled', 'error', 'disconnected'])
  .describe(
    '`disconnected` (taken offline), `error` (the sync failed: `lastError` says why), `stalled` (active but silent: `stalled` says since when and why), `syncing` (active, first sync not finished, or its body pass still reading: `bodiesPending`), `healthy`. In that order: the first that applies.',
  );

export const stallReasonSchema = z
  .enum(['sync_overdue', 'watch_silent', 'dispatch_lag'])
  .describe('`sync_overdue`: no successful sync within the bound; `watch_silent`: the watch heartbeat is older than its bound; `dispatch_lag`: mirrored mail waited too long to be journaled.');

export const watchModeSchema = z
  .enum(['idle', 'polling', 'provider_history'])
  .describe('`idle`: IMAP IDLE pushes new mail; `polling`: the mailbox is read on a timer (no IDLE, or the watch is down); `provider_history`: an OAuth provider’s change history, read on a timer.');

export const mailboxHealthSchema = z
  .object({
    mailboxId: z.string(),
    memberId: z.string(),
    address: z.string(),
    provider: mailboxProviderSchema,
    status: mailboxStatusSchema,
    state: healthStateSchema,
    lastSuccessfulSyncAt: isoDateTime.nullable(),
    lastDeltaAt: isoDateTime.nullable().describe('When new mail was last read (the age of the last delta).'),
    watch: z
      .object({
        mode: watchModeSchema.nullable().describe('Null: no runner has watched this mailbox yet.'),
        alive: z.boolean().describe('The heartbeat is within its bound (MAIL_STALL_WATCH_SECONDS) and the mailbox is active.'),
        lastHeartbeatAt: isoDateTime.nullable(),
      })
      .meta({ id: 'MailboxWatch' }),
    lastError: mailboxErrorSchema.nullable().describe('The last sync failure ({kind, code, message, at, …}); never a password or token.'),
    oauth: z
      .object({
        expiresAt: isoDateTime.nullable().describe('When the current access token expires (the runner refreshes it before).'),
        lastRefreshedAt: isoDateTime.nullable().describe('When the grant was last written (connected or refreshed).'),
      })
      .nullable()
      .describe('Null for IMAP mailboxes.'),
    dispatchLag: z
      .object({
        pending: z.number().int().min(0).describe('Messages mirrored but not yet journaled.'),
        oldestEnqueuedAt: isoDateTime.nullable(),
      })
      .meta({ id: 'MailboxDispatchLag' }),
    bodiesPending: z
      .number()
      .int()
      .min(0)
      .describe(
        'Messages a large first sync listed from their headers (sender, subject, date) whose body, preview and signals the body pass has not read yet; 0 once it is done. Such a message is read at once when opened.',
      ),
    stalled: z.object({ since: isoDateTime, reason: stallReasonSchema }).nullable(),
  })
  .meta({ id: 'MailboxHealth' });

export type MailboxHealth = z.infer<typeof mailboxHealthSchema>;

export const mailboxHealthInput = z.object({
  scope: z.enum(['me', 'org']).default('me').describe('`org` (administrators only): every member’s mailboxes, read-only.'),
});

export const mailboxHealthOutput = z.object({ mailboxes: z.array(mailboxHealthSchema) });
