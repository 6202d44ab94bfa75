/**
 * Mailboxes: reading them here; connecting an IMAP/SMTP account (./connect.ts), asking the runner to sync,
 * resync or backfill it (./sync-requests.ts), and taking it away: disconnect, delete, member deactivation
 * (./teardown.ts).
 *
 * Terminology: a mailbox is one connected account of one member; its mirror is the folders, threads,
 * messages and attachments the runner copied from it; its own secret is the Credential row it uses
 * (an IMAP password, or an OAuth grant).
 *
 * Every change and the jobs it needs are written in one transaction.
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import type { Tx } from '../../core/db';
import { presentMailbox } from './present';
import * as repo from './repo';
import { workflowFootprint } from './workflow-links';

export async function listMailboxes(actor: AuthenticatedActor) {
  const mailboxes = await repo.listMemberMailboxes(actor.member.id);
  return { mailboxes: mailboxes.map(presentMailbox) };
}

/** Mailboxes per member for the Member resource's `mailboxCount`: every mailbox the member has, whatever its status. */
export function mailboxCounts(memberIds: string[], tx?: Tx): Promise<Map<string, number>> {
  return repo.countMailboxesByMember(memberIds, tx);
}

export async function removalImpact(actor: AuthenticatedActor, id: string) {
  const mailbox = await repo.findOwnedOrThrow(actor.member.id, id);
  const [messages, footprint] = await Promise.all([repo.countMessages(mailbox.id), workflowFootprint(mailbox.id)]);
  return { mailboxId: mailbox.id, address: mailbox.address, messages, pendingExecutions: footprint.pendingExecutions, workflows: footprint.workflows };
}
