/**
 * The mail domain's reads that every part shares: which mailboxes a member may read, their folders,
 * and the hand-built list statements run on the pool (the lists are the measured hot path).
 */
import { db, pool } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import type { Statement } from './sql';

export interface ScopedMailbox {
  id: string;
  provider: string;
  status: string;
  address: string;
}

/**
 * The member's mailboxes (every status: a disconnected mailbox's history stays readable), or the one
 * asked for. A mailbox id that is not one of the member's is a 400 naming the parameter, the only
 * code the lists' spec gives for a bad query; the answer is the same for another member's mailbox and
 * for no mailbox at all.
 */
export async function mailboxesInScope(memberId: string, mailboxId?: string): Promise<ScopedMailbox[]> {
  return checkedScope(await runStatement<ScopedMailbox>(mailboxScopeStatement(memberId, mailboxId, false)), mailboxId);
}

/** The same, with each mailbox's folders (key and role), in one statement: the threads list needs both. */
export async function mailboxesWithFolders(memberId: string, mailboxId?: string): Promise<(ScopedMailbox & { folders: { key: string; role: string | null }[] })[]> {
  return checkedScope(await runStatement<ScopedMailbox & { folders: { key: string; role: string | null }[] }>(mailboxScopeStatement(memberId, mailboxId, true)), mailboxId);
}

/** The statement of the two above (also run by bench/mail-lists.ts's floor). */
export function mailboxScopeStatement(memberId: string, mailboxId: string | undefined, withFolders: boolean): Statement {
  const folders = withFolders
    ? `, coalesce((SELECT json_agg(json_build_object('key', f.key, 'role', f.role) ORDER BY f.key) FROM mail_folders f WHERE f.mailbox_id = b.id), '[]'::json) AS folders`
    : '';
  return {
    text: `SELECT b.id, b.provider, b.status, b.address${folders} FROM mailboxes b
            WHERE b.member_id = $1::uuid${mailboxId ? ' AND b.id = $2::uuid' : ''} ORDER BY b.connected_at, b.id`,
    values: mailboxId ? [memberId, mailboxId] : [memberId],
  };
}

function checkedScope<T>(mailboxes: T[], mailboxId: string | undefined): T[] {
  if (mailboxId && mailboxes.length === 0) {
    throw appError('request.bad_request', {
      message: 'No such mailbox among yours.',
      details: { in: 'query', issues: [{ path: 'mailboxId', code: 'unknown_mailbox', message: 'No such mailbox among yours.' }] },
    });
  }
  return mailboxes;
}

export interface FolderRow {
  mailboxId: string;
  key: string;
  role: string | null;
  name: string | null;
  label: string | null;
  parentKey: string | null;
  color: string | null;
  depth: number;
}

export function foldersOf(mailboxIds: string[]): Promise<FolderRow[]> {
  return db().mailFolder.findMany({
    where: { mailboxId: { in: mailboxIds } },
    select: { mailboxId: true, key: true, role: true, name: true, label: true, parentKey: true, color: true, depth: true },
    orderBy: [{ mailboxId: 'asc' }, { key: 'asc' }],
  });
}

export async function runStatement<Row>(statement: Statement): Promise<Row[]> {
  const result = await pool().query(statement.text, statement.values);
  return result.rows as Row[];
}
