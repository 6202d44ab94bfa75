// @vitest-environment jsdom
/**
 * The sender's address book card beside a message (issue 22): each resolved value with the card it
 * comes from ("why"), and "Add to address book" writing the member's own card (PUT /api/v1/contacts).
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeRouter, renderWithTrpc } from '@/app/testing/render-with-trpc';
import { en } from '@/app/i18n/en';
import { SenderCard } from './sender-card';

afterEach(cleanup);

const a = en.webmail.addressBook;
const mailboxId = '00000000-0000-4000-8000-0000000000b1';
const none = { formality: null, tone: null, language: null, displayName: null, signatureText: null, signatureId: null, status: null, notes: [] as string[] };
const noSources = { formality: null, tone: null, language: null, displayName: null, signatureText: null, status: null, notes: [] as string[] };

function renderCard(resolution: unknown) {
  return renderWithTrpc(<SenderCard address="anne@bigcorp.test" mailboxId={mailboxId} />, { 'contacts.resolve': () => resolution, 'contacts.put': () => ({}) }, { router: fakeRouter() });
}

describe('SenderCard', () => {
  it('shows each value with the card it comes from, and the status', async () => {
    renderCard({
      address: 'anne@bigcorp.test',
      resolved: { ...none, displayName: 'Big Corp', status: 'vip', formality: 'vous', tone: 'formal', language: 'fr', notes: ['Key account'] },
      sources: { ...noSources, displayName: 'shared_domain', status: 'shared_domain', formality: 'member_contact', tone: 'member_mailbox_default', language: 'shared_domain', notes: ['shared_domain'] },
    });
    const card = await screen.findByTestId('sender-card');
    expect(within(card).getByTestId('sender-card-status').textContent).toBe(a.statuses.vip);
    expect(within(card).getByTestId('sender-card-formality').textContent).toContain(`${a.formalities.vous} (${a.why}: ${a.layers.member_contact})`);
    expect(within(card).getByTestId('sender-card-tone').textContent).toContain(a.layers.member_mailbox_default);
    expect(within(card).getByText(/Key account/)).toBeTruthy();
    expect(within(card).getByTestId('sender-card-add').textContent).toBe(a.edit);
  });

  it('an unknown sender: "Add to address book" saves the member’s own card of the address', async () => {
    const calls = renderCard({ address: 'anne@bigcorp.test', resolved: none, sources: noSources });
    expect(await screen.findByText(a.unknown)).toBeTruthy();
    fireEvent.click(screen.getByTestId('sender-card-add'));
    fireEvent.change(screen.getByTestId('sender-card-formality'), { target: { value: 'tu' } });
    fireEvent.click(screen.getByTestId('sender-card-save'));
    await waitFor(() => expect(calls.some((call) => call.path === 'contacts.put')).toBe(true));
    expect(calls.find((call) => call.path === 'contacts.put')!.input).toEqual({ kind: 'contact', value: 'anne@bigcorp.test', layer: 'member', formality: 'tu', tone: null, personalNotes: null });
    expect(calls.find((call) => call.path === 'contacts.resolve')!.input).toEqual({ address: 'anne@bigcorp.test', mailboxId });
  });
});
