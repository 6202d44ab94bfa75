/**
 * Creates or reconnects the mailbox a `mail` grant gives (the lead may move this into the mailboxes
 * domain). One mailbox per member, provider and address: connecting a known address again points it
 * at the grant and makes it active, with its mirror and history kept. Its first (or next) sync is
 * queued in the same transaction, so a connected mailbox never waits for a job that was not written.
 */
import type { Tx } from '../../core/db';
import { jobKeys } from '../../core/jobs/catalogue';
import { enqueue } from '../../core/jobs/enqueue';
import { emitToMember } from '../../core/realtime/emit';

export interface OAuthMailboxInput {
  memberId: string;
  provider: 'mail_provider_a' | 'mail_provider_b';
  address: string;
  credentialId: string;
}

export async function connectOAuthMailbox(tx: Tx, input: OAuthMailboxInput): Promise<{ mailboxId: string; created: boolean }> {
  const key = { memberId: input.memberId, provider: input.provider, address: input.address };
  const existing = await tx.mailbox.findUnique({ where: { memberId_provider_address: key }, select: { id: true } });
  const mailbox = existing
    ? await tx.mailbox.update({
        where: { id: existing.id },
        data: { status: 'active', credentialId: input.credentialId, disconnectedAt: null, failureCount: 0 },
        select: { id: true },
      })
    : await tx.mailbox.create({ data: { ...key, status: 'active', credentialId: input.credentialId }, select: { id: true } });
  await enqueue('mail.sync', { mailboxId: mailbox.id, reason: 'connect' }, { jobKey: jobKeys.sync(mailbox.id) }, tx);
  await emitToMember(input.memberId, 'mailbox.status', { mailboxId: mailbox.id, status: 'active' }, tx);
  return { mailboxId: mailbox.id, created: !existing };
}
