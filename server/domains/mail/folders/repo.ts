/** Message counts per folder, from the mirror. */
import { db } from '../../../core/db';

export interface FolderCountRow {
  mailboxId: string;
  folderKey: string;
  total: number;
  unread: number;
  flagged: number;
  flaggedUnread: number;
}

/** Per mailbox and folder key; a label counts as a folder of its own (folderLabels). */
export async function folderCounts(mailboxIds: string[]): Promise<{ byFolder: FolderCountRow[]; byLabel: Omit<FolderCountRow, 'flagged' | 'flaggedUnread'>[] }> {
  const [byFolder, byLabel] = await Promise.all([
    db().$queryRaw<FolderCountRow[]>`
      SELECT mailbox_id AS "mailboxId", folder_key AS "folderKey", count(*)::int AS total,
             count(*) FILTER (WHERE NOT seen)::int AS unread, count(*) FILTER (WHERE flagged)::int AS flagged,
             count(*) FILTER (WHERE flagged AND NOT seen)::int AS "flaggedUnread"
        FROM mail_messages WHERE mailbox_id = ANY(${mailboxIds}::uuid[]) GROUP BY 1, 2`,
    db().$queryRaw<Omit<FolderCountRow, 'flagged' | 'flaggedUnread'>[]>`
      SELECT m.mailbox_id AS "mailboxId", l.key AS "folderKey", count(*)::int AS total, count(*) FILTER (WHERE NOT m.seen)::int AS unread
        FROM mail_messages m CROSS JOIN LATERAL unnest(m.labels) AS l(key)
       WHERE m.mailbox_id = ANY(${mailboxIds}::uuid[]) AND m.labels <> '{}' GROUP BY 1, 2`,
  ]);
  return { byFolder, byLabel };
}
