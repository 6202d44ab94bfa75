/**
 * The whole message in a mail run's trigger data (issue 24 §2): its body as text and its attachments'
 * metadata, read from the mirror in the dispatch transaction, for real dispatch and a test run's pinned
 * message alike (dispatch-mail.ts `summaryOf`).
 *
 * - `text`: the plain-text body, or the HTML body reduced to text (server/mail/body-text.ts), at most
 *   `triggerTextBytes` (64 KB) of UTF-8 cut on a character boundary, `textTruncated` when anything was
 *   left out. Null when the mirror holds no body: a mailbox synced in `processing_only` keeps none, and
 *   a body the sync could not fetch waits for a member to open it (server/mail/content.ts). Dispatch
 *   never asks the provider: it runs in the journal's transaction, and the message is new, so its body
 *   came with it whenever the mailbox keeps bodies.
 * - `attachments`: `{id, position, filename, contentType, size, disposition}` of the first
 *   `triggerAttachmentRows` (50) in MIME order, inline parts included (a workflow tells them by
 *   `disposition`), `attachmentsTruncated` beyond. Metadata only: content is read by the nodes that need
 *   it (ai.extract's and ai.classify's `attachments`), through the webmail's download path.
 *
 * Only what is needed is read: `triggerTextBytes` + 1 characters of the text, and the HTML only when
 * the text is missing, at most `htmlInputChars` + 1 characters of it. Step data stays within its
 * 256 KB: 64 KB of text (at most 128 KB once escaped in JSON, control characters being dropped) and
 * 50 attachment rows of bounded strings.
 */
import type { Tx } from '../../core/db';
import { bodyTextOf, htmlInputChars } from '../../mail/body-text';

export const triggerTextBytes = 64 * 1024;
export const triggerAttachmentRows = 50;

export interface TriggerAttachment {
  id: string;
  position: number;
  filename: string;
  contentType: string;
  size: number;
  disposition: string;
}

export interface MessageContent {
  text: string | null;
  textTruncated: boolean;
  attachments: TriggerAttachment[];
  attachmentsTruncated: boolean;
}

export async function messageContentOf(tx: Tx, messageId: string): Promise<MessageContent> {
  const [body] = await tx.$queryRaw<{ text: string | null; textCut: boolean; html: string | null; htmlCut: boolean }[]>`
    SELECT left(body_text, ${triggerTextBytes + 1}::int) AS text, coalesce(char_length(body_text) > ${triggerTextBytes + 1}::int, false) AS "textCut",
           CASE WHEN body_text IS NULL OR btrim(left(body_text, 4096)) = '' THEN left(body_html, ${htmlInputChars + 1}::int) END AS html,
           coalesce(body_text IS NULL AND char_length(body_html) > ${htmlInputChars + 1}::int, false) AS "htmlCut"
      FROM mail_messages WHERE id = ${messageId}::uuid`;
  const rows = await tx.$queryRaw<TriggerAttachment[]>`
    SELECT id, position, filename, mime AS "contentType", size, disposition
      FROM mail_attachments WHERE message_id = ${messageId}::uuid
     ORDER BY position
     LIMIT ${triggerAttachmentRows + 1}::int`;
  const text = body ? bodyTextOf(body, triggerTextBytes) : null;
  return {
    text: text?.text ?? null,
    textTruncated: text?.truncated ?? false,
    attachments: rows.slice(0, triggerAttachmentRows),
    attachmentsTruncated: rows.length > triggerAttachmentRows,
  };
}
