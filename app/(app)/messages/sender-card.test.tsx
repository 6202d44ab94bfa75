// @vitest-environment jsdom
/**
 * The sender's address book card beside a message (issue 22): each resolved value with the card it
 * comes from ("why"), and "Add to address book" writing the member's own card (PUT /api/v1/contacts).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createTRPCClient, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en } from '@/app/i18n/en';
import { I18nProvider } from '@/app/i18n/client';
import { TRPCProvider } from '@/app/lib/trpc';
import type { AppRouter } from '@/server/trpc/root';
import { SenderCard } from './sender-card';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh() {}, replace() {} }) }));

afterEach(cleanup);

const a = en.webmail.addressBook;
const mailboxId = '00000000-0000-4000-8000-0000000000b1';
const none = { formality: null, tone: null, language: null, displayName: null, signatureText: null, signatureId: null, status: null, notes: [] as string[] };
const noSources = { formality: null, tone: null, language: null, displayName: null, signatureText: null, status: null, notes: [] as string[] };

function renderCard(resolution: unknown, calls: { path: string; input: unknown }[] = []) {
  const link: TRPCLink<AppRouter> = () => ({ op }) =>
    observable((observer) => {
      calls.push({ path: op.path, input: op.input });
      const data = op.path === 'contacts.resolve' ? resolution : op.path === 'contacts.put' ? {} : undefined;
      observer.next({ result: { type: 'data', data } });
      observer.complete();
    });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const trpcClient = createTRPCClient<AppRouter>({ links: [link] });
  render(
    <I18nProvider initialLocale="en">
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          <SenderCard address="anne@bigcorp.test" mailboxId={mailboxId} />
        </TRPCProvider>
      </QueryClientProvider>
    </I18nProvider>,
  );
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
    const calls: { path: string; input: unknown }[] = [];
    renderCard({ address: 'anne@bigcorp.test', resolved: none, sources: noSources }, calls);
    expect(await screen.findByText(a.unknown)).toBeTruthy();
    fireEvent.click(screen.getByTestId('sender-card-add'));
    fireEvent.change(screen.getByTestId('sender-card-formality'), { target: { value: 'tu' } });
    fireEvent.click(screen.getByTestId('sender-card-save'));
    await waitFor(() => expect(calls.some((call) => call.path === 'contacts.put')).toBe(true));
    expect(calls.find((call) => call.path === 'contacts.put')!.input).toEqual({ kind: 'contact', value: 'anne@bigcorp.test', layer: 'member', formality: 'tu', tone: null, personalNotes: null });
    expect(calls.find((call) => call.path === 'contacts.resolve')!.input).toEqual({ address: 'anne@bigcorp.test', mailboxId });
  });
});
