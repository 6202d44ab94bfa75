/**
 * Inline images (`cid:` parts of the same message). The service points them at their download paths,
 * but the reading frame's policy allows images only from `data:` (and `https:` once remote images are
 * allowed), and a sandboxed frame sends no session cookie anyway. So the page itself downloads the
 * raster images (PNG, GIF, JPEG, WebP: never SVG, which can carry script) and writes them into the
 * body as `data:` URLs, within a size budget.
 */

export const inlineImageTypes = new Set(['image/png', 'image/gif', 'image/jpeg', 'image/webp']);
/** Per image and for all the images of one message. */
export const maxInlineImageBytes = 5 * 1024 * 1024;
export const maxInlineTotalBytes = 15 * 1024 * 1024;

export interface InlineCandidate {
  downloadUrl: string;
  mime: string;
  size: number;
  contentId: string | null;
}

/** The attachments worth fetching: referenced by the body, a raster image, within the budget. */
export function inlineCandidates(html: string, attachments: readonly InlineCandidate[]): InlineCandidate[] {
  let total = 0;
  const chosen: InlineCandidate[] = [];
  for (const attachment of attachments) {
    if (!attachment.contentId || !inlineImageTypes.has(attachment.mime.toLowerCase())) continue;
    if (attachment.size > maxInlineImageBytes || total + attachment.size > maxInlineTotalBytes) continue;
    if (!html.includes(`src="${attachment.downloadUrl}"`)) continue;
    total += attachment.size;
    chosen.push(attachment);
  }
  return chosen;
}

/** Replaces each `src="<download path>"` with its `data:` URL (exact attribute matches only). */
export function withInlineImages(html: string, dataUrls: ReadonlyMap<string, string>): string {
  let result = html;
  for (const [downloadUrl, dataUrl] of dataUrls) {
    if (!/^data:image\/(png|gif|jpeg|webp);base64,[A-Za-z0-9+/=]+$/.test(dataUrl)) continue;
    result = result.replaceAll(`src="${downloadUrl}"`, `src="${dataUrl}"`);
  }
  return result;
}

/** Downloads one image (same origin, with the session) as a `data:` URL, or null. */
export async function fetchAsDataUrl(candidate: InlineCandidate, signal?: AbortSignal): Promise<string | null> {
  const response = await fetch(candidate.downloadUrl, { credentials: 'same-origin', signal });
  if (!response.ok) return null;
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength > maxInlineImageBytes) return null;
  // The download route sends the stored type (active types forced to octet-stream): trust the attachment's declared raster type only.
  const mime = candidate.mime.toLowerCase();
  if (!inlineImageTypes.has(mime)) return null;
  let binary = '';
  for (let offset = 0; offset < bytes.length; offset += 0x8000) binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  return `data:${mime};base64,${btoa(binary)}`;
}
