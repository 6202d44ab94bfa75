import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { jobKeys } from '../../core/jobs/catalogue';
import { createMirrorSink, type MirrorMailbox } from '../../mail/mirror/writer';
import type { IngestedVia } from '../../mail/provider';
import { createMember, type TestMember } from '../../testing/factories';
import { mailboxCard, memberCard, sharedCard } from '../../testing/contact-cards';
import { createMailbox, createMessage, providerMessage, type TestMessageOptions } from '../../testing/mail-factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import type { GraphInput } from '../contract/graph';
import { dispatchNewMail, domainsOf } from './dispatch-mail';

await useTestDatabase();

const mailGraph = (params: Record<string, unknown> = {}): GraphInput => ({
  nodes: [{ id: 'mail', type: 'trigger.mail', version: 1, name: 'Mail', params, position: { x: 0, y: 0 } }],
  connections: [],
});

type Flags = Partial<{ isAutoReply: boolean; isNoReply: boolean; isMailingList: boolean; isFromSelf: boolean }>;

/** A new message, queued for dispatch as the mirror writer queues new mail. */
async function newMail(mailbox: { id: string }, options: TestMessageOptions & Flags = {}) {
  const { isAutoReply, isNoReply, isMailingList, isFromSelf, ...rest } = options;
  const message = await createMessage(mailbox, rest);
  await db().mailMessage.update({
    where: { id: message.id },
    data: { isAutoReply: isAutoReply ?? false, isNoReply: isNoReply ?? false, isMailingList: isMailingList ?? false, isFromSelf: isFromSelf ?? false },
  });
  await db().mailDispatchQueue.create({ data: { messageId: message.id, mailboxId: mailbox.id } });
  return message;
}

const journalOf = (messageId: string) => db().mailJournalEntry.findUnique({ where: { messageId } });
const executionsOf = (messageId: string) => db().execution.findMany({ where: { messageId }, orderBy: { createdAt: 'asc' } });

let member: TestMember;

beforeAll(async () => {
  member = await createMember();
});

describe('domainsOf', () => {
  it('lists the sender’s domain and its parents', () => {
    expect(domainsOf('a@Mail.Example.COM')).toEqual(['mail.example.com', 'example.com', 'com']);
    expect(domainsOf('nobody')).toEqual([]);
  });
});

describe('mail dispatch: journal outcomes', () => {
  it('dispatched: each matching live workflow starts once with the message summary; others do not', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    const other = await createMailbox(own);
    const any = await createWorkflow(own, { name: 'any', graph: mailGraph() });
    const invoices = await createWorkflow(own, { name: 'invoices', graph: mailGraph({ subject: ['invoice'], mailboxIds: [box.id] }) });
    await createWorkflow(own, { name: 'elsewhere', graph: mailGraph({ mailboxIds: [other.id] }) });
    await createWorkflow(own, { name: 'receipts', graph: mailGraph({ subject: ['receipt'] }) });
    await createWorkflow(own, { name: 'paused', graph: mailGraph(), paused: true });
    await createWorkflow(own, { name: 'draft', graph: mailGraph(), publish: false });
    const archived = await createWorkflow(own, { name: 'archived', graph: mailGraph() });
    await db().workflow.update({ where: { id: archived.workflow.id }, data: { archivedAt: new Date() } });
    // Another member's workflow never sees this member's mail.
    await createWorkflow(member, { name: 'stranger', graph: mailGraph() });

    const message = await newMail(box, { subject: 'Invoice 7', fromEmail: 'billing@shop.test', fromName: 'Shop' });
    await db().mailMessage.update({ where: { id: message.id }, data: { recipients: { to: [{ name: 'Me', email: 'me@x.test' }], cc: [], replyTo: [] }, labels: ['Work'] } });
    expect(await dispatchNewMail(box.id)).toBe(1);

    expect(await journalOf(message.id)).toMatchObject({ outcome: 'dispatched', ruleRef: null, memberId: own.id, mailboxId: box.id });
    const executions = await executionsOf(message.id);
    expect(executions.map((execution) => execution.workflowId).sort()).toEqual([any.workflow.id, invoices.workflow.id].sort());
    const first = executions.find((execution) => execution.workflowId === any.workflow.id)!;
    expect(first).toMatchObject({
      memberId: own.id,
      workflowVersionId: any.version!.id,
      triggerType: 'mail',
      triggerNodeId: 'mail',
      mailboxId: box.id,
      status: 'queued',
      simulated: false,
      holdsSlot: true,
      messageHeadline: { subject: 'Invoice 7', fromName: 'Shop', fromEmail: 'billing@shop.test' },
    });
    expect(first.triggerData).toEqual({
      id: message.id,
      mailboxId: box.id,
      threadId: message.threadId,
      subject: 'Invoice 7',
      from: { name: 'Shop', email: 'billing@shop.test' },
      to: [{ name: 'Me', email: 'me@x.test' }],
      cc: [],
      receivedAt: message.receivedAt.toISOString(),
      snippet: 'A short preview',
      text: 'Body text',
      textTruncated: false,
      attachments: [],
      attachmentsTruncated: false,
      labels: ['Work'],
      folder: 'inbox',
      hasAttachments: false,
      isMailingList: false,
      isAutoReply: false,
      isNoReply: false,
      isBulk: false,
      isDeliveryReport: false,
      isCalendar: false,
      signals: [],
      // Nobody has a card for the sender: the entry is there, empty, so `trigger.contact.status` never fails.
      contact: {
        address: 'billing@shop.test',
        known: false,
        displayName: null,
        status: null,
        language: null,
        formality: null,
        tone: null,
        notes: [],
        sources: { displayName: null, status: null, language: null, formality: null, tone: null, notes: [] },
      },
    });
    // Each run's first advance is queued with it.
    const jobs = await db().$queryRaw<{ key: string }[]>`SELECT key FROM graphile_worker.jobs WHERE task_identifier = 'execution.advance'`;
    for (const execution of executions) expect(jobs.map((job) => job.key)).toContain(jobKeys.execution(execution.id));
    expect(await db().mailDispatchQueue.count({ where: { messageId: message.id } })).toBe(0);
  });

  it('unmatched: no live workflow matches', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    await createWorkflow(own, { graph: mailGraph({ from: ['nobody-like-this'] }) });
    const message = await newMail(box);
    await dispatchNewMail(box.id);
    expect(await journalOf(message.id)).toMatchObject({ outcome: 'unmatched', ruleRef: null });
    expect(await executionsOf(message.id)).toHaveLength(0);
  });

  it('excluded_org: an organisation exclusion of the address or of a parent domain decides first', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    await createWorkflow(own, { graph: mailGraph() });
    const byDomain = await db().senderExclusion.create({ data: { memberId: null, kind: 'domain', value: 'spam-corp.test' } });
    // The member's own exclusion of the same sender loses to the organisation's.
    await db().senderExclusion.create({ data: { memberId: own.id, kind: 'address', value: 'x@news.spam-corp.test' } });
    const message = await newMail(box, { fromEmail: 'X@News.Spam-Corp.test' });
    const byAddress = await db().senderExclusion.create({ data: { memberId: null, kind: 'address', value: 'pest@example.org' } });
    const second = await newMail(box, { fromEmail: 'pest@example.org' });
    // A domain that merely ends the same way is not a subdomain.
    const lookalike = await newMail(box, { fromEmail: 'a@notspam-corp.test' });
    await dispatchNewMail(box.id);
    expect(await journalOf(message.id)).toMatchObject({ outcome: 'excluded_org', ruleRef: `exclusion:${byDomain.id}` });
    expect(await journalOf(second.id)).toMatchObject({ outcome: 'excluded_org', ruleRef: `exclusion:${byAddress.id}` });
    expect(await journalOf(lookalike.id)).toMatchObject({ outcome: 'dispatched' });
    expect(await executionsOf(message.id)).toHaveLength(0);
  });

  it('excluded_member: the member’s exclusion, never another member’s', async () => {
    const own = await createMember();
    const stranger = await createMember();
    const box = await createMailbox(own);
    await createWorkflow(own, { graph: mailGraph() });
    const rule = await db().senderExclusion.create({ data: { memberId: own.id, kind: 'domain', value: 'ads.test' } });
    await db().senderExclusion.create({ data: { memberId: stranger.id, kind: 'address', value: 'friend@pals.test' } });
    const excluded = await newMail(box, { fromEmail: 'promo@ads.test' });
    const friend = await newMail(box, { fromEmail: 'friend@pals.test' });
    await dispatchNewMail(box.id);
    expect(await journalOf(excluded.id)).toMatchObject({ outcome: 'excluded_member', ruleRef: `exclusion:${rule.id}` });
    expect(await journalOf(friend.id)).toMatchObject({ outcome: 'dispatched' });
  });

  it('guardrail: mail from the mailbox itself never starts a run, even for a trigger including every category', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    await createWorkflow(own, { graph: mailGraph({ includeAutoReplies: true, includeNoReply: true, includeMailingLists: true }) });
    const message = await newMail(box, { isFromSelf: true });
    await dispatchNewMail(box.id);
    expect(await journalOf(message.id)).toMatchObject({ outcome: 'guardrail', ruleRef: 'guardrail:from_self' });
    expect(await executionsOf(message.id)).toHaveLength(0);
  });

  it('guardrail: auto-replies, no-reply senders and mailing lists, unless a trigger includes the category', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    await createWorkflow(own, { graph: mailGraph() });
    const auto = await newMail(box, { isAutoReply: true });
    const noReply = await newMail(box, { isNoReply: true });
    const list = await newMail(box, { isMailingList: true });
    await dispatchNewMail(box.id);
    expect(await journalOf(auto.id)).toMatchObject({ outcome: 'guardrail', ruleRef: 'guardrail:auto_reply' });
    expect(await journalOf(noReply.id)).toMatchObject({ outcome: 'guardrail', ruleRef: 'guardrail:no_reply' });
    expect(await journalOf(list.id)).toMatchObject({ outcome: 'guardrail', ruleRef: 'guardrail:mailing_list' });

    const lists = await createWorkflow(own, { graph: mailGraph({ includeMailingLists: true }) });
    const again = await newMail(box, { isMailingList: true });
    const auto2 = await newMail(box, { isAutoReply: true });
    await dispatchNewMail(box.id);
    expect(await journalOf(again.id)).toMatchObject({ outcome: 'dispatched', ruleRef: null });
    expect((await executionsOf(again.id)).map((execution) => execution.workflowId)).toEqual([lists.workflow.id]);
    // The run can still tell the list mail apart: ingest's flags are in the trigger data.
    expect((await executionsOf(again.id))[0].triggerData).toMatchObject({ isMailingList: true, isAutoReply: false, isNoReply: false });
    expect(await journalOf(auto2.id)).toMatchObject({ outcome: 'guardrail', ruleRef: 'guardrail:auto_reply' });
  });

  it('reads signals of the message and of its thread', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    const vip = await createWorkflow(own, { graph: mailGraph({ requireSignals: ['vip'] }) });
    await createWorkflow(own, { graph: mailGraph({ excludeSignals: ['vip'] }) });
    const earlier = await createMessage(box, { subject: 'First' });
    await db().messageSignal.create({ data: { messageId: earlier.id, threadId: earlier.threadId, name: 'vip', executionId: '00000000-0000-4000-8000-000000000001' } });
    const reply = await newMail(box, { threadId: earlier.threadId! });
    await dispatchNewMail(box.id);
    const executions = await executionsOf(reply.id);
    expect(executions.map((execution) => execution.workflowId)).toEqual([vip.workflow.id]);
    expect((executions[0]!.triggerData as { signals: string[] }).signals).toEqual(['vip']);
  });

  it('drops the queue row of a message removed since', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    const message = await newMail(box);
    await db().mailMessage.delete({ where: { id: message.id } });
    await dispatchNewMail(box.id);
    expect(await db().mailDispatchQueue.count({ where: { mailboxId: box.id } })).toBe(0);
    expect(await journalOf(message.id)).toBeNull();
  });
});

describe('mail dispatch: exactly once', () => {
  it('a message queued again after it was dispatched is neither journaled nor dispatched twice', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    await createWorkflow(own, { graph: mailGraph() });
    await createWorkflow(own, { graph: mailGraph() });
    const message = await newMail(box);
    await dispatchNewMail(box.id);
    const first = await journalOf(message.id);
    // The sync replays the message after a crash: queued again.
    await db().mailDispatchQueue.create({ data: { messageId: message.id, mailboxId: box.id } });
    await dispatchNewMail(box.id);
    expect(await db().mailJournalEntry.findMany({ where: { messageId: message.id } })).toEqual([first]);
    expect(await executionsOf(message.id)).toHaveLength(2);
    expect(await db().mailDispatchQueue.count({ where: { mailboxId: box.id } })).toBe(0);
  });

  it('concurrent dispatchers of one mailbox: one journal entry per message, one execution per workflow', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    const workflows = [await createWorkflow(own, { graph: mailGraph() }), await createWorkflow(own, { graph: mailGraph() })];
    const messages = [];
    for (let index = 0; index < 12; index += 1) messages.push(await newMail(box, { subject: `m${index}` }));
    const handled = await Promise.all([dispatchNewMail(box.id), dispatchNewMail(box.id), dispatchNewMail(box.id)]);
    expect(handled.reduce((sum, count) => sum + count, 0)).toBe(12);
    for (const message of messages) {
      expect(await db().mailJournalEntry.count({ where: { messageId: message.id } })).toBe(1);
      const executions = await executionsOf(message.id);
      expect(executions.map((execution) => execution.workflowId).sort()).toEqual(workflows.map((workflow) => workflow.workflow.id).sort());
    }
  });

  it('a message queued twice while two dispatchers run gives one entry and one run per workflow', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    await createWorkflow(own, { graph: mailGraph() });
    const message = await newMail(box);
    const requeue = async () => {
      await dispatchNewMail(box.id);
      await db().mailDispatchQueue.createMany({ data: [{ messageId: message.id, mailboxId: box.id }], skipDuplicates: true });
      await dispatchNewMail(box.id);
    };
    await Promise.all([requeue(), requeue()]);
    expect(await db().mailJournalEntry.count({ where: { messageId: message.id } })).toBe(1);
    expect(await executionsOf(message.id)).toHaveLength(1);
  });
});

describe('mirror writer: only new mail is queued for dispatch', () => {

  it('queues delta messages with the mailbox’s dispatch job in the batch; initial, backfill and resync never', async () => {
    const own = await createMember();
    const row = await createMailbox(own);
    const target: MirrorMailbox = { id: row.id, memberId: own.id, address: row.address, syncMode: 'full' };
    const sink = createMirrorSink(target);
    const batch = async (via: IngestedVia, key: string) =>
      sink.commit({ ingestedVia: via, messages: [await providerMessage(key)], flagUpdates: [], removedProviderKeys: [], cursors: [] });
    for (const via of ['initial', 'backfill', 'resync'] as const) await batch(via, `k-${via}`);
    expect(await db().mailDispatchQueue.count({ where: { mailboxId: row.id } })).toBe(0);
    const dispatchJobs = () => db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM graphile_worker.jobs WHERE key = ${jobKeys.dispatch(row.id)}`;
    expect((await dispatchJobs())[0]!.n).toBe(0n);

    await batch('delta', 'k-new-1');
    await batch('delta', 'k-new-2');
    // The same message written again (sync replays a batch after a crash) is not queued again.
    await batch('delta', 'k-new-1');
    const queued = await db().mailDispatchQueue.findMany({ where: { mailboxId: row.id } });
    const fresh = await db().mailMessage.findMany({ where: { mailboxId: row.id, providerKey: { in: ['k-new-1', 'k-new-2'] } } });
    expect(queued.map((item) => item.messageId).sort()).toEqual(fresh.map((message) => message.id).sort());
    // One pending job for the burst.
    expect((await dispatchJobs())[0]!.n).toBe(1n);

    await createWorkflow(own, { graph: mailGraph() });
    await dispatchNewMail(row.id);
    for (const message of fresh) expect(await journalOf(message.id)).toMatchObject({ outcome: 'dispatched' });
    const old = await db().mailMessage.findMany({ where: { mailboxId: row.id, providerKey: { startsWith: 'k-' }, ingestedVia: { not: 'delta' } } });
    expect(old).toHaveLength(3);
    for (const message of old) expect(await journalOf(message.id)).toBeNull();
  });
});

describe('mail dispatch: the sender’s address book entry in the trigger data (issue 22)', () => {
  it('carries the resolved entry from the mailbox’s point of view, with the layer of each value, so a workflow can branch on status', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    const graph: GraphInput = {
      nodes: [
        { id: 'mail', type: 'trigger.mail', version: 1, name: 'Mail', params: {}, position: { x: 0, y: 0 } },
        { id: 'vip', type: 'logic.if', version: 2, name: 'VIP?', params: { conditions: [{ left: '{{ trigger.contact.status }}', operator: 'equals', right: 'vip' }] }, position: { x: 1, y: 0 } },
      ],
      connections: [{ from: 'mail', output: 'main', to: 'vip' }],
    };
    await createWorkflow(own, { graph });
    await sharedCard('domain', 'bigcorp.test', { displayName: 'Big Corp', status: 'vip', language: 'fr', orgNotes: 'Key account' });
    await memberCard(own.id, 'contact', 'anne@bigcorp.test', { formality: 'vous', tone: 'formal', personalNotes: 'Prefers mornings' });
    await mailboxCard(own.id, box.id, 'domain', 'bigcorp.test', { tone: 'neutral' });
    // Another member's card never shows in this member's runs.
    await memberCard(member.id, 'contact', 'anne@bigcorp.test', { formality: 'tu', personalNotes: 'Not yours' });

    const message = await newMail(box, { subject: 'Order', fromEmail: 'Anne@BigCorp.test', fromName: 'Anne' });
    expect(await dispatchNewMail(box.id)).toBe(1);
    const [run] = await executionsOf(message.id);
    expect((run!.triggerData as { contact: unknown }).contact).toEqual({
      address: 'anne@bigcorp.test',
      known: true,
      displayName: 'Big Corp',
      status: 'vip',
      language: 'fr',
      formality: 'vous',
      tone: 'formal',
      notes: ['Prefers mornings', 'Key account'],
      sources: { displayName: 'shared_domain', status: 'shared_domain', language: 'shared_domain', formality: 'member_contact', tone: 'member_contact', notes: ['member_contact', 'shared_domain'] },
    });
  });

  it('a blocked supplier’s domain card reaches every address of it and its subdomains', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    await createWorkflow(own, { graph: mailGraph() });
    await sharedCard('domain', 'badparts.test', { status: 'blocked', displayName: 'Bad Parts' });
    const message = await newMail(box, { fromEmail: 'sales@eu.badparts.test' });
    await dispatchNewMail(box.id);
    const [run] = await executionsOf(message.id);
    expect(run!.triggerData).toMatchObject({ contact: { address: 'sales@eu.badparts.test', known: true, status: 'blocked', displayName: 'Bad Parts', sources: { status: 'shared_domain' } } });
  });

  it('a trigger with the card off (`senderCard: false`) gets a null entry, while another workflow on the same mail gets the card', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    const { workflow: withCard } = await createWorkflow(own, { graph: mailGraph() });
    const { workflow: cardless } = await createWorkflow(own, { graph: mailGraph({ senderCard: false }) });
    await sharedCard('contact', 'olga@client.test', { status: 'customer', orgNotes: 'Pays late' });
    const message = await newMail(box, { fromEmail: 'olga@client.test' });
    await dispatchNewMail(box.id);
    const runs = await executionsOf(message.id);
    const dataOf = (workflowId: string) => runs.find((run) => run.workflowId === workflowId)!.triggerData as { contact: unknown; subject: unknown };
    expect(dataOf(withCard.id).contact).toMatchObject({ status: 'customer', notes: ['Pays late'] });
    expect(dataOf(cardless.id).contact).toBeNull();
    expect(dataOf(cardless.id).subject).toBe(dataOf(withCard.id).subject);
  });

  it('a message with no sender address carries a null entry', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    await createWorkflow(own, { graph: mailGraph() });
    const message = await newMail(box);
    await db().mailMessage.update({ where: { id: message.id }, data: { fromEmail: null } });
    await dispatchNewMail(box.id);
    const [run] = await executionsOf(message.id);
    expect(run!.triggerData).toMatchObject({ contact: null });
  });
});

describe('mail dispatch: a workflow whose slots are full', () => {
  // Issue 25 §1: a run that arrives behind runs waiting for a slot would only take the admission lock to find none.
  const jobOf = async (id: string) => (await db().$queryRaw<unknown[]>`SELECT 1 FROM graphile_worker.jobs WHERE key = ${jobKeys.execution(id)}`).length > 0;

  it('starts the run of a message that arrives behind waiting runs waiting too, without a job; a free slot admits it', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    const { workflow } = await createWorkflow(own, { name: 'one at a time', graph: mailGraph() });
    await db().workflow.update({ where: { id: workflow.id }, data: { maxConcurrency: 1 } });
    const first = await newMail(box, { subject: 'first' });
    const second = await newMail(box, { subject: 'second' });
    expect(await dispatchNewMail(box.id)).toBe(2);
    // The first holds the slot (a live runner's lease); the second found none and waits, its job done.
    const [holder] = await executionsOf(first.id);
    const [waiting] = await executionsOf(second.id);
    await db().execution.update({ where: { id: holder!.id }, data: { status: 'running', startedAt: new Date(), leaseOwner: 'alive', leaseUntil: new Date(Date.now() + 60_000) } });
    await db().execution.update({ where: { id: waiting!.id }, data: { awaitsSlot: true } });
    await db().$executeRaw`DELETE FROM graphile_worker._private_jobs WHERE key = ${jobKeys.execution(waiting!.id)}`;

    const third = await newMail(box, { subject: 'third' });
    expect(await dispatchNewMail(box.id)).toBe(1);
    const [arrival] = await executionsOf(third.id);
    expect(arrival).toMatchObject({ status: 'queued', awaitsSlot: true });
    expect(await jobOf(arrival!.id)).toBe(false);

    // A slot freed whose end looked before the arrival showed: the arrival's look after its commit admits, in order.
    await db().execution.update({ where: { id: holder!.id }, data: { status: 'succeeded', finishedAt: new Date(), leaseOwner: null, leaseUntil: null } });
    const fourth = await newMail(box, { subject: 'fourth' });
    expect(await dispatchNewMail(box.id)).toBe(1);
    expect(await db().execution.findUniqueOrThrow({ where: { id: waiting!.id } })).toMatchObject({ status: 'running', awaitsSlot: false });
    expect(await jobOf(waiting!.id)).toBe(true);
    for (const message of [third, fourth]) expect((await executionsOf(message.id))[0]).toMatchObject({ status: 'queued', awaitsSlot: true });
  });
});
