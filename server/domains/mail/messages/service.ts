/** Reading messages: the list (most recent first, `q`) and one full message with its safe body. */
import type { AuthenticatedActor } from '../../../core/auth/access';
import { appError } from '../../../core/errors/app-error';
import { decodeCursor, pageOf } from '../../../core/http/cursor';
import { addressesOf, presentMessageSummary, recordOf, type MessageSummaryRow } from '../present';
import { mailboxesInScope, runStatement } from '../repo';
import { preparedSearchOf } from '../search/prepare';
import { attachmentDownloadPath } from './links';
import { messageListStatement } from './list-statement';
import { completeMessage } from './complete';
import { findMemberMessage } from './repo';
import { safeBodyOf } from './safe-body';
import { listUnsubscribeOfRow } from './unsubscribe';
import { mailtoParts } from '../../../mail/ingest/unsubscribe';
import type { ListMessagesInput, MessageOutput } from './schemas';

export async function listMessages(actor: AuthenticatedActor, input: ListMessagesInput) {
  const mailboxes = await mailboxesInScope(actor.member.id, input.mailboxId);
  const search = await preparedSearchOf(input.q);
  if (mailboxes.length === 0) return { messages: [], nextCursor: null };
  const rows = await runStatement<MessageSummaryRow>(
    messageListStatement({ mailboxIds: mailboxes.map((mailbox) => mailbox.id), search, after: decodeCursor(input.cursor), take: input.limit + 1 }),
  );
  const { items, nextCursor } = pageOf(rows, input.limit, (row) => row.received_at);
  return { messages: items.map(presentMessageSummary), nextCursor };
}

function notFound(): never {
  throw appError('request.not_found', { message: 'No such message.' });
}

export async function getMessage(actor: AuthenticatedActor, input: { id: string; allowRemoteImages: boolean }): Promise<MessageOutput> {
  const found = await findMemberMessage(actor.member.id, input.id);
  if (!found) notFound();
  const message = await completeMessage(actor.member.id, found);
  const attachments = message.attachments.map((attachment) => ({
    id: attachment.id,
    position: attachment.position,
    filename: attachment.filename,
    mime: attachment.mime,
    size: attachment.size,
    disposition: attachment.disposition === 'inline' ? ('inline' as const) : ('attachment' as const),
    contentId: attachment.contentId,
    downloadUrl: attachmentDownloadPath(message.id, attachment.position),
  }));
  const body = await safeBodyOf(message, input.allowRemoteImages);
  const recipients = recordOf(message.recipients);
  return {
    ...presentMessageSummary({
      id: message.id,
      mailbox_id: message.mailboxId,
      from_name: message.fromName,
      from_email: message.fromEmail,
      subject: message.subject,
      snippet: message.snippet,
      received_at: message.receivedAt,
      folder_key: message.folderKey,
      labels: message.labels,
      seen: message.seen,
      flagged: message.flagged,
      draft: message.draft,
      sent: message.sent,
      is_auto_reply: message.isAutoReply,
      is_no_reply: message.isNoReply,
      is_mailing_list: message.isMailingList,
      is_from_self: message.isFromSelf,
      is_bulk: message.isBulk,
      is_delivery_report: message.isDeliveryReport,
      is_calendar: message.isCalendar,
      has_attachments: message.hasAttachments,
    }),
    threadId: message.threadId,
    classification: recordOf(message.classification),
    bodyText: message.bodyText,
    bodyHtmlSafe: body.html,
    hasRemoteImages: body.hasRemoteImages,
    bodyComplete: message.bodyComplete,
    headersSubset: {
      to: addressesOf(recipients.to),
      cc: addressesOf(recipients.cc),
      replyTo: addressesOf(recipients.replyTo),
      date: message.dateHeader,
      messageIdHeader: message.messageIdHeader,
    },
    attachments,
    listUnsubscribe: presentListUnsubscribe(message.listUnsubscribe),
  };
}

function presentListUnsubscribe(value: unknown): MessageOutput['listUnsubscribe'] {
  const found = listUnsubscribeOfRow(value);
  if (!found) return null;
  return { oneClick: found.oneClickUrl !== null, mailto: found.mailto ? mailtoParts(found.mailto) : null };
}
