import { describe, expect, it, vi } from 'vitest';
import { fakeCapabilities, runNode } from '../testing';
import { waitForReplyNode } from './wait-for-reply.node.ts';

// Friday 6 November 2026, 16:00 in Paris.
const now = new Date('2026-11-06T15:00:00Z');
const found = { id: 'msg-1', mailboxId: 'mb-1', threadId: 'th-1', subject: 'Quote', fromName: null, fromEmail: 'anne@client.test', folderKey: 'INBOX', receivedAt: '2026-11-06T14:00:00.000Z' };
const withMessage = () => fakeCapabilities({ mail: { findMessage: vi.fn(async () => found) } });

describe('flow.wait_for_reply', () => {
  it('suspends waiting until the deadline, watching the thread of the triggering message', async () => {
    const capabilities = withMessage();
    const result = await runNode(waitForReplyNode, { params: { amount: 3, unit: 'days' }, messageId: 'msg-1', capabilities, now });
    expect(result).toEqual({
      kind: 'suspend',
      mode: 'waiting',
      until: new Date('2026-11-09T15:00:00Z'),
      state: { messageId: 'msg-1', waitedFrom: now.toISOString(), deadline: '2026-11-09T15:00:00.000Z' },
      watchReplies: { messageId: 'msg-1' },
    });
    expect(capabilities.mail.findMessage).toHaveBeenCalledWith('msg-1');
  });

  it('counts business hours when asked: 3 business days from Friday 16:00 in Paris end on Wednesday 16:00', async () => {
    const result = await runNode(waitForReplyNode, {
      params: { amount: 3, unit: 'days', businessHours: { timeZone: 'Europe/Paris' } },
      messageId: 'msg-1',
      capabilities: withMessage(),
      now,
    });
    expect(result).toMatchObject({ kind: 'suspend', until: new Date('2026-11-11T15:00:00Z') });
  });

  it('watches a chosen message', async () => {
    const capabilities = withMessage();
    const result = await runNode(waitForReplyNode, { params: { messageId: ' msg-7 ', amount: 1, unit: 'hours' }, messageId: 'msg-1', capabilities, now });
    expect(result).toMatchObject({ watchReplies: { messageId: 'msg-7' } });
    expect(capabilities.mail.findMessage).toHaveBeenCalledWith('msg-7');
  });

  it('takes the replied port with the reply when a reply resumes it', async () => {
    const reply = { id: 'msg-2', from: { name: 'Anne', email: 'anne@client.test' }, text: 'Yes, please.' };
    const state = { messageId: 'msg-1', waitedFrom: now.toISOString(), deadline: '2026-11-09T15:00:00.000Z' };
    const result = await runNode(waitForReplyNode, { params: { amount: 3, unit: 'days' }, state, resume: { reason: 'decision', payload: { kind: 'reply', reply } }, now });
    expect(result).toEqual({ output: 'replied', data: { replied: true, reply, ...state } });
  });

  it('takes the timeout port when the deadline passed first', async () => {
    const state = { messageId: 'msg-1', waitedFrom: now.toISOString(), deadline: '2026-11-09T15:00:00.000Z' };
    const result = await runNode(waitForReplyNode, { params: { amount: 3, unit: 'days' }, state, resume: { reason: 'timer' }, now });
    expect(result).toEqual({ output: 'timeout', data: { replied: false, reply: null, ...state } });
  });

  it('an attempt run again after its runner died keeps the wait it began (same message, same deadline)', async () => {
    const capabilities = withMessage();
    const state = { messageId: 'msg-1', waitedFrom: '2026-11-02T09:00:00.000Z', deadline: '2026-11-05T09:00:00.000Z' };
    const result = await runNode(waitForReplyNode, { params: { amount: 3, unit: 'days' }, messageId: 'msg-1', state, capabilities, now });
    expect(result).toEqual({ kind: 'suspend', mode: 'waiting', until: new Date('2026-11-05T09:00:00.000Z'), state, watchReplies: { messageId: 'msg-1' } });
    expect(capabilities.mail.findMessage).not.toHaveBeenCalled();
  });

  it('fails naming the parameter when the run has no message and none is given', async () => {
    await expect(runNode(waitForReplyNode, { params: { amount: 1, unit: 'days' }, now })).rejects.toMatchObject({ code: 'invalid_parameter', details: { path: 'params.messageId' } });
  });

  it('fails mail.message_not_found for a message that is not the member’s', async () => {
    await expect(runNode(waitForReplyNode, { params: { amount: 1, unit: 'days' }, messageId: 'msg-1', now })).rejects.toMatchObject({ code: 'mail.message_not_found', kind: 'permanent', details: { path: 'params.messageId' } });
  });

  it.each([
    [{ amount: 31, unit: 'days' }],
    [{ amount: 23, unit: 'days', businessHours: { timeZone: 'Europe/Paris' } }],
  ])('refuses a wait over 30 days: %j', async (params) => {
    await expect(runNode(waitForReplyNode, { params, messageId: 'msg-1', capabilities: withMessage(), now })).rejects.toMatchObject({ code: 'invalid_parameter', details: { path: 'params.amount' } });
  });

  it('has the replied and timeout outputs, reads mail, needs a mailbox', () => {
    expect(waitForReplyNode.outputs).toEqual(['replied', 'timeout']);
    expect(waitForReplyNode.scopes).toEqual(['messages:read']);
    expect(waitForReplyNode.requires).toEqual(['mail']);
    expect(waitForReplyNode.persistsStepFirst).toBe(true);
  });
});
