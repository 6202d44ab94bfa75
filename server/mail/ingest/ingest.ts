/**
 * Ingest: an RFC 5322 source → the fields of a mirror message (`mail_messages`) and its attachment
 * rows. Everything is bounded (./limits.ts) and nothing throws on malformed MIME: what could be read
 * is kept and `bodyComplete` is false when anything was cut or left out.
 *
 * Attachment content is returned (full sync mode) for the caller to store through the blob store under
 * `blobKeys.attachment(messageId, position)` in the transaction that inserts the message.
 */
import type { AddressObject, HeaderLines, Headers } from 'mailparser';
import { ingestLimits } from './limits';
import { decodedHeaderKeys, type DecodedHeaderKey } from './decoded-headers';
import { addressesOf, parseMime, type ParsedPart } from './parse-mime';
import { listUnsubscribeOf, type ListUnsubscribe } from './unsubscribe';
import { listIdOf, signalHeaderNames, signalsOf, type HeaderValues, type MessageSignals } from './signals';
import { snippetOf, storable, storableText } from './text';

export interface Address {
  name?: string;
  email: string;
}

export interface IngestedAttachment {
  position: number;
  filename: string;
  mime: string;
  size: number;
  disposition: 'attachment' | 'inline';
  contentId: string | null;
  partRef: string | null;
  /** Content to store (full mode, within bounds), else null: fetched on demand. */
  content: Buffer | null;
}

export interface IngestedMessage {
  messageIdHeader: string | null;
  inReplyTo: string | null;
  references: string[];
  subject: string | null;
  snippet: string | null;
  from: Address | null;
  recipients: { to: Address[]; cc: Address[]; replyTo: Address[] };
  dateHeader: string | null;
  /** The Date header when it parses to a real date. */
  date: Date | null;
  bodyText: string | null;
  bodyHtml: string | null;
  bodyComplete: boolean;
  hasAttachments: boolean;
  attachments: IngestedAttachment[];
  signals: MessageSignals;
  /** The mailing list's id from `List-Id` (normalised, ./signals.ts `listIdOf`), or null. */
  listId: string | null;
  /** How to leave the list (`List-Unsubscribe`, RFC 8058 one-click: ./unsubscribe.ts), or null. */
  listUnsubscribe: ListUnsubscribe | null;
}

export interface IngestOptions {
  /** The mailbox's own address (isFromSelf). */
  mailboxAddress: string;
  /** `full` keeps bodies and attachment content; `processing_only` keeps neither (bodyComplete false). */
  mode: 'full' | 'processing_only';
  /** False when the source is only the header block or was cut before it reached us. */
  sourceComplete?: boolean;
}

/** Header names kept raw: what the signals read, and the Date header as written. */
const signalHeaders = new Set<string>([...signalHeaderNames, 'date', 'list-unsubscribe-post']);

/**
 * The header lines a headers-first listing fetches (`BODY.PEEK[HEADER.FIELDS (…)]`): the decoded ones, what a list
 * and its threads are made of (sender, recipients, subject, date, ids). A source holding only these ingests to the
 * row a list shows; the rest of the row (the signals read from raw lines, the list's id and unsubscribe, the
 * body's shape) the body pass writes from the whole message, with the body (../mirror/writer.ts `writeBodies`).
 * Every name asked is echoed in each answer and read by imapflow, per message: the 26 names the whole row needs
 * cost a 10,000-message listing a third of a second of CPU more than these 9 (bench/README), and twice the bytes.
 */
export const listedHeaderNames: readonly string[] = decodedHeaderKeys;

/** Raw values of the headers named in `signalHeaders`, unfolded and bounded. */
export function headerValues(lines: HeaderLines): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const { key, line } of lines) {
    if (!signalHeaders.has(key)) continue;
    const list = map.get(key) ?? [];
    if (list.length >= ingestLimits.headerValuesPerName) continue;
    const colon = line.indexOf(':');
    const raw = line.slice(colon + 1, colon + 1 + ingestLimits.headerValueChars * 2);
    list.push(raw.replace(/\r?\n[ \t]+/g, ' ').trim().slice(0, ingestLimits.headerValueChars));
    map.set(key, list);
  }
  return map;
}

const messageIdPattern = /<[^<>\s]{1,498}>/g;

/** Message-IDs (with their angle brackets) in a header value; a bare id without brackets is accepted alone. */
export function messageIds(value: unknown): string[] {
  const text = (Array.isArray(value) ? value.join(' ') : typeof value === 'string' ? value : '').slice(0, 200_000);
  const found = text.match(messageIdPattern) ?? [];
  if (found.length === 0) {
    const bare = text.trim();
    if (bare !== '' && !/\s/.test(bare) && bare.length <= ingestLimits.messageIdChars - 2) return [storable(`<${bare}>`, ingestLimits.messageIdChars)!];
    return [];
  }
  return found.map((id) => storable(id, ingestLimits.messageIdChars)!).filter(Boolean);
}

/** The root and the closest parents when there are too many. */
function boundedReferences(ids: string[]): string[] {
  const unique = [...new Set(ids)];
  if (unique.length <= ingestLimits.references) return unique;
  return [unique[0]!, ...unique.slice(unique.length - (ingestLimits.references - 1))];
}

function toAddress(entry: { name: string; address: string }): Address | null {
  const email = storable(entry.address.trim(), ingestLimits.addressChars);
  if (!email || email.length >= ingestLimits.addressChars) return null;
  const name = storable(entry.name.trim(), ingestLimits.nameChars);
  return name ? { name, email } : { email };
}

function addressList(value: AddressObject | AddressObject[] | undefined): Address[] {
  return addressesOf(value)
    .map(toAddress)
    .filter((address): address is Address => address !== null);
}

function header<T>(headers: Headers | null, name: DecodedHeaderKey): T | undefined {
  return headers?.get(name) as T | undefined;
}

function attachmentOf(part: ParsedPart): IngestedAttachment {
  return {
    position: part.position,
    filename: storable(part.filename, ingestLimits.filenameChars) ?? `attachment-${part.position + 1}`,
    mime: storable(part.contentType.toLowerCase(), ingestLimits.mimeChars) ?? 'application/octet-stream',
    size: part.size,
    disposition: part.disposition === 'inline' ? 'inline' : 'attachment',
    contentId: storable(part.contentId, ingestLimits.contentIdChars),
    partRef: part.partId && part.partId.length <= 100 ? part.partId : null,
    content: part.content,
  };
}

/** The header block of a source (up to the first empty line), bounded; the whole head when none. */
function headerBlock(source: Buffer): Buffer {
  const head = source.subarray(0, 256 * 1024);
  const crlf = head.indexOf('\r\n\r\n');
  const lf = head.indexOf('\n\n');
  const ends = [crlf, lf].filter((at) => at >= 0);
  const end = ends.length > 0 ? Math.min(...ends) : head.lastIndexOf('\n');
  return Buffer.concat([head.subarray(0, end < 0 ? head.length : end), Buffer.from('\r\n\r\n')]);
}

export async function ingestMessage(source: Buffer, options: IngestOptions): Promise<IngestedMessage> {
  const full = options.mode === 'full';
  let parsed = await parseMime(source, { keepContent: full });
  if (!parsed.headers) {
    // The parser gave up before the top-level header was read (oversized or broken structure): read
    // the header block alone so the message still has its sender, subject and ids.
    const headersOnly = await parseMime(headerBlock(source), { keepContent: false });
    parsed = { ...headersOnly, complete: false };
  }
  const headers = parsed.headers;
  const from = addressList(header<AddressObject>(headers, 'from'))[0] ?? null;
  const rawHeaders: HeaderValues = headerValues(parsed.headerLines);
  const dateValue = header<Date>(headers, 'date');
  const date = dateValue instanceof Date && !Number.isNaN(dateValue.getTime()) ? dateValue : null;

  const text = parsed.text === null ? null : storableText(parsed.text, ingestLimits.textChars);
  const html = parsed.html === null ? null : storableText(parsed.html, ingestLimits.htmlChars);
  const cut = (text?.cut ?? false) || (html?.cut ?? false);
  const attachments = parsed.parts.map(attachmentOf);
  const contentMissing = full && attachments.some((attachment) => attachment.content === null);

  return {
    messageIdHeader: messageIds(header(headers, 'message-id'))[0] ?? null,
    inReplyTo: messageIds(header(headers, 'in-reply-to'))[0] ?? null,
    references: boundedReferences(messageIds(header(headers, 'references'))),
    subject: storable(header<string>(headers, 'subject')?.trim(), ingestLimits.subjectChars),
    snippet: snippetOf(text?.text ?? null, ingestLimits.snippetChars),
    from,
    recipients: {
      to: addressList(header<AddressObject>(headers, 'to')),
      cc: addressList(header<AddressObject>(headers, 'cc')),
      replyTo: addressList(header<AddressObject>(headers, 'reply-to')),
    },
    dateHeader: storable(rawHeaders.get('date')?.[0], ingestLimits.dateHeaderChars),
    date,
    bodyText: full ? (text?.text || null) : null,
    bodyHtml: full ? (html?.text || null) : null,
    bodyComplete: full && parsed.complete && !cut && !contentMissing && options.sourceComplete !== false,
    hasAttachments: parsed.parts.some((part) => part.disposition !== 'inline' || !part.related),
    attachments,
    signals: signalsOf({
      headers: rawHeaders,
      fromEmail: from?.email ?? null,
      mailboxAddress: options.mailboxAddress,
      partTypes: parsed.parts.map((part) => part.contentType),
    }),
    listId: listIdOf(rawHeaders),
    listUnsubscribe: listUnsubscribeOf(rawHeaders),
  };
}
