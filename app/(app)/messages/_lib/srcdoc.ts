/**
 * The document of a message's reading frame. The frame is sandboxed (`frameSandbox`: no scripts, no
 * same origin, no forms, no navigation of the application) and this document carries a strict Content-Security-Policy of its own: nothing
 * loads but inline styles and embedded (`data:`/`cid:`) images, plus `https:` images once the reader
 * allowed remote images for this message or sender. `bodyHtmlSafe` is already sanitised by the
 * service; the frame is the second wall, not the first.
 */

/**
 * The frame's sandbox: nothing but opening a link the reader clicks. The sanitiser keeps http, https and
 * mailto links only, each with `target="_blank" rel="noopener noreferrer"`, so a click opens the page in
 * a new window outside the sandbox, with no way back to this one; scripts, same origin, forms, modals
 * and top navigation stay off.
 */
export const frameSandbox = 'allow-popups allow-popups-to-escape-sandbox';

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

/** Plain-text bodies get the same frame (one rendering path): escaped, in a pre-wrapped block. */
export function textToHtml(text: string): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<pre style="font:inherit;margin:0">${escaped}</pre>`;
}
