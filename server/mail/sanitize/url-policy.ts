/**
 * Which URLs a sanitised mail body may keep. An allowlist: a value is kept only when it is one of
 * the few kinds below, read the way a browser reads it, and written back in the form that was
 * checked (so the browser cannot see something else in it).
 *
 *   remote      http:, https: or protocol-relative (`//host`, `\\host`): fetched by the reader's
 *               browser, so it tells the sender the mail was opened and from where
 *   cid         `cid:` reference to a part of the same message (inline image)
 *   data-image  `data:image/(png|gif|jpeg|webp);base64,…` (inline image carried in the body)
 *   mailto      `mailto:` link
 *   refused     everything else: javascript:, vbscript:, other data:, file:, relative URLs (they
 *               would resolve against the application's own origin), unparsable values
 */

export type ClassifiedUrl =
  | { kind: 'remote'; url: string }
  | { kind: 'cid'; contentId: string }
  | { kind: 'data-image'; url: string }
  | { kind: 'mailto'; url: string }
  | { kind: 'refused' };

const refused: ClassifiedUrl = { kind: 'refused' };

/** A URL attribute longer than this is refused (a data: image may be large; a link is not). */
export const maxUrlChars = 1_000_000;
const maxLinkChars = 8_192;

/**
 * What the URL parser of a browser does first: leading and trailing C0 controls and spaces go, and
 * so do tabs and line breaks anywhere (`java&#9;script:` is `javascript:`).
 */
export function browserTrim(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && value.charCodeAt(start) <= 0x20) start += 1;
  while (end > start && value.charCodeAt(end - 1) <= 0x20) end -= 1;
  return value.slice(start, end).replace(/[\t\n\r]/g, '');
}

/** Whether `text` holds a C0 control character or DEL. */
const hasControl = (text: string) => Array.from(text).some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);

const schemePattern = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
const dataImagePattern = /^data:image\/(?:png|gif|jpeg|webp);base64,[A-Za-z0-9+/]*={0,2}$/i;

/** An absolute http(s) URL as the WHATWG parser serialises it (what the browser will fetch). */
function remote(value: string): ClassifiedUrl {
  if (value.length > maxLinkChars) return refused;
  let url: URL;
  try {
    // Protocol-relative: resolved against an https page (the frame's parent is served over https).
    url = new URL(value, 'https://protocol-relative.invalid/');
  } catch {
    return refused;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '' || url.hostname === 'protocol-relative.invalid') {
    return refused;
  }
  // The serialiser percent-encodes double quotes, spaces and angle brackets; anything left is refused.
  if (/["\\\s<>]/.test(url.href)) return refused;
  return { kind: 'remote', url: url.href };
}

/** Classifies an attribute value or a CSS url() argument (already entity- or escape-decoded). */
export function classifyUrl(raw: string): ClassifiedUrl {
  if (raw.length > maxUrlChars) return refused;
  const value = browserTrim(raw);
  if (value === '') return refused;
  // `//host`, `\\host`, `/\host`, `\/host`: the browser reads all four as protocol-relative.
  if (/^[/\\]{2}/.test(value)) return remote(value);
  const scheme = schemePattern.exec(value)?.[1]?.toLowerCase();
  switch (scheme) {
    case 'http':
    case 'https':
      return remote(value);
    case 'cid': {
      const contentId = decodeContentId(value.slice(4));
      return contentId === null ? refused : { kind: 'cid', contentId };
    }
    case 'data':
      return dataImagePattern.test(value) ? { kind: 'data-image', url: value } : refused;
    case 'mailto':
      return value.length <= maxLinkChars && !/["<>]/.test(value) ? { kind: 'mailto', url: value } : refused;
    default:
      return refused;
  }
}

/** A content id as written in a `cid:` URL (RFC 2392: percent-encoded), decoded; null if malformed. */
function decodeContentId(encoded: string): string | null {
  if (encoded === '' || encoded.length > 998) return null;
  try {
    const decoded = decodeURIComponent(encoded).replace(/^<|>$/g, '');
    return decoded === '' || hasControl(decoded) ? null : decoded;
  } catch {
    return null;
  }
}

/**
 * The canonical `cid:` form the sanitiser writes: every character outside `[A-Za-z0-9._-]`
 * percent-encoded (UTF-8). Its alphabet has no `&`, quote or angle bracket, so the serialised HTML
 * shows it verbatim and `rewriteCidReferences` can find it without parsing the document again.
 */
export function canonicalCid(contentId: string): string {
  return `cid:${encodeURIComponent(contentId).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
