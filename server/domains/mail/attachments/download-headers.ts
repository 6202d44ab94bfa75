/**
 * Headers of an attachment download. Pure.
 *
 * - The media type is served as stored only when it is a well-formed `type/subtype` that a browser
 *   will not run or render as a document of this origin; active types (HTML, XHTML, SVG, any XML,
 *   scripts, XSLT, cache manifests, multipart streams, Flash, PDF) and anything malformed become
 *   `application/octet-stream`. With `Content-Disposition: attachment` and `nosniff` beside it, the
 *   bytes are saved, never shown inline.
 * - The file name is reduced to what is safe in a header and on a disk: no control characters, no
 *   path, no quotes; a plain ASCII `filename` fallback and the exact name in `filename*` (RFC 6266,
 *   RFC 5987 percent-encoding).
 */

const safeTypes: ReadonlySet<string> = new Set([
  'text/plain',
  'text/csv',
  'text/calendar',
  'text/vcard',
  'text/x-vcard',
  'text/markdown',
  'application/zip',
  'application/gzip',
  'application/x-7z-compressed',
  'application/x-tar',
  'application/json',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/rtf',
  'message/rfc822',
  'application/octet-stream',
]);

/** Images, audio and video are shown, never run, except SVG (a document with scripts). */
const safeFamilies = ['image/', 'audio/', 'video/', 'font/'];

const mediaTypePattern = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

export function downloadMediaType(stored: string): string {
  const mediaType = stored.split(';', 1)[0].trim().toLowerCase().slice(0, 256);
  if (!mediaTypePattern.test(mediaType)) return 'application/octet-stream';
  const subtype = mediaType.slice(mediaType.indexOf('/') + 1);
  if (subtype === 'xml' || subtype.endsWith('+xml') || subtype.includes('script') || subtype.includes('html')) return 'application/octet-stream';
  if (safeTypes.has(mediaType)) return mediaType;
  if (safeFamilies.some((family) => mediaType.startsWith(family))) return mediaType;
  return 'application/octet-stream';
}

/** Characters that never go into a saved file name. */
const unsafeName = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}"\\/:*?<>|]/gu;

export function safeFilename(name: string): string {
  const cleaned = name.replace(unsafeName, '_').replace(/^[\s.]+|[\s.]+$/gu, '').slice(0, 200);
  return cleaned === '' ? 'attachment' : cleaned;
}

/** `attachment; filename="ascii"; filename*=UTF-8''exact`. */
export function contentDisposition(name: string): string {
  const safe = safeFilename(name);
  const ascii = safe.replace(/[^\x20-\x7e]/g, '_').replace(/[%';]/g, '_');
  const encoded = encodeURIComponent(safe).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Types the webmail may show in place (`?preview=true`): raster images (for an `<img>`) and PDF (for a
 * frame). Never SVG, HTML or anything else a browser would run as a document of this origin.
 */
const previewTypes: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'application/pdf']);

export function previewMediaType(stored: string): string | null {
  const mediaType = stored.split(';', 1)[0].trim().toLowerCase();
  const normalised = mediaType === 'image/jpg' || mediaType === 'image/pjpeg' ? 'image/jpeg' : mediaType;
  return previewTypes.has(normalised) ? normalised : null;
}

/**
 * Headers of a preview: the exact type, `inline`, `nosniff` (the bytes are never read as anything else),
 * `no-store`. Images keep the download's policy (nothing loads, sandboxed). A PDF is shown in a frame of
 * the webmail, so it may be framed by this origin only, and its policy loads nothing and runs no web
 * script; it carries no `sandbox`, because browsers refuse to render a PDF in a sandboxed document (the
 * PDF viewer's own scripting is the browser's, isolated from the page).
 */
export function previewHeaders(mediaType: string, filename: string): Record<string, string> {
  const inline = contentDisposition(filename).replace(/^attachment;/, 'inline;');
  const common = { 'content-type': mediaType, 'content-disposition': inline, 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' };
  if (mediaType === 'application/pdf') {
    return { ...common, 'content-security-policy': "default-src 'none'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'", 'x-frame-options': 'SAMEORIGIN' };
  }
  return { ...common, 'content-security-policy': "default-src 'none'; sandbox" };
}
