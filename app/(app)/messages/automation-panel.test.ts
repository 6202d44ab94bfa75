/**
 * The reading pane's automation panel rendered to HTML (React's server renderer over a query cache
 * holding a message's journal): the journal's outcome and each workflow's reason read as sentences,
 * with links to the runs and the codes kept in the details.
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
import { AutomationPanel } from './automation-panel';

type Journal = RouterOutputs['journal']['message'];
const messageId = '00000000-0000-4000-8000-000000000001';
const lists = '00000000-0000-4000-8000-000000000002';
const invoices = '00000000-0000-4000-8000-000000000003';
const digests = '00000000-0000-4000-8000-000000000004';
const runId = '00000000-0000-4000-8000-000000000005';
const router = { back() {}, forward() {}, refresh() {}, push() {}, replace() {}, prefetch() {} };

const newsletter: Journal = {
  entry: { id: '00000000-0000-4000-8000-000000000009', outcome: 'guardrail', ruleRef: 'guardrail:mailing_list', createdAt: '2026-12-01T10:00:00.000Z' },
  executions: [],
  workflows: [
    { workflowId: invoices, workflowName: 'Invoices', verdict: 'guardrail', ruleRef: 'guardrail:mailing_list', param: 'includeMailingLists' },
    { workflowId: digests, workflowName: 'Digests', verdict: 'filtered', ruleRef: null, param: 'subject' },
  ],
};

function render(locale: Locale, journal: Journal) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  const trpcClient = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: 'http://localhost.invalid/api/trpc' })] });
  const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
  queryClient.setQueryData(trpc.journal.message.queryKey({ id: messageId }), journal);
  const panel = createElement(AutomationPanel, { messageId });
  const withTrpc = createElement(TRPCProvider, { trpcClient, queryClient, children: panel });
  const withQuery = createElement(QueryClientProvider, { client: queryClient }, withTrpc);
  const withI18n = createElement(I18nProvider, { initialLocale: locale, children: withQuery });
  return renderToString(createElement(AppRouterContext.Provider, { value: router as never }, withI18n))
    .replace(/<!-- -->/g, '')
    .replace(/&#x27;/g, '\'')
    .replace(/&quot;/g, '"');
}

describe('AutomationPanel (why a mail did or did not start workflows)', () => {
  it('says in sentences why a newsletter started nothing: the guardrail per workflow, the option that lets it in, the filter that did not match; codes in the details', () => {
    const html = render('en', newsletter);
    expect(html).toContain('No workflow started: the sender is a mailing list and this workflow skips list mail.');
    expect(html).toContain('Not started: the sender is a mailing list and this workflow skips list mail.');
    expect(html).toContain('To let such mail in, turn on “Include list and bulk mail” in its trigger.');
    expect(html).toContain('Not started: the subject contains none of this workflow’s words.');
    expect(html).toContain('<code>guardrail · guardrail:mailing_list · includeMailingLists</code>');
    expect(html).toContain(`href="/workflows/${invoices}"`);
    expect(html.match(/data-testid="automation-workflow"/g)).toHaveLength(2);
  });

  it('links the runs a mail started, and says so for a mail never handled as new mail', () => {
    const started = render('en', {
      entry: { id: '00000000-0000-4000-8000-000000000010', outcome: 'dispatched', ruleRef: null, createdAt: '2026-12-01T10:00:00.000Z' },
      executions: [{ id: runId, workflowId: lists, workflowName: 'Newsletters', status: 'succeeded', simulated: false, createdAt: '2026-12-01T10:00:01.000Z', finishedAt: '2026-12-01T10:00:02.000Z' }],
      workflows: [{ workflowId: lists, workflowName: 'Newsletters', verdict: 'started', ruleRef: null, param: null }],
    });
    expect(started).toContain('Started 1 workflow.');
    expect(started).toContain(`href="/executions/${runId}"`);
    expect(started).toContain('Succeeded');
    const mirrored = render('en', { entry: null, executions: [], workflows: [] });
    expect(mirrored).toContain('Not handled as new mail');
    expect(mirrored).toContain('You have no published workflow started by mail.');
  });

  it('speaks French', () => {
    const html = render('fr', newsletter);
    expect(html).toContain('Aucun workflow démarré : l’expéditeur est une liste de diffusion et ce workflow ignore le courrier de liste.');
    expect(html).toContain('Non démarré : l’objet ne contient aucun des mots de ce workflow.');
  });
});
