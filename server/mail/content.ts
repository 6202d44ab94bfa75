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
          const mailbox = { id: message.mailbox.id, memberId: message.mailbox.memberId, address: message.mailbox.address, syncMode: 'full' as const };
          const incoming: IncomingMessage = {
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
          await createMirrorSink(mailbox).fillBodies({ messages: [{ messageId: message.id, incoming }], missing: [] });
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

function mirrored(message: { bodyText: string | null; bodyHtml: string | null; bodyComplete: boolean }): Omit<FetchedContent, 'attachment'> {
  return { bodyText: message.bodyText, bodyHtml: message.bodyHtml, bodyComplete: message.bodyComplete, fetched: false, failure: null };
}
