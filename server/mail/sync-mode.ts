/**
 * A mailbox's `syncMode`:
 *
 * - `full`: the whole mirror. Every synced message keeps its metadata, flags, signals, text and raw
 *   HTML bodies (bounded, server/mail/ingest/limits.ts) and its attachments' content (blobs);
 *   older mail can be backfilled on request. A large IMAP initial window is listed from headers
 *   first and its bodies filled by the body pass right after (`bodyPending` meanwhile: see
 *   server/mail/mirror/bodies.ts).
 *
 * - `processing_only`: what workflows and the journal need, nothing a member would browse offline.
 *   Messages are mirrored as rows with sender, recipients, subject, snippet, ids (threading), flags,
 *   folders/labels, signals and attachment metadata, so triggers, guardrails, the journal and the
 *   thread lists work unchanged; `bodyText`/`bodyHtml` are null, no attachment content is stored and
 *   `bodyComplete` is false. Reading a message or downloading an attachment fetches it from the
 *   server at that moment (server/mail/content.ts) without storing it. Only recent mail: the
 *   initial window (MAIL_INITIAL_SYNC_DAYS / _MAX_PER_FOLDER) and new mail from then on; a backfill
 *   request completes at once with nothing added. Each message's source is read only up to
 *   `processingOnlyFetchBytes` (headers, the text parts for the snippet and signals, not the
 *   attachments).
 */
export type SyncMode = 'full' | 'processing_only';

/** Bytes of each message's source read in processing_only (enough for headers and the first text part). */
export const processingOnlyFetchBytes = 256 * 1024;

export function backfillAllowed(mode: string): boolean {
  return mode !== 'processing_only';
}
