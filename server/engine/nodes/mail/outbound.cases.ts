/** Shared table of the mail.draft / mail.send unit tests. Not a node module. */
import { expect, vi } from 'vitest';
import type { NodeDefinition } from '../../contract/define-node';
import { fakeCapabilities, runNode, runNodeWithEffects } from '../testing';

export async function checkOutboundNode(definition: NodeDefinition, mode: 'draft' | 'send') {
  expect(definition.effect).toBe('keyed');
  expect(definition.mailboxParams).toEqual(['mailboxId']);

  // A reply to the triggering message: defaults come from the capability's prepare.
  const capabilities = fakeCapabilities();
  const { result, effects } = await runNodeWithEffects(definition, { params: { replyTo: {}, bodyText: 'Thanks' }, messageId: 'msg-1', capabilities });
  expect(capabilities.send.prepare).toHaveBeenCalledWith({
    mailboxId: 'mb-1',
    answer: { messageId: 'msg-1', mode: 'reply' },
    to: null,
    cc: null,
    bcc: [],
    subject: null,
    bodyText: 'Thanks',
    bodyHtml: null,
    attachments: [],
    signature: true,
  });
  expect(capabilities.send.create).toHaveBeenCalledWith(expect.objectContaining({ effectKey: 'outbound', mode, node: { id: 'n1', type: definition.type } }));
  expect(effects).toEqual([{ key: 'outbound', kind: definition.type }]);
  expect(result).toMatchObject({ data: { itemId: 'item-1', reviewStatus: 'pending', sendStatus: 'pending', messageIdHeader: '<item-1@example.test>', to: ['alice@example.test'], subject: 'Re: Hello' } });

  // A new message: comma text recipients, a chosen mailbox, attachments of the trigger (all) and of a message (one).
  const fresh = fakeCapabilities();
  await runNode(definition, {
    params: { mailboxId: 'mb-9', to: 'Bob <bob@example.test>, carol@example.test', cc: ['dan@example.test'], subject: 'Report', attachments: [{ source: 'trigger' }, { source: 'message', messageId: 'msg-7', position: 2 }] },
    messageId: 'msg-1',
    capabilities: fresh,
  });
  expect(fresh.send.prepare).toHaveBeenCalledWith(
    expect.objectContaining({
      mailboxId: 'mb-9',
      answer: null,
      to: ['bob@example.test', 'carol@example.test'],
      cc: ['dan@example.test'],
      subject: 'Report',
      attachments: [
        { messageId: 'msg-1', position: null },
        { messageId: 'msg-7', position: 2 },
      ],
    }),
  );

  // Reply to all of a chosen message: its mailbox comes from the message.
  const chosen = fakeCapabilities();
  await runNode(definition, { params: { replyTo: { messageId: 'msg-2', mode: 'replyAll' } }, messageId: 'msg-1', capabilities: chosen });
  expect(chosen.send.prepare).toHaveBeenCalledWith(expect.objectContaining({ mailboxId: null, answer: { messageId: 'msg-2', mode: 'replyAll' } }));

  // The signature is asked for by default and can be switched off (the capability appends it: engine-adapters/send.ts).
  const unsigned = fakeCapabilities();
  await runNode(definition, { params: { replyTo: {}, bodyText: 'Thanks', signature: false }, messageId: 'msg-1', capabilities: unsigned });
  expect(unsigned.send.prepare).toHaveBeenCalledWith(expect.objectContaining({ bodyText: 'Thanks', signature: false }));

  // No mailbox and nothing answered: mail.mailbox_required; an invalid address: invalid_parameter.
  await expect(runNode(definition, { params: { to: 'bob@example.test' }, capabilities: fakeCapabilities() })).rejects.toMatchObject({ code: 'mail.mailbox_required', kind: 'permanent' });
  await expect(runNode(definition, { params: { replyTo: {} }, capabilities: fakeCapabilities() })).rejects.toMatchObject({ code: 'mail.mailbox_required' });
  await expect(runNode(definition, { params: { to: 'not an address' }, messageId: 'msg-1', capabilities: fakeCapabilities() })).rejects.toMatchObject({ code: 'invalid_parameter' });

  // A test run writes nothing and answers a simulated item.
  const simulated = fakeCapabilities({ send: { create: vi.fn() } });
  const dry = await runNode(definition, { params: { replyTo: {} }, messageId: 'msg-1', capabilities: simulated, simulated: true });
  expect(simulated.send.create).not.toHaveBeenCalled();
  expect(dry).toMatchObject({ data: { itemId: 'simulated', simulated: true, to: ['alice@example.test'] }, effects: [expect.objectContaining({ simulated: true })] });
}
