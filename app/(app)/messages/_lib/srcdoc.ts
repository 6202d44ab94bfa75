/**
 * The document of a message's reading frame. The frame is sandboxed (`frameSandbox`: no scripts, no
 * same origin, no forms, no navigation of the application) and this document carries a strict Content-Security-Policy of its own: nothing
 * loads but inline styles and embedded (`data:`/`cid:`) images, plus `https:` images once the reader
 * allowed remote images for this message or sender. `bodyHtmlSafe` is already sanitised by the
 * service; the frame is the second wall, not the first.
 */

/**
 * The frame's sandbox: no scripts, forms, modals or top navigation; a clicked link opens in a new window.
 * The sanitiser keeps http, https and mailto links only, each with `target="_blank" rel="noopener noreferrer"`,
 * so a click opens the page outside the sandbox, with no way back to this one.
 *
 * `allow-same-origin` is there only so the application can measure the document and size the frame to it
 * (`fitFrameHeight`). It is safe because `allow-scripts` is absent: nothing in the frame can run (no script,
 * handler or `javascript:` URL), so nothing can use the shared origin: only our own code reads the frame,
 * never the reverse. The two together would let a frame remove its own sandbox; this set must never hold both
 * (srcdoc.test.ts checks it).
 */
export const frameSandbox = 'allow-same-origin allow-popups allow-popups-to-escape-sandbox';

/** Smallest frame (an empty body still shows a line) and largest (a runaway document stays bounded). */
export const frameHeightBounds = { min: 48, max: 20_000 } as const;

/**
 * The height that shows the whole document without a scroll bar of its own: the document's height,
 * rounded up, within `frameHeightBounds`. Null while there is nothing to measure (keep the height).
 */
export function frameHeightFor(documentHeight: number | null | undefined): number | null {
  if (documentHeight === null || documentHeight === undefined || !Number.isFinite(documentHeight) || documentHeight <= 0) return null;
  return Math.min(frameHeightBounds.max, Math.max(frameHeightBounds.min, Math.ceil(documentHeight)));
}

/** Sizes a (same-origin, script-less) reading frame to its document; false when it cannot be read yet. */
export function fitFrameHeight(frame: HTMLIFrameElement): boolean {
  const doc = frame.contentDocument;
  // Not the root's scrollHeight: that is never less than the frame's current height, so a frame would never shrink.
  // The root's box (auto height: its content) and the body's scroll area (content that overflows it) are.
  const height = frameHeightFor(doc?.documentElement ? Math.max(doc.documentElement.getBoundingClientRect().height, doc.body?.scrollHeight ?? 0) : null);
  if (height === null) return false;
  frame.style.height = `${height}px`;
  return true;
}

export function frameCsp(allowRemoteImages: boolean): string {
  return `default-src 'none'; img-src data: cid:${allowRemoteImages ? ' https:' : ''}; style-src 'unsafe-inline'`;
}

/** Neutral reading defaults; the message's own styles come after and win. */
const baseStyle =
  'html{color-scheme:light}body{margin:0;padding:16px;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;' +
  'color:#18181b;background:#fff;overflow-wrap:anywhere}img{max-width:100%;height:auto}pre{white-space:pre-wrap}' +
  'table{max-width:100%}blockquote{margin:0 0 0 .5em;padding-left:.75em;border-left:3px solid #d4d4d8;color:#52525b}';

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * `bodyHtmlSafe` may be a whole document (the sanitiser keeps `<head><style>`): the policy and our
 * defaults go in a head of our own placed before it, so they come first whatever the body holds. A
 * `<meta>` CSP applies from where it is parsed on, which is why it is the very first element.
 */
export function buildSrcdoc(html: string, options: { allowRemoteImages: boolean }): string {
  const head =
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(frameCsp(options.allowRemoteImages))}">` +
    '<meta charset="utf-8"><meta name="referrer" content="no-referrer"><base target="_blank">' +
    `<style>${baseStyle}</style>`;
  const body = html.replace(/^\s*<!doctype[^>]*>/i, '');
  return `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Links a plain-text mail writes out: `http(s)://…`, `mailto:…` and bare addresses (as mailto). Nothing
 * else becomes a link (no `javascript:`, `data:`, `file:`…), whatever the text says.
 */
const linkPattern = /\b(?:https?:\/\/[^\s<>"'`]+|mailto:[^\s<>"'`]+|[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)/gi;
/** Punctuation that ends a sentence rather than the link ("see https://x.example/a.") */
const trailingPunctuation = /[.,;:!?)\]}]+$/;

function linkHref(raw: string): string | null {
  if (/^https?:\/\//i.test(raw)) {
    try {
      const url = new URL(raw);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
    } catch {
      return null;
    }
  }
  if (/^mailto:/i.test(raw)) return raw.length > 'mailto:'.length ? raw : null;
  return `mailto:${raw}`;
}

/** Plain-text bodies get the same frame (one rendering path): escaped, links made clickable, in a pre-wrapped block. */
export function textToHtml(text: string): string {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(linkPattern)) {
    let raw = match[0];
    const trailing = trailingPunctuation.exec(raw)?.[0] ?? '';
    // Keep a closing parenthesis that belongs to the link (…/Foo_(bar)).
    const keep = trailing.startsWith(')') && raw.slice(0, -trailing.length).includes('(') ? 1 : 0;
    raw = raw.slice(0, raw.length - trailing.length + keep);
    const href = linkHref(raw);
    if (!href) continue;
    const start = match.index;
    html += escapeText(text.slice(last, start));
    html += `<a href="${escapeAttribute(href)}" target="_blank" rel="noopener noreferrer">${escapeText(raw)}</a>`;
    last = start + raw.length;
  }
  html += escapeText(text.slice(last));
  return `<pre style="font:inherit;margin:0">${html}</pre>`;
}
