/**
 * The common shapes of mail read without mailparser's streams, with mailparser's own pieces, to the
 * same answer (issue 25 §3: parsing was most of the initial sync's cost, and most of mailparser's time
 * goes to its stream machinery, not to what it decides).
 *
 * What mailparser does for a message is: mailsplit's splitter cuts it into MIME nodes line by line
 * (`MimeNode` parses each node's header block), mailparser turns each node's headers into values
 * (`processHeaders`), decodes each body through a libqp/libbase64 stream, and assembles the text, the
 * HTML and the attachments. Here the same `MimeNode` and the same `processHeaders` (the very functions,
 * loaded from mailparser's own dependencies) read the header blocks; the cutting follows the
 * splitter's rules (delimiter lines, the line ending before a delimiter belonging to it, preamble and
 * epilogue left out); bodies are decoded whole, as the decoding streams do at their end (libqp's
 * `decode` rules with the character loop left to the regular expression engine; base64 by
 * `Buffer.from`, as libbase64 does, for well-formed bodies only).
 *
 * Only these shapes are read here, everything else is `null` and goes to mailparser (./parse-mime.ts):
 * - one text part (text/plain, or text/html alone: mailparser would derive a text from it, so no);
 * - multipart/alternative of one text/plain and one text/html;
 * - multipart/mixed of one of the above (first) and attachments (not text, or `attachment`);
 * in UTF-8 or US-ASCII (or no charset), 7bit/8bit/binary, quoted-printable or well-formed base64,
 * without format=flowed, message/rfc822, multipart/related or delimiters left open. `fast-mime.test.ts`
 * checks the answers equal mailparser's on the corpora the tests and the bench use.
 */
import { createRequire } from 'node:module';
import type { HeaderLines, Headers } from 'mailparser';
import { MailParser } from 'mailparser';
import { ingestLimits } from './limits';
import { parserOptions } from './parser-options';
import { isDecodedHeader } from './decoded-headers';
import type { ParsedMime, ParsedPart, ParseOptions } from './parse-mime';

interface HeaderLine {
  key: string;
  line: string;
}

/** mailsplit's MimeNode, as much of it as is read here. */
interface MimeNode {
  parentNode: MimeNode | false;
  _boundary: Buffer | false;
  _parentBoundary: Buffer | false;
  _parentBoundaryOwner: MimeNode | false;
  _headerlen: number;
  headers: false | { getList(): HeaderLine[]; lines: HeaderLine[] };
  contentType: string | false;
  charset: string | false;
  encoding: string | false;
  disposition: string | false;
  filename: string | false;
  flowed: boolean;
  multipart: string | false;
  rfc822: boolean;
  partNr: Array<number | string> | false;
  addHeaderChunk(line: Buffer): void;
  parseHeaders(): void;
}

interface Pieces {
  MimeNode: new (parent: MimeNode | false, config: object) => MimeNode;
  detectMimeType: (filename: string) => string | false;
  processHeaders: (lines: HeaderLine[]) => Headers;
}

let pieces: Pieces | null | undefined;

/**
 * mailparser's own dependencies, resolved from mailparser's place (so they are the copies it runs);
 * null when they cannot be loaded here, and then every message goes to mailparser.
 */
function loadPieces(): Pieces | null {
  if (pieces !== undefined) return pieces;
  try {
    const fromMailparser = createRequire(createRequire(import.meta.url).resolve('mailparser'));
    const mimeNodePath = fromMailparser.resolve('@zone-eu/mailsplit/lib/mime-node');
    const libmime = fromMailparser('libmime') as { detectMimeType: (filename: string) => string | false };
    const parser = new MailParser(parserOptions) as unknown as { processHeaders: (lines: HeaderLine[]) => Headers };
    pieces = {
      MimeNode: fromMailparser(mimeNodePath) as Pieces['MimeNode'],
      detectMimeType: (filename) => libmime.detectMimeType(filename),
      processHeaders: (lines) => parser.processHeaders(lines),
    };
  } catch {
    pieces = null;
  }
  return pieces;
}

/** A leaf node and its body, with where it sits. */
interface Leaf {
  node: MimeNode;
  body: Buffer;
  inAlternative: boolean;
}

/** The shape is not one read here: mailparser reads the message. */
class NotHandled extends Error {}

const lf = 0x0a;
const cr = 0x0d;
const dash = 0x2d;

/** mailsplit's compareBoundary: 1 a delimiter, 2 a closing delimiter, false neither. */
function compareBoundary(line: Buffer, startpos: number, boundary: Buffer): 1 | 2 | false {
  if (line.length < boundary.length + 3 + startpos || line.length > boundary.length + 6 + startpos) return false;
  for (let index = 0; index < boundary.length; index += 1) if (line[index + 2 + startpos] !== boundary[index]) return false;
  let pos = 0;
  for (let index = boundary.length + 2 + startpos; index < line.length; index += 1) {
    const char = line[index];
    if (pos === 0 && (char === cr || char === lf)) return 1;
    if (pos === 0 && char !== dash) return false;
    if (pos === 1 && char !== dash) return false;
    if (pos === 2 && char !== cr && char !== lf) return false;
    if (pos === 3 && char !== lf) return false;
    pos += 1;
  }
  return 2;
}

/** The line endings a body gives up to the delimiter that follows it (mailsplit's trimBodyLineEnd). */
function withoutLastLineEnd(source: Buffer, start: number, end: number): number {
  let at = end;
  if (at > start && source[at - 1] === lf) {
    at -= 1;
    if (at > start && source[at - 1] === cr) at -= 1;
  }
  return at;
}

/**
 * The splitter's walk over the lines of a message (mailsplit's processLine, for one input chunk, as
 * mailparser writes a whole source at once): nodes with their header blocks, leaf bodies.
 */
function splitNodes(source: Buffer, { MimeNode }: Pieces): { root: MimeNode; leaves: Array<{ node: MimeNode; body: Buffer }>; nodes: MimeNode[] } {
  const nodes: MimeNode[] = [];
  const newNode = (parent: MimeNode | false) => {
    // What mailparser hands its splitter, and so every MimeNode it makes.
    const created = new MimeNode(parent, parserOptions);
    nodes.push(created);
    if (nodes.length > 64) throw new NotHandled();
    return created;
  };
  const root = newNode(false);
  let node = root;
  let head = true;
  let inEpilogue = false;
  let headBytes = 0;
  const leaves: Array<{ node: MimeNode; body: Buffer }> = [];
  // The body of the current leaf: from `bodyStart`, up to `bodyEnd` (the end of its last line).
  let bodyStart = -1;
  let bodyEnd = -1;
  // How the splitter ends a body: before a delimiter (`next`: another part follows) or a closing
  // delimiter (`close`) the line ending that precedes it is the delimiter's; at the end of the source
  // nothing is taken. A body that is nothing but that line ending keeps it before a delimiter (the
  // splitter pushes the line it held) and is empty before a closing one (it pushes nothing).
  const closeBody = (ending: 'next' | 'close' | 'eof') => {
    if (bodyStart < 0) return;
    let end = ending !== 'eof' && node.parentNode ? withoutLastLineEnd(source, bodyStart, bodyEnd) : bodyEnd;
    if (ending === 'next' && end === bodyStart) end = bodyEnd;
    leaves.push({ node, body: source.subarray(bodyStart, end) });
    bodyStart = -1;
  };

  for (let start = 0; start < source.length; ) {
    const newline = source.indexOf(lf, start);
    const end = newline < 0 ? source.length : newline + 1;
    const line = source.subarray(start, end);
    start = end;

    let boundary: 1 | 2 | 3 | 4 | false = false;
    let startpos = 0;
    if (line.length >= 1 && (line[0] === cr || line[0] === lf)) {
      startpos += 1;
      if (line.length >= 2 && line[0] === cr && line[1] === lf) startpos += 1;
    }
    if (line.length >= 4 && line[startpos] === dash && line[startpos + 1] === dash) {
      if (!inEpilogue && node._boundary) boundary = compareBoundary(line, startpos, node._boundary);
      if (!boundary && node._parentBoundary) {
        const parentEnd = compareBoundary(line, startpos, node._parentBoundary);
        if (parentEnd) boundary = (parentEnd + 2) as 3 | 4;
      }
    }
    if (boundary) {
      if (head && node._headerlen > 0 && !node.headers) throw new NotHandled(); // a delimiter inside a header block
      if (!node.multipart) closeBody(boundary === 1 || boundary === 3 ? 'next' : 'close');
      if (boundary === 1) node = newNode(node);
      else if (boundary === 3) node = newNode(node._parentBoundaryOwner);
      else if (boundary === 4) {
        if (!node._parentBoundaryOwner) throw new NotHandled();
        node = node._parentBoundaryOwner;
        inEpilogue = true;
      } else {
        // A closing delimiter seen by the multipart itself (no part opened): not a shape read here.
        throw new NotHandled();
      }
      head = boundary === 1 || boundary === 3;
      if (head) {
        inEpilogue = false;
        headBytes = 0;
      }
      continue;
    }
    if (head) {
      node.addHeaderChunk(line);
      headBytes += line.length;
      if (headBytes > ingestLimits.headBytes) throw new NotHandled();
      const empty = (line.length === 1 && line[0] === lf) || (line.length === 2 && line[0] === cr && line[1] === lf);
      if (empty || start >= source.length) {
        node.parseHeaders();
        if (node.rfc822) throw new NotHandled();
        head = false;
        if (!node.multipart) {
          bodyStart = start;
          bodyEnd = start;
        }
      }
      continue;
    }
    if (!node.multipart) bodyEnd = end;
  }
  if (head) throw new NotHandled();
  // A leaf still open at the end of the source: the last part of a multipart left without its closing
  // delimiter, or the root's own body, which ends with the message.
  if (bodyStart >= 0) {
    if (node.parentNode) throw new NotHandled();
    closeBody('eof');
  }
  return { root, leaves, nodes };
}

/** mailparser's `textTypes` (message/delivery-status among them, as keepDeliveryStatus is off). */
const textTypes = ['text/plain', 'text/html', 'message/delivery-status'];

function isPlainCharset(charset: string | false): boolean {
  return ['ascii', 'usascii', 'utf8'].includes((charset || 'utf-8').toLowerCase().replace(/[^a-z0-9]+/g, ''));
}

/**
 * libqp's `decode` (what its decoding stream runs on the whole body at its end), with its loop over
 * every character done by the regular expression engine: the same three rules in the same order
 * (blanks before a line end dropped, soft line breaks dropped, `=XX` to its byte, left to right),
 * every other character kept as its byte.
 */
export function quotedPrintable(body: Buffer): Buffer {
  let text = body.toString('latin1');
  // Most bodies have no blank to drop (an encoder writes a line's last blank as =20). Looking for one with `includes`
  // costs half of running the rule's expression, which tries a match at every space of the text: 28 against 58 ms
  // for 3,000 messages of the bench's corpus; the expression was 2.6 % of the syncing process's CPU in a profile.
  if (hasBlankBeforeLineEnd(text)) text = text.replace(blanksBeforeLineEnd, '');
  if (!text.includes('=')) return Buffer.from(text, 'latin1');
  text = text.replace(/=(?:\r?\n|$)/g, '');
  if (!text.includes('=')) return Buffer.from(text, 'latin1');
  return Buffer.from(
    text.replace(/=([\da-fA-F]{2})/g, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );
}

/**
 * libqp's blanks before a line end (`/[\t ]+$/gm`), tried only where a run of blanks starts: written plainly, a
 * match was tried from every blank of a run and each ran to the run's end, so a long run anywhere in a body (mail
 * anyone can send) took time in its square, 3.7 s for 40,000 spaces on the thread that syncs mail. Same matches.
 */
const blanksBeforeLineEnd = /(?<![\t ])[\t ]+$/gm;

/**
 * Whether a space or a tab stands right before a line end or at the very end: where `blanksBeforeLineEnd` matches
 * (in a latin1 text the only line ends are CR and LF).
 */
function hasBlankBeforeLineEnd(text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  return last === 0x20 || last === 0x09 || text.includes(' \n') || text.includes(' \r') || text.includes('\t\n') || text.includes('\t\r');
}

/**
 * Well-formed base64 lines: the alphabet, line ends, padding only at the very end. The padding and the line ends
 * after it are one optional group that must start with `=`: as `={0,2}[\r\n]*`, a body of line ends followed by
 * anything else was retried from every one of them (2.1 s for 40,000 line ends).
 */
const base64Lines = /^[A-Za-z0-9+/\r\n]*(?:={1,2}[\r\n]*)?$/;

function countByte(body: Buffer, byte: number): number {
  let count = 0;
  for (let at = body.indexOf(byte); at >= 0; at = body.indexOf(byte, at + 1)) count += 1;
  return count;
}

/** A body decoded as mailparser's decoding stream would (the whole body written at once). */
function decodeBody(leaf: Leaf): Buffer {
  const encoding = leaf.node.encoding;
  if (encoding === 'quoted-printable') return leaf.body.length > 0 ? quotedPrintable(leaf.body) : Buffer.alloc(0);
  if (encoding !== 'base64') return leaf.body;
  // libbase64's stream keeps the base64 characters of the text and decodes them with Buffer.from;
  // well-formed input (whole quartets, padding only at its end) decodes the same with its line ends
  // in place (Buffer.from skips them). Anything else is mailparser's.
  const raw = leaf.body.toString('latin1');
  if (!base64Lines.test(raw)) throw new NotHandled();
  const characters = raw.length - countByte(leaf.body, lf) - countByte(leaf.body, cr);
  if (characters % 4 !== 0) throw new NotHandled();
  return characters > 0 ? Buffer.from(raw, 'base64') : Buffer.alloc(0);
}

/**
 * The message as ./parse-mime.ts's mailparser pass answers it, or null when its shape is not one read
 * here (see the module's comment).
 */
export function fastParseMime(source: Buffer, options: ParseOptions): ParsedMime | null {
  const loaded = loadPieces();
  if (!loaded) return null;
  try {
    return parse(source, options, loaded);
  } catch (error) {
    if (error instanceof NotHandled) return null;
    // Anything else (a header mailparser's pieces choke on): mailparser decides, as it always did.
    return null;
  }
}

function parse(source: Buffer, options: ParseOptions, loaded: Pieces): ParsedMime {
  const { root, leaves: split, nodes } = splitNodes(source, loaded);
  // The shapes read here: a leaf root, or alternative/mixed multiparts at most two deep.
  for (const node of nodes) {
    if (node.multipart) {
      if (!['alternative', 'mixed'].includes(node.multipart) || !node._boundary) throw new NotHandled();
      if (node.parentNode && (node.parentNode.multipart !== 'mixed' || node.parentNode.parentNode)) throw new NotHandled();
    } else if (node._boundary) {
      throw new NotHandled();
    }
  }
  if (split.length !== nodes.filter((node) => !node.multipart).length) throw new NotHandled();
  const leaves: Leaf[] = split.map(({ node, body }) => ({ node, body, inAlternative: node.parentNode !== false && node.parentNode.multipart === 'alternative' }));

  const result: ParsedMime = { headers: null, headerLines: [], text: null, html: null, parts: [], complete: true };
  const rootHeaders = root.headers;
  if (!rootHeaders) throw new NotHandled();
  result.headers = loaded.processHeaders(rootHeaders.getList().filter(isDecodedHeader));
  result.headerLines = rootHeaders.lines as unknown as HeaderLines;

  const texts: string[] = [];
  const htmls: string[] = [];
  let plainParts = 0;
  let htmlParts = 0;
  let budget = ingestLimits.attachmentBytesPerMessage;
  let seen = 0;
  // Text nodes first decide where the text and the HTML come from; mailparser then joins them in
  // tree order, which for these shapes is the order of the leaves.
  const kinds = leaves.map((leaf) => {
    const { node } = leaf;
    let contentType = node.contentType || (node.parentNode ? false : 'text/plain');
    if (!contentType) throw new NotHandled();
    contentType = String(contentType);
    let disposition = node.disposition || null;
    if (disposition && !['attachment', 'inline'].includes(disposition)) disposition = 'attachment';
    const resolved = !disposition && !textTypes.includes(contentType) ? 'attachment' : (disposition ?? 'inline');
    const attachment = !textTypes.includes(contentType) || resolved !== 'inline';
    return { leaf, contentType, attachment };
  });
  const hasHtml = kinds.some((kind) => !kind.attachment && kind.contentType === 'text/html');
  for (const { leaf, contentType, attachment } of kinds) {
    const { node } = leaf;
    if (attachment) {
      if (leaf.inAlternative) throw new NotHandled();
      continue;
    }
    if (contentType === 'message/delivery-status' || node.flowed || !isPlainCharset(node.charset)) throw new NotHandled();
    if (contentType === 'text/plain') {
      plainParts += 1;
      // Outside an alternative, mailparser would add an HTML rendering of it next to an HTML part.
      if (!leaf.inAlternative && hasHtml) throw new NotHandled();
    } else {
      htmlParts += 1;
      // Outside an alternative, mailparser derives the text from the HTML: that is its business.
      if (!leaf.inAlternative) throw new NotHandled();
    }
  }
  if (plainParts > 1 || htmlParts > 1) throw new NotHandled();

  for (const { leaf, contentType, attachment } of kinds) {
    const decoded = decodeBody(leaf);
    if (!attachment) {
      const text = decoded.toString().replace(/\r?\n/g, '\n');
      if (text) (contentType === 'text/plain' ? texts : htmls).push(text);
      continue;
    }
    const { node } = leaf;
    const position = seen;
    seen += 1;
    const listed = position < ingestLimits.attachments;
    if (!listed) {
      result.complete = false;
      continue;
    }
    const keep = options.keepContent && decoded.length <= ingestLimits.attachmentBytes && decoded.length <= budget;
    const content = options.keepContent ? (keep ? Buffer.from(decoded) : null) : null;
    if (content) budget -= content.length;
    // Of a part's headers only its Content-ID is read decoded (the rest is the node's own fields).
    const partHeaders = loaded.processHeaders(node.headers ? node.headers.getList().filter((line) => line.key === 'content-id') : []);
    const contentId = partHeaders.has('content-id') ? ([] as unknown[]).concat(partHeaders.get('content-id') ?? []).shift() : undefined;
    const partNr = (node.partNr || []).filter((nr): nr is number => typeof nr === 'number').join('.') || null;
    const filename = node.filename || null;
    const detected = contentType === 'application/octet-stream' && filename ? loaded.detectMimeType(filename) || 'application/octet-stream' : contentType;
    const part: ParsedPart = {
      position,
      filename,
      contentType: detected || 'application/octet-stream',
      disposition: node.disposition || null,
      contentId: typeof contentId === 'string' ? contentId.trim().replace(/^<|>$/g, '').trim() : null,
      partId: node.parentNode ? partNr : null,
      related: false,
      size: decoded.length,
      content,
    };
    result.parts.push(part);
  }
  if (texts.length > 0) result.text = texts.join('\n');
  if (htmls.length > 0) result.html = htmls.join('<br/>\n');
  return result;
}
