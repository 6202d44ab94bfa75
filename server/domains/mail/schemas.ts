/**
 * Shapes shared by the mail read routes (folders, threads, messages): an address, the flags and
 * signals of a message, the message summary, and the query pieces every list takes.
 *
 * Terminology: a *mailbox* is one connected account; a *folder* is where a message is seen (its
 * `folderKey`; `folderLabels` = [folderKey, ...labels]); a *thread* is a conversation of one mailbox;
 * a *message* is one mirrored mail.
 */
import { z } from 'zod';
import { isoDateTime } from '../../core/http/schemas';

export const addressSchema = z.object({ name: z.string().optional(), email: z.string() }).meta({ id: 'MailAddress' });

export const messageFlagsSchema = z.object({ seen: z.boolean(), flagged: z.boolean(), draft: z.boolean(), sent: z.boolean() });

/** What kind of mail a message is, computed at ingest (server/mail/ingest/signals.ts). */
export const messageSignalsSchema = z.object({
  isAutoReply: z
    .boolean()
    .describe('Automatic mail by RFC 3834: `Auto-Submitted` other than `no`, `X-Autoreply`/`X-Autorespond`, Exchange’s out-of-office headers (out-of-office, vacation replies, machine notices); never a delivery report. `Precedence: bulk` alone does not make one.'),
  isNoReply: z.boolean().describe('The sender is a no-reply address (`noreply`, `do-not-reply`, `mailer-daemon`, `postmaster`, `bounce`…).'),
  isMailingList: z.boolean().describe('List mail: `List-Id`, `List-Unsubscribe` or `List-Post`, or `Precedence: list` (discussion lists and newsletters alike).'),
  isFromSelf: z.boolean().describe('Sent by the mailbox’s own address.'),
  isBulk: z
    .boolean()
    .describe('Mass mail (newsletters, marketing): `Precedence: bulk` or `junk`, or a list one can leave but not write to; never an auto-reply or a delivery report. Added to the spec’s four signals.'),
  isDeliveryReport: z
    .boolean()
    .describe('A bounce, delay notice or read receipt: `multipart/report` (DSN, MDN), `X-Failed-Recipients`, or sent by `MAILER-DAEMON`. Added to the spec’s four signals.'),
  isCalendar: z.boolean().describe('Carries an iCalendar part (`text/calendar`): invitations, updates, cancellations, answers. Added to the spec’s four signals.'),
});

export const messageSummarySchema = z
  .object({
    id: z.uuid(),
    mailboxId: z.uuid(),
    from: addressSchema.nullable(),
    subject: z.string().nullable(),
    snippet: z.string().nullable(),
    receivedAt: isoDateTime,
    folderLabels: z.array(z.string()).describe('The folder key where the message is seen, then its extra labels.'),
    flags: messageFlagsSchema,
    signals: messageSignalsSchema,
    hasAttachments: z.boolean(),
  })
  .meta({ id: 'MessageSummary' });

export type MessageSummary = z.infer<typeof messageSummarySchema>;

/** The seven system roles plus `all`; `starred` and `all` are virtual (no folder of their own). */
export const folderRoles = ['inbox', 'starred', 'sent', 'drafts', 'archive', 'all', 'spam', 'trash'] as const;
export type FolderRole = (typeof folderRoles)[number];
export const virtualRoles: ReadonlySet<FolderRole> = new Set(['starred', 'all']);

export function isFolderRole(value: string): value is FolderRole {
  return (folderRoles as readonly string[]).includes(value);
}

/** The grammar of `q`, the same for threads and messages (see ./search/query.ts). */
export const qGrammar =
  'Words are matched as word prefixes in the subject, the preview and the sender (name or address), all of them (AND); `"a quoted phrase"` matches those characters in that order; `from:word` (or `from:"Some Name"`) matches the sender only; `-word` excludes. Case-insensitive; at most 200 characters and 10 terms.';

export const qParam = z.string().max(200).optional().describe(qGrammar);

export const mailboxIdParam = z.uuid().optional().describe('One of your mailboxes; without it, all of them.');

export const cursorParam = z.string().max(500).optional().describe('The `nextCursor` of the previous page (opaque).');

/**
 * A boolean query parameter: exactly `true` or `false` (the document lists both; `?x=0` or `?x=yes`
 * is a 400 rather than a guess).
 */
export function booleanQuery(description: string) {
  return z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true')
    .describe(description);
}
