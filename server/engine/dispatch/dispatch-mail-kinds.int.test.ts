/**
 * Mail dispatch on real-world mail: corpus messages (server/testing/mail-corpus) go through the
 * mirror writer as new mail (ingest computes their signals), then the dispatcher decides. A bulk
 * newsletter reaches a trigger that includes list mail; out-of-office replies, bounces and the
 * mailbox's own mail are journaled with the guardrail that kept them out.
 */
import { describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMirrorSink } from '../../mail/mirror/writer';
import type { IncomingMessage } from '../../mail/provider';
import { createMember } from '../../testing/factories';
import { corpusMailbox, corpusMessage } from '../../testing/mail-corpus';
import { createMailbox } from '../../testing/mail-factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import type { GraphInput } from '../contract/graph';
import { dispatchNewMail } from './dispatch-mail';

await useTestDatabase();

const mailGraph = (params: Record<string, unknown>): GraphInput => ({
  nodes: [{ id: 'mail', type: 'trigger.mail', version: 1, name: 'Mail', params, position: { x: 0, y: 0 } }],
  connections: [],
});

/** A member's mailbox that received these corpus messages as new mail, dispatched; message ids by corpus name. */
async function deliver(names: string[], workflows: Record<string, Record<string, unknown>>) {
  const member = await createMember();
  const mailbox = await createMailbox(member, { address: corpusMailbox });
  const ids: Record<string, string> = {};
  for (const [name, params] of Object.entries(workflows)) ids[`workflow:${name}`] = (await createWorkflow(member, { name, graph: mailGraph(params) })).workflow.id;
  const sink = createMirrorSink({ id: mailbox.id, memberId: member.id, address: mailbox.address, syncMode: 'full' });
  const messages: IncomingMessage[] = names.map((name, index) => ({
    providerKey: `INBOX\n1\n${index + 1}`,
    folderKey: 'INBOX',
    labels: [],
    uid: BigInt(index + 1),
    uidValidity: 1n,
    modseq: null,
    flags: { seen: false, flagged: false, draft: false, sent: false },
    internalDate: new Date(Date.UTC(2025, 2, 1, 9, index)),
    size: corpusMessage(name).length,
    source: corpusMessage(name),
    sourceComplete: true,
  }));
  await sink.commit({ ingestedVia: 'delta', messages, flagUpdates: [], removedProviderKeys: [], cursors: [] });
  expect(await dispatchNewMail(mailbox.id)).toBe(names.length);
  const rows = await db().mailMessage.findMany({ where: { mailboxId: mailbox.id }, select: { id: true, providerKey: true } });
  for (const row of rows) ids[names[Number(row.providerKey.split('\n')[2]) - 1]!] = row.id;
  return ids;
}

async function outcomeOf(ids: Record<string, string>, name: string) {
  const entry = await db().mailJournalEntry.findUnique({ where: { messageId: ids[name] } });
  const runs = await db().execution.findMany({ where: { messageId: ids[name] }, select: { workflowId: true } });
  const workflows = Object.entries(ids)
    .filter(([key, id]) => key.startsWith('workflow:') && runs.some((run) => run.workflowId === id))
    .map(([key]) => key.slice('workflow:'.length))
    .sort();
  return { outcome: entry?.outcome, ruleRef: entry?.ruleRef ?? null, workflows };
}

describe('mail dispatch on real-world mail', () => {
  it('a List-Id + Precedence: bulk newsletter starts a workflow whose trigger includes list mail; auto-replies, bounces and own mail are journaled with their guardrail', async () => {
    const ids = await deliver(
      [
        'mailchimp-newsletter',
        'hubspot-newsletter',
        'exchange-online-automatic-reply',
        'exchange-2010-out-of-office',
        'gmail-vacation-responder',
        'postfix-bounce',
        'mdn-read-receipt',
        'personal-mail',
        'sent-by-the-mailbox-itself',
      ],
      {
        // As the starter "Label and archive newsletters" asks: list mail and no-reply senders included, the member's newsletter senders named.
        newsletters: { folders: ['inbox'], from: ['graines-et-cie', 'papeterie-nord', 'newsletter'], includeMailingLists: true, includeNoReply: true },
        // A workflow that answers people: no guardrail category included.
        answers: { folders: ['inbox'] },
      },
    );

    expect(await outcomeOf(ids, 'mailchimp-newsletter')).toEqual({ outcome: 'dispatched', ruleRef: null, workflows: ['newsletters'] });
    expect(await outcomeOf(ids, 'hubspot-newsletter')).toEqual({ outcome: 'dispatched', ruleRef: null, workflows: ['newsletters'] });
    expect(await outcomeOf(ids, 'exchange-online-automatic-reply')).toEqual({ outcome: 'guardrail', ruleRef: 'guardrail:auto_reply', workflows: [] });
    expect(await outcomeOf(ids, 'exchange-2010-out-of-office')).toEqual({ outcome: 'guardrail', ruleRef: 'guardrail:auto_reply', workflows: [] });
    expect(await outcomeOf(ids, 'gmail-vacation-responder')).toEqual({ outcome: 'guardrail', ruleRef: 'guardrail:auto_reply', workflows: [] });
    expect(await outcomeOf(ids, 'postfix-bounce')).toEqual({ outcome: 'guardrail', ruleRef: 'guardrail:delivery_report', workflows: [] });
    expect(await outcomeOf(ids, 'mdn-read-receipt')).toEqual({ outcome: 'guardrail', ruleRef: 'guardrail:delivery_report', workflows: [] });
    expect(await outcomeOf(ids, 'personal-mail')).toEqual({ outcome: 'dispatched', ruleRef: null, workflows: ['answers'] });
    expect(await outcomeOf(ids, 'sent-by-the-mailbox-itself')).toEqual({ outcome: 'guardrail', ruleRef: 'guardrail:from_self', workflows: [] });
  });

  it('a newsletter reaching no list-including trigger is journaled guardrail:mailing_list, and its run data says it is bulk list mail', async () => {
    const guarded = await deliver(['mailchimp-newsletter'], { answers: {} });
    expect(await outcomeOf(guarded, 'mailchimp-newsletter')).toEqual({ outcome: 'guardrail', ruleRef: 'guardrail:mailing_list', workflows: [] });
    const ids = await deliver(['substack-newsletter'], { answers: {}, substack: { from: ['substack'], includeMailingLists: true } });
    expect(await outcomeOf(ids, 'substack-newsletter')).toEqual({ outcome: 'dispatched', ruleRef: null, workflows: ['substack'] });
    const run = await db().execution.findFirstOrThrow({ where: { messageId: ids['substack-newsletter'] } });
    expect(run.triggerData).toMatchObject({ isMailingList: true, isBulk: true, isAutoReply: false, isNoReply: false, isDeliveryReport: false, isCalendar: false });
  });

  it('journal ruleRef: the guardrail that kept the mail from the live triggers; unmatched when a trigger let its kind through and only its filters did not match', async () => {
    const ids = await deliver(['mailchimp-newsletter', 'postfix-bounce', 'zimbra-out-of-office'], {
      // Lets list and automatic mail through but not no-reply senders (MAILER-DAEMON is one).
      newsletters: { from: ['someone-else'], includeMailingLists: true, includeAutoReplies: true },
    });
    expect(await outcomeOf(ids, 'mailchimp-newsletter')).toEqual({ outcome: 'unmatched', ruleRef: null, workflows: [] });
    expect(await outcomeOf(ids, 'postfix-bounce')).toEqual({ outcome: 'guardrail', ruleRef: 'guardrail:no_reply', workflows: [] });
    expect(await outcomeOf(ids, 'zimbra-out-of-office')).toEqual({ outcome: 'unmatched', ruleRef: null, workflows: [] });
  });

  it('a bounce starts a workflow only when its trigger includes automatic mail (and no-reply senders, MAILER-DAEMON being one); never the loop guard', async () => {
    const ids = await deliver(['postfix-bounce', 'qmail-failure-notice', 'sent-by-the-mailbox-itself'], {
      lists: { includeMailingLists: true, includeNoReply: true },
      bounces: { includeAutoReplies: true, includeNoReply: true, folders: ['all'] },
      everything: { includeAutoReplies: true, includeNoReply: true, includeMailingLists: true, folders: ['all'] },
    });
    expect(await outcomeOf(ids, 'postfix-bounce')).toEqual({ outcome: 'dispatched', ruleRef: null, workflows: ['bounces', 'everything'] });
    expect(await outcomeOf(ids, 'qmail-failure-notice')).toEqual({ outcome: 'dispatched', ruleRef: null, workflows: ['bounces', 'everything'] });
    expect(await outcomeOf(ids, 'sent-by-the-mailbox-itself')).toEqual({ outcome: 'guardrail', ruleRef: 'guardrail:from_self', workflows: [] });
  });
});
