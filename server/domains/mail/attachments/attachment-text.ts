/**
 * The text of a message's attachments for the AI nodes (`ai.extract` and `ai.classify` with
 * `attachments: pdf_and_text`, issue 24 §2): PDFs and plain-text files (text/plain, text/csv, or an
 * octet stream named .pdf, .txt or .csv), the first few in MIME order, each within its bounds.
 *
 * - Content comes through the webmail's download path (`downloadAttachment`, the member's own check):
 *   the mirror's blob, or the provider on demand for a mailbox that keeps metadata only. A PDF whose
 *   recorded size is over the bound is not fetched at all.
 * - A PDF is read by PDF.js on the PDF pool's worker thread (server/mail/pdf/pdf-text-pool.ts: time,
 *   heap and memory bounds, the thread replaced on overrun), never on the caller's thread.
 * - A text file is decoded as UTF-8, or as Latin-1 when it is not valid UTF-8; only the bytes the bound
 *   keeps (and a few for the last character) are decoded.
 * - Whatever cannot be read (too large, protected by a password, not a PDF, too slow or too big for the
 *   reader, content gone, no text layer) gives a note ("could not read: …"), never a failure: the node
 *   goes on with what it has.
 */
import type { AuthenticatedActor } from '../../../core/auth/access';
import { isAppError } from '../../../core/errors/app-error';
import { readableText, utf8Prefix } from '../../../mail/body-text';
import { pdfTextInPool } from '../../../mail/pdf/pdf-text-pool';
import type { AttachmentText, AttachmentTextBounds, AttachmentTexts } from '../../../engine/contract/capabilities';
import { findMemberAttachmentRows } from '../messages/repo';
import { downloadAttachment } from './service';

type Row = NonNullable<Awaited<ReturnType<typeof findMemberAttachmentRows>>>[number];

const textTypes = new Set(['text/plain', 'text/csv']);
const pdfTypes = new Set(['application/pdf', 'application/x-pdf']);
const unnamedTypes = new Set(['application/octet-stream', 'binary/octet-stream', 'application/binary']);

/** What kind of readable attachment a row is, or null. */
export function readableKindOf(row: Pick<Row, 'mime' | 'filename'>): 'pdf' | 'text' | null {
  const mime = row.mime.split(';', 1)[0]!.trim().toLowerCase();
  if (pdfTypes.has(mime)) return 'pdf';
  if (textTypes.has(mime)) return 'text';
  if (!unnamedTypes.has(mime)) return null;
  const name = row.filename.toLowerCase();
  if (name.endsWith('.pdf')) return 'pdf';
  if (name.endsWith('.txt') || name.endsWith('.csv')) return 'text';
  return null;
}

/** The readable attachments' text, within `bounds`; null when the message is not the actor's member's. */
export async function attachmentTextsOf(actor: AuthenticatedActor, messageId: string, bounds: AttachmentTextBounds): Promise<AttachmentTexts | null> {
  const rows = await findMemberAttachmentRows(actor.member.id, messageId);
  if (!rows) return null;
  const readable = rows.filter((row) => readableKindOf(row) !== null);
  const chosen = readable.slice(0, bounds.attachments);
  const read: AttachmentText[] = [];
  for (const row of chosen) read.push(await readOne(actor, messageId, row, bounds));
  return { read, left: readable.length - chosen.length };
}

const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
/** A size just over a bound, in KB rounded up, so it never reads as the bound itself. */
const kilobytes = (bytes: number) => `${Math.ceil(bytes / 1024).toLocaleString('en')} KB`;

async function readOne(actor: AuthenticatedActor, messageId: string, row: Row, bounds: AttachmentTextBounds): Promise<AttachmentText> {
  const kind = readableKindOf(row)!;
  const base = { filename: row.filename, contentType: row.mime };
  const unread = (why: string): AttachmentText => ({ ...base, text: null, truncated: false, note: `could not read: ${why}` });
  if (kind === 'pdf' && row.size > bounds.pdfBytes) return unread(`it is larger than ${megabytes(bounds.pdfBytes)} (${kilobytes(row.size)})`);
  let content: Buffer;
  try {
    content = (await downloadAttachment(actor, messageId, row.position)).content;
  } catch (error) {
    if (isAppError(error)) return unread('its content is not available (the mirror does not keep it and the mail server did not give it)');
    throw error;
  }
  if (kind === 'text') return { ...base, ...textOf(content, bounds.textBytes) };
  if (content.length > bounds.pdfBytes) return unread(`it is larger than ${megabytes(bounds.pdfBytes)} (${kilobytes(content.length)})`);
  const pdf = await pdfTextInPool(new Uint8Array(content), { maxPages: bounds.pdfPages, maxChars: bounds.textBytes });
  if (!pdf.ok) return unread(pdf.message);
  const text = utf8Prefix(readableText(pdf.text), bounds.textBytes);
  if (text.text.trim() === '') return unread('it has no text layer (a scanned image?)');
  const truncated = pdf.truncated || text.cut;
  const pages = pdf.pagesRead < pdf.totalPages ? `read the first ${pdf.pagesRead} of ${pdf.totalPages} pages` : null;
  const note = truncated ? (pages ?? `cut at ${Math.round(bounds.textBytes / 1024)} KB of text`) : null;
  return { ...base, text: text.text, truncated, note };
}

/** A text file's start: UTF-8 when it is valid UTF-8 (a character cut by the bound aside), else Latin-1. */
function textOf(content: Buffer, maxBytes: number): Pick<AttachmentText, 'text' | 'truncated' | 'note'> {
  const head = content.subarray(0, maxBytes + 4);
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: head.length < content.length });
  } catch {
    decoded = head.toString('latin1');
  }
  const text = utf8Prefix(readableText(decoded.replace(/^\uFEFF/, '')), maxBytes);
  const truncated = text.cut || content.length > head.length;
  return { text: text.text, truncated, note: truncated ? `cut at ${Math.round(maxBytes / 1024)} KB of text` : null };
}
