/**
 * Test helpers for mailboxes: what the job queue holds for a mailbox, and a stored
 * credential as connect (IMAP) or an OAuth callback (grant) writes it.
 */
import { randomUUID } from 'node:crypto';
import { sealJson } from '../core/crypto/secret-box';
import { db } from '../core/db';
import { sealImapPassword } from '../mail/imap/mailbox-settings';

export interface QueuedJob {
  task: string;
  key: string | null;
  payload: Record<string, unknown>;
}

/** Jobs waiting in graphile-worker's queue whose payload names the mailbox. */
export async function queuedJobs(mailboxId: string): Promise<QueuedJob[]> {
  const rows = await db().$queryRaw<{ task: string; key: string | null; payload: Record<string, unknown> }[]>`
    SELECT t.identifier AS task, j.key, j.payload
    FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
    WHERE j.payload->>'mailboxId' = ${mailboxId}
    ORDER BY j.id`;
  return rows;
}

export async function clearJobs(): Promise<void> {
  await db().$executeRaw`DELETE FROM graphile_worker._private_jobs`;
}

/** An `imap` credential linked to the mailbox, as connect stores it. */
export async function linkImapCredential(mailbox: { id: string; memberId: string; address: string }, password = 'stored-password') {
  const id = randomUUID();
  await db().credential.create({ data: { id, memberId: mailbox.memberId, type: 'imap', name: mailbox.address, dataEnc: sealImapPassword(id, password) } });
  await db().mailbox.update({ where: { id: mailbox.id }, data: { credentialId: id } });
  return id;
}

/** An OAuth grant linked to the mailbox, with its capabilities. */
export async function linkOAuthGrant(mailbox: { id: string; memberId: string; address: string }, capabilities: string[]) {
  const id = randomUUID();
  await db().credential.create({
    data: {
      id,
      memberId: mailbox.memberId,
      type: 'mail_provider_a_oauth',
      name: mailbox.address,
      dataEnc: sealJson({ accessToken: 'a', refreshToken: 'r' }, `credential:${id}`),
      capabilities,
      accountEmail: mailbox.address,
    },
  });
  await db().mailbox.update({ where: { id: mailbox.id }, data: { credentialId: id } });
  return id;
}
