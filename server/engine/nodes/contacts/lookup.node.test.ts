import { describe, expect, it, vi } from 'vitest';
import type { ContactCard } from '../../contract/capabilities';
import { fakeCapabilities, runNode, unknownContact } from '../testing';
import { contactLookupNode } from './lookup.node.ts';

const vip: ContactCard = {
  ...unknownContact('anne@bigcorp.test'),
  known: true,
  displayName: 'Big Corp',
  status: 'vip',
  formality: 'vous',
  sources: { displayName: 'shared_domain', status: 'shared_domain', language: null, formality: 'member_contact', tone: null, notes: [] },
};

describe('contacts.lookup', () => {
  it('answers the entry of the address given, from the run’s mailbox’s point of view', async () => {
    const capabilities = fakeCapabilities({ contacts: { lookup: vi.fn(async () => vip) } });
    expect(await runNode(contactLookupNode, { params: { address: 'Anne@BigCorp.test' }, messageId: 'msg-1', capabilities })).toEqual({ data: vip });
    expect(capabilities.contacts.lookup).toHaveBeenCalledWith({ address: 'Anne@BigCorp.test', mailboxId: 'mb-1' });
  });

  it('defaults to the triggering message’s sender; a chosen mailbox, or `none` for the member’s cards only', async () => {
    const capabilities = fakeCapabilities();
    const trigger = { from: { name: 'Anne', email: 'anne@bigcorp.test' } };
    expect(await runNode(contactLookupNode, { params: {}, trigger, messageId: 'msg-1', capabilities })).toEqual({ data: unknownContact('anne@bigcorp.test') });
    await runNode(contactLookupNode, { params: { mailboxId: 'mb-7' }, trigger, capabilities });
    await runNode(contactLookupNode, { params: { mailboxId: 'none' }, trigger, messageId: 'msg-1', capabilities });
    expect(vi.mocked(capabilities.contacts.lookup).mock.calls.map(([input]) => input.mailboxId)).toEqual(['mb-1', 'mb-7', null]);
  });

  it('refuses no address and a text that is not one (invalid_parameter naming params.address)', async () => {
    await expect(runNode(contactLookupNode, { params: {}, capabilities: fakeCapabilities() })).rejects.toMatchObject({ code: 'invalid_parameter', details: { path: 'params.address' } });
    await expect(runNode(contactLookupNode, { params: { address: 'not an address' }, capabilities: fakeCapabilities() })).rejects.toMatchObject({ code: 'invalid_parameter' });
  });

  it('reads only: no effect, the address book scope, no instance requirement', () => {
    expect(contactLookupNode.effect).toBe('none');
    expect(contactLookupNode.scopes).toEqual(['contacts:read']);
    expect(contactLookupNode.requires).toEqual([]);
    expect(contactLookupNode.params.safeParse({ address: 'x'.repeat(321) }).success).toBe(false);
  });
});
