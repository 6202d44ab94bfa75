/**
 * Mirror rows for tests of the read side (mailboxes, folders, threads, messages) when no real mail
 * server is involved. Sync tests fill the mirror through the real sync instead.
 */
import { randomUUID } from 'node:crypto';
import { db } from '../core/db';
import { createMirrorSink } from '../mail/mirror/writer';
import { recomputeThreads } from '../mail/threads/attach';
import type { IncomingMessage } from '../mail/provider';
import type { TestMember } from './factories';
import { buildRawMessage } from './mail-servers/deliver';

let deliveredUid = 0;

/**
 * A message as a provider adapter hands it to the mirror's writer: in the INBOX, unread, a provider key of its own
 * (an OAuth provider's: no IMAP uid), the raw MIME `source` given (its subject is the provider key unless given).
 */
export async function providerMessage(providerKey: string, mime: Partial<Parameters<typeof buildRawMessage>[0]> = {}): Promise<IncomingMessage> {
  return {
    providerKey,
    folderKey: 'INBOX',
    labels: [],
    uid: null,
    uidValidity: null,
    modseq: null,
    flags: { seen: false, flagged: false, draft: false, sent: false },
    internalDate: new Date('2026-01-05T10:00:00Z'),
    size: 10,
    source: await buildRawMessage({ from: 'a@example.test', to: 'me@example.test', subject: providerKey, text: 'x', ...mime }),
    sourceComplete: true,
  };
}

/**
 * A raw MIME message arriving as new mail in the mailbox's INBOX through the mirror's real writer (parsing,
 * bodies, attachments, signals), as the sync would commit it; `dispatchNewMail` then starts its runs.
 */
export async function mirrorRawMessage(
  mailbox: { id: string; memberId: string; address: string },
  source: Buffer,
  options: { syncMode?: 'full' | 'processing_only' } = {},
): Promise<void> {
  deliveredUid += 1;
  const message = {
    providerKey: `INBOX\n1\n${deliveredUid}`,
    folderKey: 'INBOX',
    labels: [],
    uid: BigInt(deliveredUid),
    uidValidity: 1n,
    modseq: null,
    flags: { seen: false, flagged: false, draft: false, sent: false },
    internalDate: new Date(),
    size: source.length,
    source,
    sourceComplete: true,
  };
  const sink = createMirrorSink({ id: mailbox.id, memberId: mailbox.memberId, address: mailbox.address, syncMode: options.syncMode ?? 'full' });
  await sink.commit({ ingestedVia: 'delta', messages: [message], flagUpdates: [], removedProviderKeys: [], cursors: [] });
}

export const systemFolders = [
  { key: 'INBOX', role: 'inbox' },
  { key: 'Sent', role: 'sent' },
  { key: 'Drafts', role: 'drafts' },
  { key: 'Archive', role: 'archive' },
  { key: 'Junk', role: 'spam' },
  { key: 'Trash', role: 'trash' },
] as const;

export async function createMailbox(
  member: Pick<TestMember, 'id'>,
  options: { address?: string; provider?: 'imap' | 'mail_provider_a' | 'mail_provider_b'; status?: 'active' | 'disconnected' | 'error'; folders?: boolean } = {},
) {
  const mailbox = await db().mailbox.create({
    data: {
      memberId: member.id,
      provider: options.provider ?? 'imap',
      address: options.address ?? `box-${randomUUID().slice(0, 8)}@example.test`,
      status: options.status ?? 'active',
    },
  });
  if (options.folders !== false) {
    await db().mailFolder.createMany({
      data: systemFolders.map((folder) => ({ mailboxId: mailbox.id, key: folder.key, role: folder.role, name: folder.key })),
    });
  }
  return mailbox;
}

export interface TestMessageOptions {
  folderKey?: string;
  threadId?: string;
  subject?: string;
  fromEmail?: string;
  fromName?: string;
  receivedAt?: Date;
  seen?: boolean;
  flagged?: boolean;
  snippet?: string;
  bodyText?: string | null;
  bodyHtml?: string | null;
  hasAttachments?: boolean;
  messageIdHeader?: string;
  recipients?: { to?: { name?: string; email: string }[]; cc?: { name?: string; email: string }[] };
  draft?: boolean;
  /** Ingest signals (all false by default). */
  signals?: Partial<Record<'isAutoReply' | 'isNoReply' | 'isMailingList' | 'isFromSelf' | 'isBulk' | 'isDeliveryReport' | 'isCalendar', boolean>>;
}

/** A message in its own thread (or the given one); the thread's columns are recomputed as the sync does. */
export async function createMessage(mailbox: { id: string }, options: TestMessageOptions = {}) {
  const receivedAt = options.receivedAt ?? new Date();
  const threadId =
    options.threadId ??
    (await db().mailThread.create({ data: { mailboxId: mailbox.id, subject: options.subject ?? 'Hello', lastMessageAt: receivedAt } })).id;
  const folderKey = options.folderKey ?? 'INBOX';
  const message = await db().mailMessage.create({
    data: {
      mailboxId: mailbox.id,
      threadId,
      providerKey: `${folderKey}\n1\n${randomUUID()}`,
      folderKey,
      subject: options.subject ?? 'Hello',
      snippet: options.snippet ?? 'A short preview',
      fromEmail: options.fromEmail ?? 'sender@example.test',
      fromName: options.fromName ?? 'Sender',
      receivedAt,
      seen: options.seen ?? false,
      flagged: options.flagged ?? false,
      bodyText: options.bodyText === undefined ? 'Body text' : options.bodyText,
      bodyHtml: options.bodyHtml ?? null,
      bodyComplete: true,
      hasAttachments: options.hasAttachments ?? false,
      messageIdHeader: options.messageIdHeader ?? `<${randomUUID()}@example.test>`,
      ingestedVia: 'delta',
      recipients: options.recipients ?? {},
      draft: options.draft ?? false,
      ...options.signals,
    },
  });
  await recomputeThreads(db(), [threadId]);
  await db().mailbox.update({ where: { id: mailbox.id }, data: { messageCount: { increment: 1 } } });
  return message;
}
