/**
 * On-demand content: a message whose body was not mirrored (`bodyComplete` false: processing_only,
 * a message too large to fetch whole, parts beyond the ingest bounds, a message listed from its header
 * the body pass has not reached yet) or whose attachment content is
 * missing is read from the provider when a member opens it or downloads the attachment (web process:
 * the message read and attachment download routes call this after checking the member's access; it
 * checks none itself).
 *
 * In `full` mode what was fetched is stored (body columns, attachment blobs), so the next read is
 * served by the mirror; called without `attachmentPosition` it completes the body and every
 * attachment without content. In `processing_only` nothing is stored: the content is returned only
 * (a download passes `attachmentPosition` and uses the `attachment` of the answer).
 *
 * Never throws for the provider's failures (unreachable, refused, gone): the answer then carries what
 * the mirror has, `fetched: false` and the failure's kind, and the caller answers with it.
 */
import { db } from '../core/db';
import type { Prisma } from '../generated/prisma/client';
import { blobKeys, blobStore } from '../core/storage/blob-store';
import { openAdapter } from './adapters';
import { ingestMessage } from './ingest/ingest';
import { createMirrorSink } from './mirror/writer';
import type { IncomingMessage, MailProviderAdapter } from './provider';
import { classifySyncError, type SyncErrorKind } from './sync-errors';
import { withDeadline } from './with-deadline';

export interface FetchedContent {
  bodyText: string | null;
  bodyHtml: string | null;
  bodyComplete: boolean;
  /** The requested attachment's bytes (`attachmentPosition`), or null when it has none or it could not be read. */
  attachment: { content: Buffer; mime: string; filename: string } | null;
  /** Whether the provider was asked (false: served from the mirror, or the provider failed). */
  fetched: boolean;
  /** When the provider failed. */
  failure: SyncErrorKind | null;
}

/** Longest a read waits on the provider. */
const deadlineMs = 20_000;

export async function fetchMessageContent(messageId: string, options: { attachmentPosition?: number } = {}): Promise<FetchedContent | null> {
  const message = await db().mailMessage.findUnique({
    where: { id: messageId },
    include: {
      attachments: { orderBy: { position: 'asc' } },
      mailbox: { include: { credential: { select: { id: true, dataEnc: true } } } },
    },
  });
  if (!message) return null;
  const wanted = options.attachmentPosition === undefined ? null : (message.attachments.find((row) => row.position === options.attachmentPosition) ?? null);
  if (options.attachmentPosition !== undefined && !wanted) return { ...mirrored(message), attachment: null };

  const stored = wanted?.blobKey ? await blobStore().get(wanted.blobKey) : null;
  if (wanted && stored) return { ...mirrored(message), attachment: { content: stored, mime: wanted.mime, filename: wanted.filename } };
  // Without a position: the body, and in full mode any attachment content the mirror lacks.
  const full = message.mailbox.syncMode !== 'processing_only';
  const contentMissing = full && message.attachments.some((row) => row.blobKey === null);
  if (!wanted && message.bodyComplete && !contentMissing) return { ...mirrored(message), attachment: null };
  if (message.mailbox.status === 'disconnected') return { ...mirrored(message), attachment: null };

  let adapter: MailProviderAdapter | null = null;
  try {
    return await withDeadline(
      (async () => {
        const opened = await openAdapter(message.mailbox);
        adapter = opened.adapter;
        const locator = { providerKey: message.providerKey, folderKey: message.folderKey, uid: message.uid, uidValidity: message.uidValidity, messageIdHeader: message.messageIdHeader };
        const source = await opened.adapter.fetchContent(locator);
        if (!source) return { ...mirrored(message), attachment: null, fetched: true };
        const ingested = await ingestMessage(source.content, { mailboxAddress: message.mailbox.address, mode: 'full', sourceComplete: source.complete });
        let attachment: FetchedContent['attachment'] = null;
        if (wanted) {
          const part = ingested.attachments.find((row) => row.position === wanted.position);
          let content = part?.content ?? null;
          // Cut from the source (a very large message): read the part alone.
          if (!content && wanted.partRef) content = (await opened.adapter.fetchContent(locator, { part: wanted.partRef }))?.content ?? null;
          if (content) attachment = { content, mime: wanted.mime, filename: wanted.filename };
        }
        if (full && message.bodyPending && !wanted) {
          // Listed from its header and opened before the body pass reached it: filled as the pass fills it (the
          // snippet, the signals its parts give, its attachments and its thread), so the answer lists them too.
          await listedSinkOf(message.mailbox).fillBodies({ messages: [{ messageId: message.id, incoming: listedIncomingOf(message, source) }], missing: [] });
        } else if (full) {
          await db().$transaction(async (tx) => {
            await tx.mailMessage.update({
              where: { id: message.id },
              data: { bodyText: ingested.bodyText, bodyHtml: ingested.bodyHtml, bodyComplete: ingested.bodyComplete },
            });
            for (const part of ingested.attachments) {
              const row = message.attachments.find((known) => known.position === part.position);
              const isWanted = wanted !== null && part.position === wanted.position;
              const content = isWanted ? (attachment?.content ?? null) : part.content;
              // The wanted one was read because its blob is missing (never stored, or purged).
              if (!row || !content || (row.blobKey && !isWanted)) continue;
              const key = blobKeys.attachment(message.id, part.position);
              await blobStore().put(key, content, tx);
              await tx.mailAttachment.update({ where: { id: row.id }, data: { blobKey: key } });
            }
          });
        }
        return { bodyText: ingested.bodyText, bodyHtml: ingested.bodyHtml, bodyComplete: ingested.bodyComplete, attachment, fetched: true, failure: null };
      })(),
      deadlineMs,
      () => void (adapter as MailProviderAdapter | null)?.close(),
      () => Object.assign(new Error('The mail server did not answer in time.'), { code: 'ETIMEOUT' }),
    );
  } catch (error) {
    return { ...mirrored(message), attachment: null, failure: classifySyncError(error).kind };
  } finally {
    await (adapter as MailProviderAdapter | null)?.close().catch(() => {});
  }
}

type ListedRow = Pick<
  Prisma.MailMessageGetPayload<object>,
  'id' | 'providerKey' | 'folderKey' | 'labels' | 'uid' | 'uidValidity' | 'modseq' | 'seen' | 'flagged' | 'draft' | 'sent' | 'receivedAt' | 'size'
>;

/** A listed row with its whole source, as the body pass hands it to the writer. */
function listedIncomingOf(message: ListedRow, source: { content: Buffer; complete: boolean }): IncomingMessage {
  return {
    providerKey: message.providerKey,
    folderKey: message.folderKey,
    labels: message.labels,
    uid: message.uid,
    uidValidity: message.uidValidity,
    modseq: message.modseq,
    flags: { seen: message.seen, flagged: message.flagged, draft: message.draft, sent: message.sent },
    internalDate: message.receivedAt,
    size: message.size,
    source: source.content,
    sourceComplete: source.complete,
  };
}

function listedSinkOf(mailbox: { id: string; memberId: string; address: string }) {
  return createMirrorSink({ id: mailbox.id, memberId: mailbox.memberId, address: mailbox.address, syncMode: 'full' });
}

/** At most this many listed rows filled per call: a conversation's read (mail.read_thread reads at most 50). */
const listedFillLimit = 50;
/**
 * A slow server stops the fetching after this long, and what was fetched by then is written (the rest waits for the
 * pass): a read that reached the deadline wrote nothing, and the next read of the thread paid the same wait again.
 */
const listedFetchBudgetMs = deadlineMs / 2;

/**
 * Fills, as the body pass would, the rows among `messageIds` that a large first sync listed from their headers and
 * the pass has not reached, over one connection per mailbox: for a reader of several messages at once (a workflow
 * reading a conversation), which would otherwise see them without body, preview or signals (an out-of-office read as
 * a person's answer). Within the read's deadline; never throws: a provider that cannot be reached, or a message it no
 * longer has, leaves the rows as they are. Answers how many it filled.
 */
export async function completeListedMessages(messageIds: readonly string[]): Promise<number> {
  if (messageIds.length === 0) return 0;
  const rows = await db().mailMessage.findMany({
    where: { id: { in: [...messageIds].slice(0, listedFillLimit) }, bodyPending: true, mailbox: { status: { not: 'disconnected' } } },
    include: { mailbox: { include: { credential: { select: { id: true, dataEnc: true } } } } },
    orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
  });
  let filled = 0;
  for (const group of Map.groupBy(rows, (row) => row.mailboxId).values()) {
    const mailbox = group[0]!.mailbox;
    let adapter: MailProviderAdapter | null = null;
    try {
      filled += await withDeadline(
        (async () => {
          const opened = await openAdapter(mailbox);
          adapter = opened.adapter;
          const messages: { messageId: string; incoming: IncomingMessage }[] = [];
          const stopAt = Date.now() + listedFetchBudgetMs;
          for (const row of group) {
            if (Date.now() > stopAt) break;
            const locator = { providerKey: row.providerKey, folderKey: row.folderKey, uid: row.uid, uidValidity: row.uidValidity, messageIdHeader: row.messageIdHeader };
            const source = await opened.adapter.fetchContent(locator);
            if (source) messages.push({ messageId: row.id, incoming: listedIncomingOf(row, source) });
          }
          return messages.length > 0 ? (await listedSinkOf(mailbox).fillBodies({ messages, missing: [] })).filled : 0;
        })(),
        deadlineMs,
        () => void (adapter as MailProviderAdapter | null)?.close(),
        () => Object.assign(new Error('The mail server did not answer in time.'), { code: 'ETIMEOUT' }),
      );
    } catch {
      // The rows stay listed: the body pass fills them in its turn, and the reader reads what the mirror has.
    } finally {
      await (adapter as MailProviderAdapter | null)?.close().catch(() => {});
    }
  }
  return filled;
}

function mirrored(message: { bodyText: string | null; bodyHtml: string | null; bodyComplete: boolean }): Omit<FetchedContent, 'attachment'> {
  return { bodyText: message.bodyText, bodyHtml: message.bodyHtml, bodyComplete: message.bodyComplete, fetched: false, failure: null };
}
