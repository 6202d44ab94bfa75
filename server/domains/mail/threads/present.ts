import { addressesOf, recordOf } from '../present';
import type { ThreadOutput } from './schemas';

export interface ThreadRow {
  id: string;
  mailbox_id: string;
  subject: string | null;
  last_message_at: Date;
  message_count: number;
  unread_count: number;
  flagged: boolean;
  has_attachments: boolean;
  participants: unknown;
  participant_count: number;
  snippet: string | null;
  classification: unknown;
  draft: boolean;
  sent: boolean;
}

export function presentThread(row: ThreadRow): ThreadOutput {
  return {
    id: row.id,
    mailboxId: row.mailbox_id,
    subject: row.subject,
    lastMessageAt: row.last_message_at.toISOString(),
    messageCount: row.message_count,
    unreadCount: row.unread_count,
    participants: addressesOf(row.participants).slice(0, 3),
    participantCount: row.participant_count,
    snippet: row.snippet,
    hasAttachments: row.has_attachments,
    flags: { seen: row.unread_count === 0, flagged: row.flagged, draft: row.draft, sent: row.sent },
    classification: recordOf(row.classification),
  };
}
