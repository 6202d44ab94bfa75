/**
 * A mirrored body as plain text, for workflows (the mail trigger's `text`) and AI nodes: the plain-text
 * body when the mirror has one, else the HTML body reduced to text by html-to-text (the converter
 * mailparser uses when a message's root part is HTML; a multipart/mixed message with an HTML part and
 * an attachment, the usual invoice, gets no text from it, so the mirror has only its HTML).
 *
 * Bounded on what it reads and what it answers: at most `htmlInputChars` of HTML are converted (the
 * tail of a longer one is dropped and the text marked cut), the converter's DOM limits (depth, child
 * nodes) hold, and the text is cut to a number of UTF-8 bytes on a character boundary. Control
 * characters other than tab and line breaks are dropped: they mean nothing to a reader and each would
 * be six bytes once in JSON, so the bound on bytes stays a bound on stored step data.
 */
import { compile } from 'html-to-text';

/** HTML characters converted at most (the mirror keeps up to 2 MiB). */
export const htmlInputChars = 1024 * 1024;

const htmlToText = compile({
  wordwrap: false,
  selectors: [
    { selector: 'img', format: 'skip' },
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
  ],
  limits: { maxDepth: 256, maxChildNodes: 50_000, ellipsis: '…' },
});

// eslint-disable-next-line no-control-regex -- the point: C0 controls and DEL but tab, LF and CR.
const controls = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Text fit to read and store: control characters but tab and line breaks dropped, lone surrogates replaced. */
export function readableText(value: string): string {
  return value.replace(controls, '').toWellFormed();
}

/** The longest start of `text` whose UTF-8 form fits in `maxBytes`, never splitting a character. */
export function utf8Prefix(text: string, maxBytes: number): { text: string; cut: boolean } {
  // Every UTF-16 unit is at most 3 UTF-8 bytes (a pair 4 for 2 units): short texts need no count.
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text, 'utf8') <= maxBytes) return { text, cut: false };
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  return { text: text.slice(0, end), cut: true };
}

export interface BodyText {
  text: string;
  /** Whether anything of the body was left out (the byte bound, or an HTML body converted in part). */
  truncated: boolean;
}

/**
 * The body as text of at most `maxBytes` UTF-8 bytes, or null when there is no body to read.
 * `textCut` and `htmlCut` say the text or HTML handed in was already a start of the stored one (a
 * caller reads no more than it needs).
 */
export function bodyTextOf(body: { text: string | null; html: string | null; textCut?: boolean; htmlCut?: boolean }, maxBytes: number): BodyText | null {
  let source: string;
  let cut: boolean;
  if (body.text !== null && body.text.trim() !== '') {
    source = body.text;
    cut = body.textCut === true;
  } else if (body.html !== null && body.html.trim() !== '') {
    cut = body.html.length > htmlInputChars || body.htmlCut === true;
    source = htmlToText(body.html.slice(0, htmlInputChars));
  } else {
    return null;
  }
  const bounded = utf8Prefix(readableText(source), maxBytes);
  return { text: bounded.text, truncated: bounded.cut || cut };
}
