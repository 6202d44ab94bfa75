import { describe, expect, it } from 'vitest';
import type { NodeContext } from '../../contract/define-node';
import { mailTriggerMatches, mailTriggerNode, mailTriggerParams, type MatchableMessage } from './mail-trigger.node.ts';
import { isValidCron, isValidTimeZone, nextRunOf, scheduleTriggerNode, scheduleTriggerParams } from './schedule-trigger.node.ts';
import { webhookTriggerNode } from './webhook-trigger.node.ts';
import { workflowFailureTriggerNode } from './workflow-failure-trigger.node.ts';

const message = (overrides: Partial<MatchableMessage> = {}): MatchableMessage => ({
  fromEmail: 'Alice@Example.com',
  fromName: 'Alice Martin',
  subject: 'Invoice 42 for October',
  folder: 'inbox',
  folderKey: 'INBOX',
  hasAttachments: false,
  isAutoReply: false,
  isNoReply: false,
  isMailingList: false,
  isFromSelf: false,
  isBulk: false,
  isDeliveryReport: false,
  ...overrides,
});

const params = (input: Record<string, unknown> = {}) => mailTriggerParams.parse(input);

function contextWith(trigger: Record<string, unknown> | null) {
  return { params: {}, trigger, now: () => new Date('2026-01-02T03:04:05Z') } as unknown as NodeContext<never>;
}

describe('trigger.mail parameters', () => {
  it('defaults to every mailbox, the inbox, no filter and no guardrail category', () => {
    expect(params()).toEqual({
      mailboxIds: [],
      folders: ['inbox'],
      from: [],
      subject: [],
      includeAutoReplies: false,
      includeNoReply: false,
      includeMailingLists: false,
      requireSignals: [],
      excludeSignals: [],
      senderCard: true,
    });
    expect(mailTriggerNode.mailboxParams).toEqual(['mailboxIds']);
  });

  it('refuses unknown keys, non-uuid mailboxes and unbounded lists', () => {
    expect(mailTriggerParams.safeParse({ nope: 1 }).success).toBe(false);
    expect(mailTriggerParams.safeParse({ mailboxIds: ['x'] }).success).toBe(false);
    expect(mailTriggerParams.safeParse({ from: Array.from({ length: 51 }, () => 'a') }).success).toBe(false);
    expect(mailTriggerParams.safeParse({ subject: ['x'.repeat(201)] }).success).toBe(false);
  });
});

describe('mailTriggerMatches', () => {
  it('matches any inbox message with the defaults, not another folder', () => {
    expect(mailTriggerMatches(params(), message(), [])).toBe(true);
    expect(mailTriggerMatches(params(), message({ folder: 'archive', folderKey: 'Archive' }), [])).toBe(false);
    expect(mailTriggerMatches(params({ folders: ['archive'] }), message({ folder: 'archive', folderKey: 'Archive' }), [])).toBe(true);
    expect(mailTriggerMatches(params({ folders: ['Projects/X'] }), message({ folder: 'Projects/X', folderKey: 'Projects/X' }), [])).toBe(true);
    expect(mailTriggerMatches(params({ folders: ['all'] }), message({ folder: 'spam', folderKey: 'Junk' }), [])).toBe(true);
  });

  it('filters the sender and subject by containment, case-insensitive, any of the list', () => {
    expect(mailTriggerMatches(params({ from: ['example.COM'] }), message(), [])).toBe(true);
    expect(mailTriggerMatches(params({ from: ['bob', 'martin'] }), message(), [])).toBe(true);
    expect(mailTriggerMatches(params({ from: ['bob'] }), message(), [])).toBe(false);
    expect(mailTriggerMatches(params({ subject: ['invoice'] }), message(), [])).toBe(true);
    expect(mailTriggerMatches(params({ subject: ['receipt'] }), message(), [])).toBe(false);
    expect(mailTriggerMatches(params({ subject: ['x'] }), message({ subject: null }), [])).toBe(false);
  });

  it('filters attachments when asked', () => {
    expect(mailTriggerMatches(params({ hasAttachments: true }), message(), [])).toBe(false);
    expect(mailTriggerMatches(params({ hasAttachments: true }), message({ hasAttachments: true }), [])).toBe(true);
    expect(mailTriggerMatches(params({ hasAttachments: false }), message({ hasAttachments: true }), [])).toBe(false);
  });

  it('leaves out auto-replies, no-reply senders and mailing lists unless included; mail from the mailbox itself never', () => {
    expect(mailTriggerMatches(params(), message({ isAutoReply: true }), [])).toBe(false);
    expect(mailTriggerMatches(params({ includeAutoReplies: true }), message({ isAutoReply: true }), [])).toBe(true);
    expect(mailTriggerMatches(params(), message({ isNoReply: true }), [])).toBe(false);
    expect(mailTriggerMatches(params({ includeNoReply: true }), message({ isNoReply: true }), [])).toBe(true);
    expect(mailTriggerMatches(params(), message({ isMailingList: true }), [])).toBe(false);
    expect(mailTriggerMatches(params({ includeMailingLists: true }), message({ isMailingList: true }), [])).toBe(true);
    const everything = params({ includeAutoReplies: true, includeNoReply: true, includeMailingLists: true });
    expect(mailTriggerMatches(everything, message({ isFromSelf: true }), [])).toBe(false);
  });

  it('guardrail kinds: a delivery report is automatic mail, bulk mail is list mail; the loop guard stays absolute', () => {
    const bounce = message({ isDeliveryReport: true });
    expect(mailTriggerMatches(params(), bounce, [])).toBe(false);
    expect(mailTriggerMatches(params({ includeNoReply: true, includeMailingLists: true }), bounce, [])).toBe(false);
    expect(mailTriggerMatches(params({ includeAutoReplies: true }), bounce, [])).toBe(true);
    const newsletter = message({ isMailingList: true, isBulk: true });
    expect(mailTriggerMatches(params(), newsletter, [])).toBe(false);
    expect(mailTriggerMatches(params({ includeMailingLists: true }), newsletter, [])).toBe(true);
    const bulkOnly = message({ isBulk: true });
    expect(mailTriggerMatches(params(), bulkOnly, [])).toBe(false);
    expect(mailTriggerMatches(params({ includeMailingLists: true }), bulkOnly, [])).toBe(true);
    const everything = params({ includeAutoReplies: true, includeNoReply: true, includeMailingLists: true });
    expect(mailTriggerMatches(everything, message({ isFromSelf: true, isBulk: true, isDeliveryReport: true }), [])).toBe(false);
  });

  it('bulkOnly: bulk mail from any sender, past the list guardrail; never a discussion list, a person or automatic mail', () => {
    const bulk = params({ bulkOnly: true });
    // A newsletter whose address says nothing of it (Mailchimp, HubSpot, SendGrid senders).
    expect(mailTriggerMatches(bulk, message({ fromEmail: 'bonjour@graines-et-cie.example', isMailingList: true, isBulk: true }), [])).toBe(true);
    expect(mailTriggerMatches(bulk, message({ isBulk: true }), [])).toBe(true);
    expect(mailTriggerMatches(bulk, message({ isMailingList: true }), [])).toBe(false);
    expect(mailTriggerMatches(bulk, message(), [])).toBe(false);
    // Its other filters still apply; other guardrails still hold.
    expect(mailTriggerMatches(params({ bulkOnly: true, from: ['graines'] }), message({ isBulk: true }), [])).toBe(false);
    expect(mailTriggerMatches(bulk, message({ isBulk: true, isNoReply: true }), [])).toBe(false);
    expect(mailTriggerMatches(params({ bulkOnly: true, includeNoReply: true }), message({ isBulk: true, isNoReply: true }), [])).toBe(true);
    expect(mailTriggerMatches(bulk, message({ isBulk: true, isFromSelf: true }), [])).toBe(false);
    // Absent (every graph saved before it): no change.
    expect(params()).not.toHaveProperty('bulkOnly');
  });

  it('requires every required signal and none of the excluded ones', () => {
    const withSignals = params({ requireSignals: ['vip', 'urgent'], excludeSignals: ['handled'] });
    expect(mailTriggerMatches(withSignals, message(), ['vip'])).toBe(false);
    expect(mailTriggerMatches(withSignals, message(), ['vip', 'urgent'])).toBe(true);
    expect(mailTriggerMatches(withSignals, message(), ['vip', 'urgent', 'handled'])).toBe(false);
  });

  it('passes the message summary on as its output', async () => {
    const summary = { id: 'm1', subject: 'Hi' };
    expect(await mailTriggerNode.execute(contextWith(summary))).toEqual({ data: summary });
  });
});

describe('trigger.webhook and trigger.workflow_failure', () => {
  it('take no parameters and pass the trigger data on', async () => {
    expect(webhookTriggerNode.params.safeParse({}).success).toBe(true);
    expect(webhookTriggerNode.params.safeParse({ x: 1 }).success).toBe(false);
    expect(workflowFailureTriggerNode.params.safeParse({}).success).toBe(true);
    expect(workflowFailureTriggerNode.params.safeParse({ x: 1 }).success).toBe(false);
    const data = { message: { id: 'm' }, failure: { workflowId: 'w', error: { code: 'http_blocked' } } };
    expect(await workflowFailureTriggerNode.execute(contextWith(data))).toEqual({ data });
    expect(await webhookTriggerNode.execute(contextWith({ a: 1 }))).toEqual({ data: { a: 1 } });
  });
});

describe('trigger.schedule', () => {
  it('validates five-field cron expressions and IANA time zones', () => {
    expect(isValidCron('*/5 * * * *')).toBe(true);
    expect(isValidCron('0 9 * * 1-5')).toBe(true);
    expect(isValidCron('* * * * * *')).toBe(false);
    expect(isValidCron('61 * * * *')).toBe(false);
    expect(isValidCron('nonsense here a b c')).toBe(false);
    expect(isValidTimeZone('Europe/Paris')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(scheduleTriggerParams.parse({ cron: '0 9 * * *' })).toEqual({ cron: '0 9 * * *', timeZone: 'UTC' });
    expect(scheduleTriggerParams.safeParse({ cron: '0 9 * * *', timeZone: 'Nowhere/City' }).success).toBe(false);
    expect(scheduleTriggerParams.safeParse({ cron: '0 9 * * *', extra: true }).success).toBe(false);
  });

  it('computes the next start in the schedule’s time zone', () => {
    // 09:00 in Paris is 08:00 UTC in winter.
    expect(nextRunOf('0 9 * * *', 'Europe/Paris', new Date('2026-01-10T12:00:00Z')).toISOString()).toBe('2026-01-11T08:00:00.000Z');
    expect(nextRunOf('0 9 * * *', 'UTC', new Date('2026-01-10T08:59:00Z')).toISOString()).toBe('2026-01-10T09:00:00.000Z');
  });

  it('answers {firedAt}', async () => {
    expect(await scheduleTriggerNode.execute(contextWith({ firedAt: '2026-03-01T00:00:00.000Z' }))).toEqual({ data: { firedAt: '2026-03-01T00:00:00.000Z' } });
    expect(await scheduleTriggerNode.execute(contextWith(null))).toEqual({ data: { firedAt: '2026-01-02T03:04:05.000Z' } });
  });
});
