/** Shared table of the mail action node tests. Not a node module. */
import { expect, vi } from 'vitest';
import type { NodeDefinition } from '../../contract/define-node';
import { fakeCapabilities, runNode } from '../testing';

export async function checkMailNode(definition: NodeDefinition, params: Record<string, unknown>, expected: Record<string, unknown>) {
  // The triggering message.
  const capabilities = fakeCapabilities();
  const result = await runNode(definition, { params, messageId: 'msg-1', capabilities });
  expect(capabilities.mail.operate).toHaveBeenCalledWith({ effectKey: 'op', messageId: 'msg-1', ...expected });
  expect(result).toMatchObject({ data: { messageId: 'msg-1', operationId: 'op-1' } });

  // A chosen message wins over the triggering one.
  const chosen = fakeCapabilities();
  await runNode(definition, { params: { ...params, messageId: 'msg-2' }, messageId: 'msg-1', capabilities: chosen });
  expect(chosen.mail.operate).toHaveBeenCalledWith(expect.objectContaining({ messageId: 'msg-2' }));

  // Neither: mail.mailbox_required.
  await expect(runNode(definition, { params, capabilities: fakeCapabilities() })).rejects.toMatchObject({ code: 'mail.mailbox_required', kind: 'permanent' });

  // A test run operates nothing.
  const simulated = fakeCapabilities({ mail: { operate: vi.fn() } });
  const dry = await runNode(definition, { params, messageId: 'msg-1', capabilities: simulated, simulated: true });
  expect(simulated.mail.operate).not.toHaveBeenCalled();
  expect(dry).toMatchObject({ effects: [expect.objectContaining({ simulated: true })] });
  expect(definition.effect).toBe('keyed');
}
