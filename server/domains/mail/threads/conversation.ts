/**
 * A thread read as a conversation, for the engine's mail.read_thread (through ./engine-api.ts): from one
 * message of the member's mirror, its thread's latest messages with their direction (outbound when from
 * the mailbox's own address), the participants, the last inbound message a person wrote and the last
 * outbound one (over the whole thread, not only the messages read), and whether the mailbox is awaiting a
 * reply: its last message has no later inbound message from a person (an out-of-office answer, a bounce
 * or a newsletter does not count as an answer).
 */
import type { ThreadAddress, ThreadMessage, ThreadRead } from '../../../engine/contract/capabilities';
import { addressesOf } from '../present';
import { findConversationAnchor, lastConversationMessages, latestConversationMessages, type ConversationRow } from './repo-conversation';

/**
 * The most messages one read answers, recipients kept per message (To and Cc each) and participants: a
 * read stays well within the 256 KB a step keeps, even for mail sent to hundreds of people.
 */
export const conversationBounds = { messages: 50, recipients: 10, participants: 50 } as const;

function addressList(value: unknown): ThreadAddress[] {
  return addressesOf(value)
    .slice(0, conversationBounds.recipients)
    .map((address) => ({ name: address.name ?? null, email: address.email }));
}

function presentMessage(row: ConversationRow): ThreadMessage {
  const recipients = (row.recipients ?? {}) as { to?: unknown; cc?: unknown };
  return {
    id: row.id,
    direction: row.outbound ? 'outbound' : 'inbound',
    from: { name: row.from_name, email: row.from_email },
    to: addressList(recipients.to),
    cc: addressList(recipients.cc),
    subject: row.subject,
    snippet: row.snippet,
    receivedAt: row.received_at.toISOString(),
    folder: row.folder,
    hasAttachments: row.has_attachments,
    automatic: row.automatic,
    signals: {
      isAutoReply: row.is_auto_reply,
      isNoReply: row.is_no_reply,
      isMailingList: row.is_mailing_list,
      isBulk: row.is_bulk,
      isDeliveryReport: row.is_delivery_report,
      isCalendar: row.is_calendar,
    },
  };
}

/** Everyone in From, To and Cc, in order of appearance, each address once (ignoring case), the mailbox's own left out. */
export function participantsOf(messages: readonly ThreadMessage[], mailboxAddress: string): ThreadAddress[] {
  const own = mailboxAddress.trim().toLowerCase();
  const seen = new Set<string>([own]);
  const participants: ThreadAddress[] = [];
  for (const message of messages) {
    const sender = message.from.email ? [{ name: message.from.name, email: message.from.email }] : [];
    for (const address of [...sender, ...message.to, ...message.cc]) {
      const key = address.email.trim().toLowerCase();
      if (key === '' || seen.has(key)) continue;
      seen.add(key);
      participants.push({ name: address.name, email: address.email });
      if (participants.length === conversationBounds.participants) return participants;
    }
  }
  return participants;
}

/** The conversation of `messageId`, or null when the message is not in the member's mirror. */
export async function conversationOf(memberId: string, messageId: string, limit: number): Promise<ThreadRead | null> {
  const anchor = await findConversationAnchor(memberId, messageId);
  if (!anchor) return null;
  const take = Math.max(1, Math.min(Math.trunc(limit), conversationBounds.messages));
  const latest = await latestConversationMessages(anchor, take);
  const lasts = (await lastConversationMessages(anchor)).map(presentMessage);
  const messages = latest.rows.map(presentMessage).reverse();
  const lastInbound = lasts.find((message) => message.direction === 'inbound') ?? null;
  const lastOutbound = lasts.find((message) => message.direction === 'outbound') ?? null;
  return {
    threadId: anchor.thread_id,
    mailboxId: anchor.mailbox_id,
    mailboxAddress: anchor.address,
    subject: messages[0]?.subject ?? null,
    messageCount: latest.total,
    messages,
    truncated: latest.total > messages.length,
    participants: participantsOf(messages, anchor.address),
    lastInbound,
    lastOutbound,
    awaitingReply: lastOutbound !== null && (lastInbound === null || isLater(lastOutbound, lastInbound)),
  };
}

function isLater(a: ThreadMessage, b: ThreadMessage): boolean {
  return a.receivedAt > b.receivedAt || (a.receivedAt === b.receivedAt && a.id > b.id);
}
