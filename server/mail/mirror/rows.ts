/**
 * An incoming provider message → the row written to `mail_messages` (and its attachment rows), after
 * ingest. Kept apart from the writer so the mapping is read in one place.
 */
import { randomUUID } from 'node:crypto';
import { ingestMessage, type IngestedAttachment } from '../ingest/ingest';
import type { ListUnsubscribe } from '../ingest/unsubscribe';
import type { IncomingMessage, IngestedVia } from '../provider';
import { hasReplyPrefix, subjectKey } from '../threads/subject';
import type { ThreadingMessage } from '../threads/plan';

export interface PreparedMessage extends ThreadingMessage {
  row: MessageRow;
  attachments: IngestedAttachment[];
}

/** Column values of one `mail_messages` row, as json_populate_recordset reads them. */
export interface MessageRow {
  id: string;
  mailbox_id: string;
  thread_id: string | null;
  provider_key: string;
  folder_key: string;
  labels: string[];
  uid: string | null;
  uid_validity: string | null;
  modseq: string | null;
  message_id_header: string | null;
  in_reply_to: string | null;
  references: string[];
  subject: string | null;
  snippet: string | null;
  from_name: string | null;
  from_email: string | null;
  recipients: unknown;
  date_header: string | null;
  received_at: string;
  seen: boolean;
  flagged: boolean;
  draft: boolean;
  sent: boolean;
  is_auto_reply: boolean;
  is_no_reply: boolean;
  is_mailing_list: boolean;
  list_id: string | null;
  list_unsubscribe: ListUnsubscribe | null;
  is_from_self: boolean;
  is_bulk: boolean;
  is_delivery_report: boolean;
  is_calendar: boolean;
  has_attachments: boolean;
  size: number;
  body_text: string | null;
  body_html: string | null;
  body_complete: boolean;
  /** Listed from its header: the body pass fills it (./bodies.ts). */
  body_pending: boolean;
  ingested_via: IngestedVia;
}

const maxInt = 2_147_483_647;

export async function prepareMessage(
  mailbox: { id: string; address: string; syncMode: 'full' | 'processing_only' },
  incoming: IncomingMessage,
  ingestedVia: IngestedVia,
  /** The row's id: a new one, or the row the body pass fills. */
  id: string = randomUUID(),
): Promise<PreparedMessage> {
  const parsed = await ingestMessage(incoming.source, { mailboxAddress: mailbox.address, mode: mailbox.syncMode, sourceComplete: incoming.sourceComplete });
  const receivedAt = incoming.internalDate ?? parsed.date ?? new Date();
  const row: MessageRow = {
    id,
    mailbox_id: mailbox.id,
    thread_id: null,
    provider_key: incoming.providerKey,
    folder_key: incoming.folderKey,
    labels: incoming.labels,
    uid: incoming.uid?.toString() ?? null,
    uid_validity: incoming.uidValidity?.toString() ?? null,
    modseq: incoming.modseq?.toString() ?? null,
    message_id_header: parsed.messageIdHeader,
    in_reply_to: parsed.inReplyTo,
    references: parsed.references,
    subject: parsed.subject,
    snippet: parsed.snippet,
    from_name: parsed.from?.name ?? null,
    from_email: parsed.from?.email ?? null,
    recipients: parsed.recipients,
    date_header: parsed.dateHeader,
    received_at: receivedAt.toISOString(),
    seen: incoming.flags.seen,
    flagged: incoming.flags.flagged,
    draft: incoming.flags.draft,
    sent: incoming.flags.sent,
    is_auto_reply: parsed.signals.isAutoReply,
    is_no_reply: parsed.signals.isNoReply,
    is_mailing_list: parsed.signals.isMailingList,
    list_id: parsed.listId,
    list_unsubscribe: parsed.listUnsubscribe,
    is_from_self: parsed.signals.isFromSelf,
    is_bulk: parsed.signals.isBulk,
    is_delivery_report: parsed.signals.isDeliveryReport,
    is_calendar: parsed.signals.isCalendar,
    has_attachments: parsed.hasAttachments,
    size: Math.min(Math.max(0, Math.trunc(incoming.size)), maxInt),
    body_text: parsed.bodyText,
    body_html: parsed.bodyHtml,
    body_complete: parsed.bodyComplete,
    body_pending: incoming.bodyDeferred === true && mailbox.syncMode === 'full',
    ingested_via: ingestedVia,
  };
  return {
    id,
    messageId: parsed.messageIdHeader,
    inReplyTo: parsed.inReplyTo,
    references: parsed.references,
    subjectKey: subjectKey(parsed.subject),
    replyPrefix: hasReplyPrefix(parsed.subject),
    receivedAt,
    row,
    attachments: parsed.attachments,
  };
}
