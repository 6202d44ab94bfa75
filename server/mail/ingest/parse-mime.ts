/**
 * One pass of mailparser over an RFC 5322 source, bounded and never throwing.
 *
 * This drives mailparser's `MailParser` stream itself instead of `simpleParser` (which wraps the same
 * stream) for three reasons: simpleParser rejects the whole message on the first error, even the
 * non-fatal ones it documents, where the mirror must keep what could be read; it buffers every
 * attachment whole, where ingest keeps at most `attachmentBytes` of each (and none in
 * `processing_only`); and it rewrites `cid:` links into data: URLs, which the mirror never wants
 * (the HTML is stored as received). Link detection and text-to-HTML conversion are switched off: the
 * mirror stores neither.
 */
import { MailParser, type AddressObject, type AttachmentStream, type HeaderLines, type Headers, type MessageText } from 'mailparser';
import { isDecodedHeader } from './decoded-headers';
import { fastParseMime } from './fast-mime';
import { ingestLimits } from './limits';
import { parserOptions } from './parser-options';

export interface ParsedPart {
  /** mailparser's order of attachment parts: the MIME position. */
  position: number;
  filename: string | null;
  contentType: string;
  disposition: string | null;
  contentId: string | null;
  /** IMAP part number ("2", "1.2"), to fetch the part alone later. */
  partId: string | null;
  /** Inline part referenced by the HTML (multipart/related). */
  related: boolean;
  size: number;
  /** The decoded content, or null when not kept (too large, budget spent, or not asked for). */
  content: Buffer | null;
}

export interface ParsedMime {
  /** The headers of `decodedHeaderKeys` (./decoded-headers.ts), decoded by mailparser; null when the parser stopped before the header. */
  headers: Headers | null;
  headerLines: HeaderLines;
  text: string | null;
  html: string | null;
  parts: ParsedPart[];
  /** False when the parser stopped early or parts were left out: what is here is what could be read. */
  complete: boolean;
}

export interface ParseOptions {
  /** Keep attachment content (full sync mode); otherwise only metadata. */
  keepContent: boolean;
}


/**
 * The parse of a message: the common shapes read directly (./fast-mime.ts, the same answer without
 * the streams), anything else by mailparser's stream below.
 */
export function parseMime(source: Buffer, options: ParseOptions): Promise<ParsedMime> {
  const fast = fastParseMime(source, options);
  return fast ? Promise.resolve(fast) : parseMimeStream(source, options);
}

/** mailparser's `MailParser` stream over the source (every shape; the reference the fast path answers like). */
export function parseMimeStream(source: Buffer, options: ParseOptions): Promise<ParsedMime> {
  const result: ParsedMime = { headers: null, headerLines: [], text: null, html: null, parts: [], complete: true };
  let budget = ingestLimits.attachmentBytesPerMessage;
  let seen = 0;
  return new Promise((resolve) => {
    let settled = false;
    const parser = new MailParser(parserOptions);
    const settle = (complete: boolean) => {
      if (settled) return;
      settled = true;
      if (!complete) result.complete = false;
      resolve(result);
    };

    parser.on('headers', (headers: Headers) => {
      result.headers = new Map([...headers].filter(([key]) => isDecodedHeader({ key })));
    });
    parser.on('headerLines', (lines: HeaderLines) => {
      result.headerLines = lines;
    });
    parser.on('data', (data: AttachmentStream | MessageText) => {
      if (data.type === 'text') {
        if (typeof data.text === 'string') result.text = data.text;
        if (typeof data.html === 'string') result.html = data.html;
        return;
      }
      const position = seen;
      seen += 1;
      const listed = position < ingestLimits.attachments;
      if (!listed) result.complete = false;
      const keep = listed && options.keepContent;
      const chunks: Buffer[] = [];
      let kept = 0;
      let dropped = false;
      data.content.on('data', (chunk: Buffer) => {
        if (!keep || dropped) return;
        if (kept + chunk.length > ingestLimits.attachmentBytes || kept + chunk.length > budget) {
          dropped = true;
          chunks.length = 0;
          return;
        }
        kept += chunk.length;
        chunks.push(chunk);
      });
      data.content.on('end', () => {
        if (listed) {
          const content = keep && !dropped ? Buffer.concat(chunks, kept) : null;
          if (content) budget -= content.length;
          result.parts.push({
            position,
            filename: data.filename ?? null,
            contentType: data.contentType || 'application/octet-stream',
            disposition: data.contentDisposition ?? null,
            contentId: data.cid ?? null,
            partId: data.partId ?? null,
            related: data.related === true,
            size: data.size,
            content,
          });
        }
        data.release();
      });
    });
    parser.on('end', () => settle(true));
    // After an error mailparser may stop short of 'end': keep what was read so far.
    parser.on('error', () => {
      settle(false);
      parser.destroy();
    });
    parser.on('close', () => settle(false));
    parser.end(source);
  });
}

/** The addresses of an address header, groups flattened. */
export function addressesOf(value: AddressObject | AddressObject[] | undefined): Array<{ name: string; address: string }> {
  if (!value) return [];
  const out: Array<{ name: string; address: string }> = [];
  const visit = (entries: AddressObject['value'], depth: number) => {
    for (const entry of entries) {
      if (out.length >= ingestLimits.recipientsPerList) return;
      if (entry.group && depth < 2) visit(entry.group, depth + 1);
      else if (entry.address) out.push({ name: entry.name ?? '', address: entry.address });
    }
  };
  for (const object of Array.isArray(value) ? value : [value]) visit(object.value ?? [], 0);
  return out;
}
