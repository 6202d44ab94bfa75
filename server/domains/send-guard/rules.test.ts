import { describe, expect, it } from 'vitest';
import { applicableRules, bareAddress, decideTrip, isHumanSend, workflowCap, type GuardFacts, type GuardItem } from './rules';

const limits = { mailboxPerHour: 200, workflowPerHour: 50, loopWindowMinutes: 10, loopMaxSends: 2, repeatMaxSends: 3 };
const workflowReply: GuardItem = { origin: 'workflow', reviewStatus: 'none', workflowId: 'w', relation: 'reply' };

describe('applicableRules', () => {
  it.each([
    ['a workflow reply without review: every rule', workflowReply, [], ['mailbox_hourly_cap', 'workflow_hourly_cap', 'auto_reply_loop', 'repeat_recipient']],
    ['a workflow reply-all', { ...workflowReply, relation: 'replyAll' }, [], ['mailbox_hourly_cap', 'workflow_hourly_cap', 'auto_reply_loop', 'repeat_recipient']],
    ['a new workflow message: no loop rule', { ...workflowReply, relation: null }, [], ['mailbox_hourly_cap', 'workflow_hourly_cap', 'repeat_recipient']],
    ['a workflow forward: no loop rule', { ...workflowReply, relation: 'forward' }, [], ['mailbox_hourly_cap', 'workflow_hourly_cap', 'repeat_recipient']],
    ['the member’s webmail send: the mailbox cap only', { origin: 'webmail', reviewStatus: 'none', workflowId: null, relation: 'reply' }, [], ['mailbox_hourly_cap']],
    ['a reviewed workflow item: the mailbox cap only', { ...workflowReply, reviewStatus: 'sent' }, [], ['mailbox_hourly_cap']],
    ['an approval send of a workflow: no loop rule', { ...workflowReply, origin: 'approval' }, [], ['mailbox_hourly_cap', 'workflow_hourly_cap', 'repeat_recipient']],
    ['no workflow: the mailbox cap only', { ...workflowReply, workflowId: null }, [], ['mailbox_hourly_cap']],
    ['released from a workflow cap hold', workflowReply, ['workflow_hourly_cap'], ['mailbox_hourly_cap', 'auto_reply_loop', 'repeat_recipient']],
    ['released from a mailbox cap hold', workflowReply, ['mailbox_hourly_cap'], ['workflow_hourly_cap', 'auto_reply_loop', 'repeat_recipient']],
  ] as const)('%s', (_name, item, released, expected) => {
    expect(applicableRules(item as GuardItem, new Set(released))).toEqual(expected);
  });

  it('isHumanSend', () => {
    expect(isHumanSend({ origin: 'webmail', reviewStatus: 'none' })).toBe(true);
    expect(isHumanSend({ origin: 'workflow', reviewStatus: 'sent' })).toBe(true);
    expect(isHumanSend({ origin: 'workflow', reviewStatus: 'none' })).toBe(false);
    expect(isHumanSend({ origin: 'webmail', reviewStatus: 'pending' })).toBe(false);
  });
});

describe('decideTrip', () => {
  const all = applicableRules(workflowReply);
  it.each<[string, GuardFacts, string | null]>([
    ['nothing counted', {}, null],
    ['mailbox below the cap', { mailboxSends: 199 }, null],
    ['mailbox at the cap', { mailboxSends: 200 }, 'mailbox_hourly_cap'],
    ['workflow below the instance cap', { workflowSends: 49 }, null],
    ['workflow at the instance cap', { workflowSends: 50 }, 'workflow_hourly_cap'],
    ['workflow at its own lower cap', { workflowSends: 5, workflowCap: 5 }, 'workflow_hourly_cap'],
    ['one automated send to an auto-responder', { loop: { counterpart: 'bot@x.test', sends: 1 } }, null],
    ['two automated sends to an auto-responder', { loop: { counterpart: 'bot@x.test', sends: 2 } }, 'auto_reply_loop'],
    ['two sends to one recipient', { repeat: { recipient: 'a@x.test', sends: 2 } }, null],
    ['three sends to one recipient', { repeat: { recipient: 'a@x.test', sends: 3 } }, 'repeat_recipient'],
    ['the mailbox cap comes first', { mailboxSends: 300, workflowSends: 60, repeat: { recipient: 'a@x.test', sends: 9 } }, 'mailbox_hourly_cap'],
  ])('%s', (_name, facts, expected) => {
    expect(decideTrip(all, facts, limits)?.reason ?? null).toBe(expected);
  });

  it('a rule not applicable never trips', () => {
    expect(decideTrip(['mailbox_hourly_cap'], { workflowSends: 999, repeat: { recipient: 'a@x.test', sends: 9 } }, limits)).toBeNull();
  });

  it('details say why', () => {
    expect(decideTrip(all, { loop: { counterpart: 'bot@x.test', sends: 2 } }, limits)?.details).toEqual({ counterpart: 'bot@x.test', sends: 2, limit: 2, windowMinutes: 10 });
  });
});

describe('workflowCap', () => {
  it.each<[unknown, number]>([
    [{}, 50],
    [null, 50],
    [[], 50],
    [{ sendCapPerHour: 10 }, 10],
    [{ sendCapPerHour: 500 }, 50],
    [{ sendCapPerHour: 0 }, 50],
    [{ sendCapPerHour: -3 }, 50],
    [{ sendCapPerHour: 2.5 }, 50],
    [{ sendCapPerHour: '10' }, 50],
  ])('%j → %d', (settings, expected) => {
    expect(workflowCap(settings, 50)).toBe(expected);
  });
});

describe('bareAddress', () => {
  it.each([
    ['a@x.test', 'a@x.test'],
    [' A@X.test ', 'a@x.test'],
    ['Alice <Alice@X.test>', 'alice@x.test'],
    ['"Doe, J" <j@x.test>', 'j@x.test'],
  ])('%s', (input, expected) => expect(bareAddress(input)).toBe(expected));
});
