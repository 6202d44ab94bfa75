// @vitest-environment jsdom
/**
 * The Contacts page in jsdom over a tRPC client answering from a table of handlers (no server): the two
 * empty states, the point of view reaching the list's query, the entry's trace in words, the shared
 * card's editor for administrators only, and the member's card saved as a whole PUT body (the page's list
 * read again after it).
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en } from '@/app/i18n/en';
import { ContactsView } from './contacts-view';
import type { ContactEntry } from './_lib/api';
import { renderWithTrpc, type TrpcHandler } from '@/app/testing/render-with-trpc';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh() {}, replace() {} }), usePathname: () => '/contacts' }));

afterEach(cleanup);

function renderView(handlers: Record<string, TrpcHandler>) {
  renderWithTrpc(<ContactsView />, handlers);
}

const me = (role: 'admin' | 'member') => ({ member: { id: '00000000-0000-4000-8000-000000000001', email: 'sam@example.com', name: 'Sam', role, status: 'active' } });
const mailbox = { id: '00000000-0000-4000-8000-00000000000b', address: 'sales@example.com', provider: 'imap', status: 'active' };
const at = '2026-12-01T10:00:00.000Z';

const entry: ContactEntry = {
  kind: 'contact',
  value: 'jo@acme.example',
  shared: null,
  member: { id: '00000000-0000-4000-8000-0000000000c1', formality: 'tu', tone: 'casual', language: null, signatureId: null, personalNotes: 'Plays chess', updatedAt: at },
  memberByMailbox: [],
  resolved: { formality: 'tu', tone: 'casual', language: 'fr', displayName: 'ACME', signatureText: null, signatureId: null, status: 'vip', notes: ['Plays chess', 'Key account'] },
  sources: {
    formality: 'member_contact',
    tone: 'member_contact',
    language: 'shared_domain',
    displayName: 'shared_domain',
    signatureText: null,
    status: 'shared_domain',
    notes: ['member_contact', 'shared_domain'],
  },
};

function handlers(role: 'admin' | 'member', items: ContactEntry[], calls: { list: unknown[]; put: unknown[] }): Record<string, TrpcHandler> {
  return {
    'auth.me': () => me(role),
    'mailboxes.list': () => ({ mailboxes: [mailbox] }),
    'contacts.list': (input) => {
      calls.list.push(input);
      return { items, nextCursor: null };
    },
    'contacts.signatures.list': () => ({ signatures: [] }),
    'contacts.put': (input) => {
      calls.put.push(input);
      return entry;
    },
  };
}

describe('ContactsView', () => {
  it('says "no card yet" on an empty book, and "nothing matches" once a search narrows it', async () => {
    const calls = { list: [] as unknown[], put: [] as unknown[] };
    renderView(handlers('member', [], calls));
    expect(await screen.findByText(en.contacts.empty.title)).toBeTruthy();
    fireEvent.change(screen.getByTestId('contacts-search'), { target: { value: 'acme' } });
    expect(await screen.findByText(en.contacts.emptyFiltered.title, undefined, { timeout: 3000 })).toBeTruthy();
    expect(calls.list.at(-1)).toMatchObject({ q: 'acme', layer: 'all' });
  });

  it('reads the list from the chosen mailbox’s point of view', async () => {
    const calls = { list: [] as unknown[], put: [] as unknown[] };
    renderView(handlers('member', [entry], calls));
    const select = await screen.findByTestId('contacts-mailbox');
    fireEvent.change(select, { target: { value: mailbox.id } });
    await waitFor(() => expect(calls.list.at(-1)).toMatchObject({ mailboxId: mailbox.id }));
  });

  it('shows each field of an entry with the card that gave it, and no organisation editor for a member', async () => {
    const calls = { list: [] as unknown[], put: [] as unknown[] };
    renderView(handlers('member', [entry], calls));
    fireEvent.click(await screen.findByRole('button', { name: en.contacts.openLabel(entry.value) }));
    const dialog = await screen.findByRole('dialog');
    const trace = await within(dialog).findByTestId('contact-trace');
    expect(within(trace).getByTestId('trace-formality').textContent).toContain('Tu (familiar)');
    expect(within(trace).getByTestId('trace-formality').textContent).toContain(en.contacts.trace.layers.member_contact);
    expect(within(trace).getByTestId('trace-status').textContent).toContain(en.contacts.trace.layers.shared_domain);
    expect(within(trace).getByTestId('trace-signatureText').textContent).toContain(en.contacts.trace.noSource);
    expect(within(trace).getByTestId('trace-notes').textContent).toContain('Key account');
    expect(within(dialog).queryByRole('tab', { name: en.contacts.entry.tabs.shared })).toBeNull();
    expect(within(dialog).getByRole('tab', { name: en.contacts.entry.tabs.mine })).toBeTruthy();
  });

  it('offers the organisation’s card to an administrator', async () => {
    const calls = { list: [] as unknown[], put: [] as unknown[] };
    renderView(handlers('admin', [entry], calls));
    fireEvent.click(await screen.findByRole('button', { name: en.contacts.openLabel(entry.value) }));
    // The tab shows once auth.me has said the role.
    expect(await within(await screen.findByRole('dialog')).findByRole('tab', { name: en.contacts.entry.tabs.shared })).toBeTruthy();
  });

  it('saves the member’s card as a whole, the emptied fields null', async () => {
    const calls = { list: [] as unknown[], put: [] as unknown[] };
    renderView(handlers('member', [entry], calls));
    fireEvent.click(await screen.findByRole('button', { name: en.contacts.openLabel(entry.value) }));
    const form = await screen.findByTestId('card-mine-form');
    fireEvent.change(within(form).getByLabelText(en.contacts.cards.tone), { target: { value: 'formal' } });
    fireEvent.change(within(form).getByLabelText(/My notes/), { target: { value: '' } });
    const pageReads = () => calls.list.filter((input) => (input as { q?: string }).q === undefined).length;
    const before = pageReads();
    fireEvent.click(within(form).getByTestId('card-mine-save'));
    await waitFor(() => expect(calls.put).toHaveLength(1));
    // The page's list (an infinite query, no q) is read again, not only the dialog's entry.
    await waitFor(() => expect(pageReads()).toBeGreaterThan(before));
    expect(calls.put[0]).toEqual({ kind: 'contact', value: entry.value, layer: 'member', formality: 'tu', tone: 'formal', language: null, signatureId: null, personalNotes: null });
    expect(await within(form).findByText(en.contacts.cards.saved)).toBeTruthy();
  });

  it('refuses a malformed language next to its field before sending', async () => {
    const calls = { list: [] as unknown[], put: [] as unknown[] };
    renderView(handlers('member', [entry], calls));
    fireEvent.click(await screen.findByRole('button', { name: en.contacts.openLabel(entry.value) }));
    const form = await screen.findByTestId('card-mine-form');
    fireEvent.change(within(form).getByLabelText(/Language/), { target: { value: 'french language' } });
    fireEvent.click(within(form).getByTestId('card-mine-save'));
    expect(await within(form).findByText(en.contacts.cards.invalidLanguage)).toBeTruthy();
    expect(calls.put).toHaveLength(0);
  });
});
