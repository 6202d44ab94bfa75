/** Mirror rows (as the lists' statements read them, snake_case) to the API's shapes. */
import type { MessageSummary } from './schemas';

export interface MessageSummaryRow {
  id: string;
  mailbox_id: string;
  from_name: string | null;
  from_email: string | null;
  subject: string | null;
  snippet: string | null;
  received_at: Date;
  folder_key: string;
  labels: string[] | null;
  seen: boolean;
  flagged: boolean;
  draft: boolean;
  sent: boolean;
  is_auto_reply: boolean;
  is_no_reply: boolean;
  is_mailing_list: boolean;
  is_from_self: boolean;
  is_bulk: boolean;
  is_delivery_report: boolean;
  is_calendar: boolean;
  has_attachments: boolean;
}

export interface Address {
  name?: string;
  email: string;
}

export function addressOf(name: string | null | undefined, email: string | null | undefined): Address | null {
  if (!email) return null;
  return name ? { name, email } : { email };
}

/** `{name?, email}` items of a stored JSON list; anything else in it is left out. */
export function addressesOf(value: unknown): Address[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    if (typeof item !== 'object' || item === null) return [];
    const { name, email } = item as { name?: unknown; email?: unknown };
    if (typeof email !== 'string' || email === '') return [];
    return [typeof name === 'string' && name !== '' ? { name, email } : { email }];
  });
}

export function presentMessageSummary(row: MessageSummaryRow): MessageSummary {
  return {
    id: row.id,
    mailboxId: row.mailbox_id,
    from: addressOf(row.from_name, row.from_email),
    subject: row.subject,
    snippet: row.snippet,
    receivedAt: row.received_at.toISOString(),
    folderLabels: [row.folder_key, ...(row.labels ?? [])],
    flags: { seen: row.seen, flagged: row.flagged, draft: row.draft, sent: row.sent },
    signals: {
      isAutoReply: row.is_auto_reply,
      isNoReply: row.is_no_reply,
      isMailingList: row.is_mailing_list,
      isFromSelf: row.is_from_self,
      isBulk: row.is_bulk,
      isDeliveryReport: row.is_delivery_report,
      isCalendar: row.is_calendar,
    },
    hasAttachments: row.has_attachments,
  };
}

export function recordOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
