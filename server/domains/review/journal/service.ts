/**
 * The sending journal: each send attempt with its result, provider message id and error kind (written
 * by the send pipeline), and each decision that stopped or settled a send (a rejection with its
 * reason, a cancel, a hold and its release, a verdict on an `unknown` send). The member's only.
 */
import type { AuthenticatedActor } from '../../../core/auth/access';
import { decodeCursor, pageOf } from '../../../core/http/cursor';
import type { SendingJournalEntry } from '../../../generated/prisma/client';
import { findJournalPage, headlinesOf } from '../repo';
import type { ListSendingJournalInput } from '../schemas';
import { journalEvents } from '../schemas';

type Event = (typeof journalEvents)[number];

export function presentJournalEntry(row: SendingJournalEntry, headline: { subject: string; recipients: string[] } | undefined) {
  const optional = <K extends string, V>(key: K, value: V | null | undefined) => (value == null ? {} : ({ [key]: value } as Record<K, V>));
  return {
    id: row.id,
    outboundId: row.outboundId,
    mailboxId: row.mailboxId,
    event: row.event as Event,
    ...optional('attempt', row.attempt),
    ...optional('result', row.result),
    ...optional('providerMessageId', row.providerMessageId),
    ...optional('errorKind', row.errorKind),
    ...optional('errorMessage', row.errorMessage),
    ...optional('reason', row.reason),
    createdAt: row.createdAt.toISOString(),
    ...optional('startedAt', row.startedAt?.toISOString()),
    ...optional('finishedAt', row.finishedAt?.toISOString()),
    subject: headline?.subject ?? '',
    recipients: headline?.recipients ?? [],
  };
}

/** Newest first; an unreadable cursor gives the first page. */
export async function listSendingJournal(actor: AuthenticatedActor, query: ListSendingJournalInput) {
  const rows = await findJournalPage(actor.member.id, query, decodeCursor(query.cursor), query.limit + 1);
  const { items, nextCursor } = pageOf(rows, query.limit, (row) => row.createdAt);
  const headlines = await headlinesOf(items.map((item) => item.outboundId));
  return { entries: items.map((item) => presentJournalEntry(item, headlines.get(item.outboundId))), nextCursor };
}
