/**
 * `bodyHtmlSafe` of a full message: the stored HTML sanitised off the request thread (the sanitiser
 * pool, cached per message, sanitiser version and remote-image choice), then its `cid:` images pointed
 * at their download paths (per call, after the cache). Nothing unsanitised is ever served.
 */
import { rewriteCidReferences } from '../../../core/mail/sanitize/inline-images';
import { sanitizeCached } from '../../../core/mail/sanitize/sanitize-pool';
import { attachmentDownloadPath } from './links';

interface BodySource {
  id: string;
  bodyHtml: string | null;
  attachments: { position: number; contentId: string | null }[];
}

export async function safeBodyOf(message: BodySource, allowRemoteImages: boolean): Promise<{ html: string | null; hasRemoteImages: boolean }> {
  if (!message.bodyHtml) return { html: null, hasRemoteImages: false };
  const sanitized = await sanitizeCached(message.id, message.bodyHtml, { allowRemoteImages });
  const urls = new Map<string, string>();
  for (const attachment of message.attachments) {
    // Keyed by the content id as the reference names it: without angle brackets.
    if (attachment.contentId) urls.set(attachment.contentId.replace(/^<|>$/g, ''), attachmentDownloadPath(message.id, attachment.position));
  }
  return { html: rewriteCidReferences(sanitized.html, urls), hasRemoteImages: sanitized.hasRemoteImages };
}
