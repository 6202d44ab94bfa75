import { describe, expect, it, vi } from 'vitest';
import { fakeCapabilities, runNode } from '../testing';
import { signalMarkNode } from './mark.node';

describe('signal.mark', () => {
  it.each([
    [true, { created: true }],
    [false, { created: false }],
  ])('marks the triggering message once (first time %s)', async (created, data) => {
    const capabilities = fakeCapabilities({ signal: { mark: vi.fn(async () => ({ created })) } });
    expect(await runNode(signalMarkNode, { params: { name: 'vip.client' }, messageId: 'msg-1', capabilities })).toMatchObject({ data: { ...data, messageId: 'msg-1' } });
    expect(capabilities.signal.mark).toHaveBeenCalledWith({ effectKey: 'signal', messageId: 'msg-1', name: 'vip.client' });
  });

  it('needs a message', async () => {
    await expect(runNode(signalMarkNode, { params: { name: 'x' } })).rejects.toMatchObject({ code: 'mail.mailbox_required' });
  });

  it.each(['', 'Upper', 'a b', 'x'.repeat(65), 'é'])('refuses the name %j', (name) => {
    expect(signalMarkNode.params.safeParse({ name }).success).toBe(false);
  });
});
