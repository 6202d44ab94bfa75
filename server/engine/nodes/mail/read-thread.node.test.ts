import { describe, expect, it, vi } from 'vitest';
import type { ThreadRead } from '../../contract/capabilities';
import { fakeCapabilities, runNode } from '../testing';
import { readThreadNode } from './read-thread.node.ts';

const thread: ThreadRead = {
  threadId: 'th-1',
  mailboxId: 'mb-1',
  mailboxAddress: 'me@example.test',
  subject: 'Quote',
  messageCount: 1,
  messages: [],
  truncated: false,
  participants: [],
  lastInbound: null,
  lastOutbound: null,
  awaitingReply: false,
};

describe('mail.read_thread', () => {
  it('reads the thread of the triggering message, the latest 50 by default', async () => {
    const capabilities = fakeCapabilities({ mail: { thread: vi.fn(async () => thread) } });
    expect(await runNode(readThreadNode, { params: {}, messageId: 'msg-1', capabilities })).toEqual({ data: thread });
    expect(capabilities.mail.thread).toHaveBeenCalledWith({ messageId: 'msg-1', limit: 50 });
  });

  it('reads the thread of a chosen message, as many messages as asked', async () => {
    const capabilities = fakeCapabilities({ mail: { thread: vi.fn(async () => thread) } });
    await runNode(readThreadNode, { params: { messageId: ' msg-9 ', limit: 5 }, messageId: 'msg-1', capabilities });
    expect(capabilities.mail.thread).toHaveBeenCalledWith({ messageId: 'msg-9', limit: 5 });
  });

  it('fails naming the parameter when the run has no message and none is given', async () => {
    await expect(runNode(readThreadNode, { params: {} })).rejects.toMatchObject({ code: 'invalid_parameter', kind: 'permanent', details: { path: 'params.messageId' } });
  });

  it('fails mail.message_not_found for a message that is not the member’s (or gone)', async () => {
    await expect(runNode(readThreadNode, { params: { messageId: 'other' } })).rejects.toMatchObject({ code: 'mail.message_not_found', kind: 'permanent', details: { path: 'params.messageId' } });
  });

  it.each([[{ limit: 0 }], [{ limit: 51 }], [{ limit: 2.5 }]])('refuses %j', (params) => {
    expect(readThreadNode.params.safeParse(params).success).toBe(false);
  });

  it('needs messages:read and a mailbox, and changes nothing outside the run', () => {
    expect(readThreadNode.scopes).toEqual(['messages:read']);
    expect(readThreadNode.requires).toEqual(['mail']);
    expect(readThreadNode.effect).toBe('none');
  });
});
