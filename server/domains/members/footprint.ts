/**
 * The counts of the Member resource that other domains own: mailboxes (every mailbox of the member,
 * whatever its status) and published workflows.
 */
import type { Tx } from '../../core/db';
import { mailboxCounts } from '../mailboxes';
import { publishedWorkflowCounts } from '../workflows';
import type { MemberFootprint } from './present';

export async function memberFootprints(memberIds: string[], tx?: Tx): Promise<Map<string, MemberFootprint>> {
  const [mailboxes, workflows] = await Promise.all([mailboxCounts(memberIds, tx), publishedWorkflowCounts(memberIds, tx)]);
  return new Map(memberIds.map((id) => [id, { mailboxCount: mailboxes.get(id) ?? 0, publishedWorkflowCount: workflows.get(id) ?? 0 }]));
}

export async function memberFootprint(memberId: string, tx?: Tx): Promise<MemberFootprint> {
  return (await memberFootprints([memberId], tx)).get(memberId)!;
}
