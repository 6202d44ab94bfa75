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
  const mailboxes = await db().mailbox.findMany({
    where: { memberId, ...(mailboxId ? { id: mailboxId } : {}) },
    select: { id: true, provider: true, status: true, address: true },
    orderBy: { connectedAt: 'asc' },
  });
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
