/**
 * What other domains ask about a member's workflows, answered from the trigger facts stored on each
 * published version (never by parsing graphs): the workflows linked to a mailbox (its trigger watches
 * it: `trigger`; a node acts on or sends from it: `sender`), disarming them when the mailbox goes,
 * and the member's published count and unpublishing when the member is deactivated.
 */
import { db, type Tx } from '../../core/db';
import { unpublishIn } from './lifecycle';
import { countExecutionsIn, countPublishedByMember, listPublished, mailboxOwner, publishedIdsOf, versionMailboxFacts } from './repo';

export interface MailboxLink {
  id: string;
  name: string;
  link: 'trigger' | 'sender';
}

const pendingStatuses = ['queued', 'running', 'waiting'];

/** The member's published workflows with the facts of their published version. */
async function publishedWithFacts(memberId: string, tx: Tx) {
  const workflows = await listPublished(memberId, tx);
  const versions = await versionMailboxFacts(
    workflows.map((workflow) => workflow.publishedVersionId!),
    tx,
  );
  const byId = new Map(versions.map((version) => [version.id, version]));
  return workflows.flatMap((workflow) => {
    const version = byId.get(workflow.publishedVersionId!);
    return version ? [{ ...workflow, version }] : [];
  });
}

export async function mailboxWorkflowFootprint(mailboxId: string, tx: Tx = db()): Promise<{ workflows: MailboxLink[]; pendingExecutions: number }> {
  const mailbox = await mailboxOwner(mailboxId, tx);
  if (!mailbox) return { workflows: [], pendingExecutions: 0 };
  const linked: MailboxLink[] = [];
  for (const { id, name, version } of await publishedWithFacts(mailbox.memberId, tx)) {
    const watches = version.triggerType === 'mail' && (version.triggerMailboxIds.length === 0 || version.triggerMailboxIds.includes(mailboxId));
    if (watches) linked.push({ id, name, link: 'trigger' });
    else if (version.usedMailboxIds.includes(mailboxId)) linked.push({ id, name, link: 'sender' });
  }
  const pendingExecutions = linked.length
    ? await countExecutionsIn(
        linked.map((workflow) => workflow.id),
        pendingStatuses,
        tx,
      )
    : 0;
  return { workflows: linked, pendingExecutions };
}

/**
 * Unpublishes the workflows that cannot work without this mailbox: a trigger watching it alone
 * (explicitly), or a node acting on or sending from it. A trigger watching every mailbox, or this one
 * among others, keeps working with the rest.
 */
export async function disarmMailboxWorkflows(mailboxId: string, tx: Tx): Promise<{ disarmed: number; unpublished: number }> {
  const mailbox = await mailboxOwner(mailboxId, tx);
  if (!mailbox) return { disarmed: 0, unpublished: 0 };
  let unpublished = 0;
  for (const { id, version } of await publishedWithFacts(mailbox.memberId, tx)) {
    const watchesOnlyIt = version.triggerMailboxIds.length === 1 && version.triggerMailboxIds[0] === mailboxId;
    if ((watchesOnlyIt || version.usedMailboxIds.includes(mailboxId)) && (await unpublishIn(id, tx))) unpublished++;
  }
  return { disarmed: unpublished, unpublished };
}

export async function publishedWorkflowCounts(memberIds: string[], tx: Tx = db()): Promise<Map<string, number>> {
  if (memberIds.length === 0) return new Map();
  const groups = await countPublishedByMember(memberIds, tx);
  return new Map(groups.map((group) => [group.memberId, group._count._all]));
}

/** Every published workflow of the member, unpublished (deactivation). Answers how many. */
export async function unpublishMemberWorkflows(memberId: string, tx: Tx): Promise<number> {
  const published = await publishedIdsOf(memberId, tx);
  let count = 0;
  for (const { id } of published) if (await unpublishIn(id, tx)) count++;
  return count;
}
