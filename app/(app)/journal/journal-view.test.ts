/**
 * The message journal page rendered to HTML (React's server renderer over a query cache holding a
 * journal page and the member's mailboxes): the filters the URL gave, each entry's outcome as words,
 * the rule that decided, and the empty state that says what the journal is.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { AppRouterContext } from 'next/dist/shared/lib/app-router-context.shared-runtime';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Locale } from '@/app/i18n';
import { I18nProvider } from '@/app/i18n/client';
import { TRPCProvider, type RouterOutputs } from '@/app/lib/trpc';
import type { AppRouter } from '@/server/trpc/root';
import { JournalView } from './journal-view';
import { journalFiltersFromSearch, queryOfJournalFilters } from './_lib/filters';
import { journalPageSize } from './_lib/api';

type Page = RouterOutputs['journal']['list'];
const mailboxId = '00000000-0000-4000-8000-0000000000a1';
const router = { back() {}, forward() {}, refresh() {}, push() {}, replace() {}, prefetch() {} };

const entry = (id: number, fields: Partial<Page['entries'][number]>): Page['entries'][number] => ({
  id: `00000000-0000-4000-8000-00000000000${id}`,
  messageId: `00000000-0000-4000-8000-00000000010${id}`,
  mailboxId,
  outcome: 'unmatched',
  ruleRef: null,
  createdAt: '2026-03-28T09:30:00.000Z',
  subject: 'Question about the offer',
  fromEmail: 'carla@client.example.test',
  threadId: `00000000-0000-4000-8000-00000000020${id}`,
  ...fields,
});

function render(locale: Locale, search: Record<string, string>, page: Page) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  const trpcClient = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: 'http://localhost.invalid/api/trpc' })] });
  const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
  const filters = journalFiltersFromSearch(search);
  queryClient.setQueryData(trpc.journal.list.infiniteQueryKey({ ...queryOfJournalFilters(filters), limit: journalPageSize }), { pages: [page], pageParams: [null] });
  queryClient.setQueryData(trpc.mailboxes.list.queryKey(), { mailboxes: [{ id: mailboxId, address: 'sales@example.test' }] } as never);
  const view = createElement(JournalView, { initialFilters: filters });
  const withTrpc = createElement(TRPCProvider, { trpcClient, queryClient, children: view });
  const withQuery = createElement(QueryClientProvider, { client: queryClient }, withTrpc);
  const withI18n = createElement(I18nProvider, { initialLocale: locale, children: withQuery });
  return renderToString(createElement(AppRouterContext.Provider, { value: router as never }, withI18n))
    .replace(/<!-- -->/g, '')
    .replace(/&#x27;/g, '\'')
    .replace(/&quot;/g, '"');
}

const page: Page = {
  entries: [
    entry(1, {}),
    entry(2, { outcome: 'guardrail', ruleRef: 'guardrail:bulk', subject: 'Weekly digest', fromEmail: 'news@list.example.test' }),
    entry(3, { outcome: 'excluded_member', ruleRef: 'exclusion:00000000-0000-4000-8000-0000000000e1', subject: null, fromEmail: null, threadId: null }),
  ],
  nextCursor: 'next',
};

describe('JournalView (the message journal page)', () => {
  it('lists each entry with its mailbox, subject and sender, its outcome in words and the rule that decided, with Load more while there are pages', () => {
    const html = render('en', {}, page);
    expect(html.match(/data-testid="journal-entry"/g)).toHaveLength(3);
    expect(html).toContain('sales@example.test');
    expect(html).toContain('Question about the offer');
    expect(html).toContain('From carla@client.example.test');
    expect(html).toContain('>Matched no workflow<');
    expect(html).toContain('>Stopped by a guardrail<');
    expect(html).toContain('>Bulk mail<');
    expect(html).toContain('>Excluded by you<');
    expect(html).toContain('>Sender exclusion<');
    expect(html).toContain('No longer in the mirror');
    expect(html).toContain('Load more');
  });

  it('links each entry still in the mirror to its conversation in the webmail, and not one that left it', () => {
    const html = render('en', {}, page);
    const links = [...html.matchAll(/<a[^>]*data-testid="journal-message-link"[^>]*>/g)].map((match) => match[0]);
    expect(links).toHaveLength(2);
    expect(links[0]).toContain(`href="/messages?mailbox=${mailboxId}&amp;thread=00000000-0000-4000-8000-000000000201"`);
  });

  it('opens with the URL’s outcome, mailbox and window as its filters, the window as a removable chip', () => {
    const html = render('en', { outcome: 'unmatched', mailboxId, from: '2026-03-28T00:00:00Z', to: '2026-03-29T00:00:00Z' }, { entries: [entry(1, {})], nextCursor: null });
    expect(html).toMatch(/<option value="unmatched" selected="">Matched no workflow<\/option>/);
    expect(html).toMatch(new RegExp(`<option value="${mailboxId}" selected="">sales@example.test</option>`));
    expect(html).toContain('data-testid="window-chip"');
    expect(html).toContain('aria-label="Remove the time window filter"');
    expect(html).toContain('Clear filters');
    expect(html).toContain('End of the journal.');
  });

  it('shows no chip and no “clear” without filters, and an empty journal says what the journal is', () => {
    const html = render('en', {}, { entries: [], nextCursor: null });
    expect(html).not.toContain('data-testid="window-chip"');
    expect(html).not.toContain('Clear filters');
    expect(html).toContain('No mail journaled yet');
    expect(html).toContain('The journal records each new mail that reaches your mailboxes');
  });

  it('says that filters hide entries when a filtered journal is empty', () => {
    const html = render('en', { outcome: 'guardrail' }, { entries: [], nextCursor: null });
    expect(html).toContain('No entry matches these filters');
  });

  it('reads in French', () => {
    const html = render('fr', {}, page);
    expect(html).toContain('Journal des messages');
    expect(html).toContain('>Aucun workflow correspondant<');
    expect(html).toContain('>Arrêté par un garde-fou<');
    expect(html).toContain('>Exclu par vous<');
    expect(html).toContain('De carla@client.example.test');
  });
});
