/**
 * `bodyHtmlSafe` of a message: the stored HTML sanitised on a pool thread (server/mail/sanitize,
 * cached per process by message and content), then its `cid:` images pointed at their attachments'
 * download paths. Never stored.
 */
import { createHash } from 'node:crypto';
import { rewriteCidReferences } from '../../../mail/sanitize/inline-images';
import { sanitizeCached } from '../../../mail/sanitize/sanitize-pool';
import { attachmentDownloadPath } from './links';

interface BodySource {
  id: string;
  bodyHtml: string | null;
  attachments: { position: number; contentId: string | null }[];
}

/** A Content-ID as the sanitiser writes it in `cid:` references: without angle brackets. */
const bare = (contentId: string) => contentId.trim().replace(/^<(.*)>$/s, '$1');

export async function safeBodyOf(message: BodySource, allowRemoteImages: boolean): Promise<{ html: string | null; hasRemoteImages: boolean }> {
  if (!message.bodyHtml) return { html: null, hasRemoteImages: false };
  // The cache key names the content too: a body completed later is sanitised again.
  const key = `${message.id}:${createHash('sha256').update(message.bodyHtml).digest('base64url').slice(0, 22)}`;
  const sanitized = await sanitizeCached(key, message.bodyHtml, { allowRemoteImages });
  const inline = new Map<string, string>();
  for (const attachment of message.attachments) {
    if (attachment.contentId) inline.set(bare(attachment.contentId).toLowerCase(), attachmentDownloadPath(message.id, attachment.position));
  }
  const html = inline.size ? rewriteCidReferences(sanitized.html, (contentId) => inline.get(bare(contentId).toLowerCase())) : sanitized.html;
  return { html, hasRemoteImages: sanitized.hasRemoteImages };
}
