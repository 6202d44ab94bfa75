/**
 * Attachment content: downloads of a mirrored message's attachments, and uploads kept for later
 * drafts and sends. Content lives behind the blob store (server/core/storage/blob-store.ts).
 */
import { randomUUID } from 'node:crypto';
import type { AuthenticatedActor } from '../../../core/auth/access';
import { db } from '../../../core/db';
import { appError } from '../../../core/errors/app-error';
import { fetchMessageContent } from '../../../mail/content';
import { log } from '../../../core/log';
import { blobKeys, blobStore } from '../../../core/storage/blob-store';
import { findMemberAttachment } from '../messages/repo';
import { insertUploadedAttachment } from './repo';
import { safeFilename } from './download-headers';
import { refusalOf, sniffBytes } from './executable';
import { readSingleFile } from './multipart';

/** Largest upload (spec, Limits: 25 MB). */
export const maxUploadBytes = 25 * 1024 * 1024;
/** The body bound of the upload route: the file plus the multipart framing around it. */
export const maxUploadBodyBytes = maxUploadBytes + 64 * 1024;
/** How long an upload waits for a draft or a send to use it (housekeeping removes it after). */
export const uploadLifetimeMs = 24 * 60 * 60 * 1000;

/** The one answer for another member's message, an unknown message or position, and purged content. */
function noSuchAttachment(): never {
  throw appError('request.not_found', { message: 'No such attachment.' });
}

export interface AttachmentDownload {
  content: Buffer;
  filename: string;
  mime: string;
}

/** Content not mirrored is fetched from the server; what still has none is purged (404). */
export async function downloadAttachment(actor: AuthenticatedActor, messageId: string, position: number): Promise<AttachmentDownload> {
  const attachment = await findMemberAttachment(actor.member.id, messageId, position);
  if (!attachment) noSuchAttachment();
  let content = attachment.blobKey ? await blobStore().get(attachment.blobKey) : null;
  if (!content) {
    try {
      content = (await fetchMessageContent(messageId, { attachmentPosition: position }))?.attachment?.content ?? null;
    } catch (error) {
      log.warn({ messageId, err: error instanceof Error ? error.message : String(error) }, 'attachment content could not be fetched');
    }
  }
  if (!content) noSuchAttachment();
  return { content, filename: attachment.filename, mime: attachment.mime };
}

const storedMediaType = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

export async function uploadAttachment(actor: AuthenticatedActor, body: ReadableStream<Uint8Array>, contentType: string) {
  const file = await readSingleFile(body, contentType, maxUploadBytes);
  const filename = safeFilename(file.filename);
  const declared = file.mime.split(';', 1)[0].trim().toLowerCase();
  const mime = storedMediaType.test(declared) ? declared : 'application/octet-stream';
  const refusal = refusalOf(file.content.subarray(0, sniffBytes), filename, mime);
  if (refusal) {
    throw appError('request.bad_request', {
      message: 'Executables and scripts cannot be attached.',
      details: { reason: 'attachment_refused', refusal: refusal.reason, detected: refusal.detail },
    });
  }
  const id = randomUUID();
  const expiresAt = new Date(Date.now() + uploadLifetimeMs);
  // Writing up to 25 MB into the blob table takes seconds on a busy database: Prisma's default 5 s
  // would end the transaction mid-commit and answer 500 for a file within the bound.
  await db().$transaction(
    async (tx) => {
      await blobStore().put(blobKeys.upload(id), file.content, tx);
      await insertUploadedAttachment(tx, { id, memberId: actor.member.id, filename, mime, size: file.content.length, blobKey: blobKeys.upload(id), expiresAt });
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
  return { id, filename, mime, size: file.content.length, expiresAt: expiresAt.toISOString() };
}
