/**
 * The statements of a thread read as a conversation (./conversation.ts, the engine's mail.read_thread):
 * the message it starts from (scoped to the member), the thread's latest messages and its last inbound and
 * outbound ones. A message mirrored in several folders (a copy in All Mail, a label) is one message of the
 * conversation: rows are made distinct by their Message-ID (the row id when there is none), keeping the
 * earliest row. Drafts are left out: an unsent message is not part of the conversation.
 */
import { runStatement } from '../repo';

/** The message a conversation is read from, with its mailbox's own address; null when it is not the member's. */
export interface ConversationAnchor {
  id: string;
  thread_id: string | null;
  mailbox_id: string;
  address: string;
}

export interface ConversationRow {
  id: string;
  from_name: string | null;
  from_email: string | null;
  recipients: unknown;
  subject: string | null;
  snippet: string | null;
  received_at: Date;
  folder: string;
  has_attachments: boolean;
  is_auto_reply: boolean;
  is_no_reply: boolean;
  is_mailing_list: boolean;
  is_bulk: boolean;
  is_delivery_report: boolean;
  is_calendar: boolean;
  outbound: boolean;
  automatic: boolean;
}

export async function findConversationAnchor(memberId: string, messageId: string): Promise<ConversationAnchor | null> {
  const [row] = await runStatement<ConversationAnchor>({
    text: `SELECT m.id, m.thread_id, m.mailbox_id, b.address
             FROM mail_messages m JOIN mailboxes b ON b.id = m.mailbox_id
            WHERE m.id = $1::uuid AND b.member_id = $2::uuid`,
    values: [messageId, memberId],
  });
  return row ?? null;
}

/**
 * The conversation's messages, one per Message-ID: `$1` the thread (null: the anchor `$2` alone), `$3` the
 * mailbox's address. Outbound: from the mailbox's own address (or marked so at ingest). Automatic: the
 * ingest signals of mail no person wrote.
 */
const conversationCte = `conversation AS (
  SELECT DISTINCT ON (coalesce(m.message_id_header, m.id::text))
         m.id, m.from_name, m.from_email, m.recipients, m.subject, m.snippet, m.received_at,
         coalesce(f.role, m.folder_key) AS folder, m.has_attachments, m.is_auto_reply, m.is_no_reply, m.is_mailing_list,
         m.is_bulk, m.is_delivery_report, m.is_calendar,
         (m.is_from_self OR lower(trim(coalesce(m.from_email, ''))) = lower(trim($3::text))) AS outbound,
         (m.is_auto_reply OR m.is_delivery_report OR m.is_bulk OR m.is_no_reply) AS automatic
    FROM mail_messages m
    LEFT JOIN mail_folders f ON f.mailbox_id = m.mailbox_id AND f.key = m.folder_key
   WHERE (CASE WHEN $1::uuid IS NULL THEN m.id = $2::uuid ELSE m.thread_id = $1::uuid END) AND NOT m.draft
   ORDER BY coalesce(m.message_id_header, m.id::text), m.received_at, m.id)`;

const rowColumns = `id, from_name, from_email, recipients, subject, snippet, received_at, folder, has_attachments, is_auto_reply,
  is_no_reply, is_mailing_list, is_bulk, is_delivery_report, is_calendar, outbound, automatic`;

/** The latest `limit` messages (newest first) and how many the conversation has. */
export async function latestConversationMessages(anchor: ConversationAnchor, limit: number): Promise<{ rows: ConversationRow[]; total: number }> {
  const rows = await runStatement<ConversationRow & { total: number }>({
    text: `WITH ${conversationCte}
           SELECT ${rowColumns}, (count(*) OVER ())::int AS total FROM conversation ORDER BY received_at DESC, id DESC LIMIT $4::int`,
    values: [anchor.thread_id, anchor.id, anchor.address, limit],
  });
  return { rows, total: rows[0]?.total ?? 0 };
}

/** The last outbound message and the last inbound one a person wrote, in the whole conversation (at most one of each). */
export async function lastConversationMessages(anchor: ConversationAnchor): Promise<ConversationRow[]> {
  return runStatement<ConversationRow>({
    text: `WITH ${conversationCte}
           SELECT DISTINCT ON (outbound) ${rowColumns} FROM conversation
            WHERE outbound OR NOT automatic
            ORDER BY outbound, received_at DESC, id DESC`,
    values: [anchor.thread_id, anchor.id, anchor.address],
  });
}
