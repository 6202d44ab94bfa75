/**
 * A message of the mirror as the dispatcher reads it (one row with its mailbox's member and folder role),
 * the mail trigger data built from it (`summaryOf`: real dispatch, a test run's pinned message and the
 * reply that wakes a wait for a reply hand workflows one shape) and the sender exclusions that keep a
 * sender's mail from the member's workflows. Shared by ./dispatch-mail.ts and ./reply-waits.ts.
 */
import type { Tx } from '../../core/db';
import type { MailTriggerData } from '../nodes/triggers/mail-trigger.node.ts';
import { engineComposition } from '../composition';
import { messageContentOf } from './message-content';

export interface QueuedMessage {
  id: string;
  mailboxId: string;
  /** Its Message-ID header (null when it has none). */
  messageIdHeader: string | null;
  memberId: string;
  threadId: string | null;
  subject: string | null;
  snippet: string | null;
  fromName: string | null;
  fromEmail: string | null;
  recipients: unknown;
  receivedAt: Date;
  labels: string[];
  folderKey: string;
  folderRole: string | null;
  hasAttachments: boolean;
  isAutoReply: boolean;
  isNoReply: boolean;
  isMailingList: boolean;
  isFromSelf: boolean;
  isBulk: boolean;
  isDeliveryReport: boolean;
  isCalendar: boolean;
}

/** The domain of an address and every parent domain (`a.b.example.com` → itself, `b.example.com`, `example.com`, `com`). */
export function domainsOf(email: string): string[] {
  const at = email.lastIndexOf('@');
  if (at < 0) return [];
  const labels = email
    .slice(at + 1)
    .toLowerCase()
    .split('.')
    .filter((label) => label.length > 0);
  return labels.map((_, index) => labels.slice(index).join('.'));
}

export async function loadMessage(tx: Tx, messageId: string): Promise<QueuedMessage | null> {
  const rows = await tx.$queryRaw<QueuedMessage[]>`
    SELECT m.id, m.mailbox_id AS "mailboxId", m.message_id_header AS "messageIdHeader", b.member_id AS "memberId", m.thread_id AS "threadId", m.subject, m.snippet,
           m.from_name AS "fromName", m.from_email AS "fromEmail", m.recipients, m.received_at AS "receivedAt", m.labels,
           m.folder_key AS "folderKey", f.role AS "folderRole", m.has_attachments AS "hasAttachments",
           m.is_auto_reply AS "isAutoReply", m.is_no_reply AS "isNoReply", m.is_mailing_list AS "isMailingList",
           m.is_from_self AS "isFromSelf", m.is_bulk AS "isBulk", m.is_delivery_report AS "isDeliveryReport",
           m.is_calendar AS "isCalendar"
      FROM mail_messages m
      JOIN mailboxes b ON b.id = m.mailbox_id
      LEFT JOIN mail_folders f ON f.mailbox_id = m.mailbox_id AND f.key = m.folder_key
     WHERE m.id = ${messageId}::uuid`;
  return rows[0] ?? null;
}

export async function signalsOf(tx: Tx, message: QueuedMessage): Promise<string[]> {
  const rows = await tx.messageSignal.findMany({
    where: { OR: [{ messageId: message.id }, ...(message.threadId ? [{ threadId: message.threadId }] : [])] },
    select: { name: true },
  });
  return [...new Set(rows.map((row) => row.name))];
}

/**
 * The exclusion that decides for mail from `fromEmail` to this member, or null: the organisation's
 * first, then the member's; addresses before domains (a domain covers its subdomains). Also what a
 * replay checks ("the email sender is now excluded from the member's scope").
 */
export async function senderExclusionOf(tx: Pick<Tx, 'senderExclusion'>, memberId: string, fromEmail: string | null) {
  const email = fromEmail?.trim().toLowerCase();
  if (!email) return null;
  const rows = await tx.senderExclusion.findMany({
    where: {
      OR: [{ memberId: null }, { memberId }],
      AND: [{ OR: [{ kind: 'address', value: email }, { kind: 'domain', value: { in: domainsOf(email) } }] }],
    },
    select: { id: true, memberId: true, kind: true },
  });
  const rank = (row: { memberId: string | null; kind: string }) => (row.memberId === null ? 0 : 2) + (row.kind === 'address' ? 0 : 1);
  const decided = rows.sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id))[0];
  return decided ? { id: decided.id, outcome: decided.memberId === null ? ('excluded_org' as const) : ('excluded_member' as const) } : null;
}

type Address = { name?: string | null; email: string };

function addressesOf(value: unknown): { name: string | null; email: string }[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((item): item is Address => typeof item === 'object' && item !== null && typeof (item as Address).email === 'string')
    .map((item) => ({ name: item.name ?? null, email: item.email }));
}

/**
 * The message summary a mail-triggered run receives as its trigger data, with the sender's address
 * book entry (`contact`, from the mailbox's point of view; the composition's read, so the engine imports
 * no domain). Built once per message whatever the number of workflows it starts, and only for a message
 * that starts one, and only when a trigger asks for it (`senderCard`): a fixed set of small indexed
 * reads (the contacts domain's `resolveContact`), the same for a sender nobody has a card for. The body
 * as text and the attachments' metadata come from `messageContentOf` (bounded: 64 KB, 50 rows).
 */
export async function summaryOf(tx: Tx, message: QueuedMessage, withSenderCard: boolean): Promise<MailTriggerData> {
  const recipients = (message.recipients ?? {}) as { to?: unknown; cc?: unknown };
  const contact = withSenderCard ? await engineComposition().reads.senderContact(tx, { memberId: message.memberId, mailboxId: message.mailboxId, address: message.fromEmail }) : null;
  const content = await messageContentOf(tx, message.id);
  return {
    id: message.id,
    mailboxId: message.mailboxId,
    threadId: message.threadId,
    subject: message.subject,
    from: { name: message.fromName, email: message.fromEmail },
    to: addressesOf(recipients.to),
    cc: addressesOf(recipients.cc),
    receivedAt: message.receivedAt.toISOString(),
    snippet: message.snippet,
    text: content.text,
    textTruncated: content.textTruncated,
    attachments: content.attachments,
    attachmentsTruncated: content.attachmentsTruncated,
    labels: message.labels,
    folder: message.folderRole ?? message.folderKey,
    hasAttachments: message.hasAttachments,
    // What ingest found, so a workflow that admits lists or auto-replies can still tell them apart.
    isMailingList: message.isMailingList,
    isAutoReply: message.isAutoReply,
    isNoReply: message.isNoReply,
    isBulk: message.isBulk,
    isDeliveryReport: message.isDeliveryReport,
    isCalendar: message.isCalendar,
    signals: await signalsOf(tx, message),
    contact,
  };
}
