/**
 * The panel rendered to HTML (no browser: React's server renderer over a query cache holding a
 * run and its cases), so its markup and test ids are checked without a component-test setup.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '@/app/i18n/client';
import type { Locale } from '@/app/i18n';
import { TRPCProvider } from '@/app/lib/trpc';
import type { AppRouter } from '@/server/trpc/root';
import type { EvalCase, EvalRun } from './api';
import { EvalRunsPanel, graphHasAiNodes, nodeNamesOf } from './eval-runs-panel';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh: () => {} }) }));

const workflowId = '00000000-0000-4000-8000-000000000001';
const run: EvalRun = {
  id: '00000000-0000-4000-8000-000000000002',
  workflowId,
  versionId: '00000000-0000-4000-8000-000000000003',
  baseline: 'published',
  baselineVersionId: '00000000-0000-4000-8000-000000000004',
  source: { kind: 'recent', limit: 200 },
  status: 'running',
  progress: { done: 120, total: 200 },
  figures: { triggered: 37, wouldSend: 12, wouldDraft: 3, errors: 3, changed: 5 },
  reasons: [],
  callModels: false,
  costUsd: null,
  error: null,
  createdAt: '2026-11-24T10:00:00.000Z',
  startedAt: '2026-11-24T10:00:01.000Z',
  finishedAt: null,
};
const cases: EvalCase[] = [
  {
    id: '00000000-0000-4000-8000-000000000010',
    index: 0,
    messageId: '00000000-0000-4000-8000-000000000011',
    headline: { subject: 'Invoice 7', fromName: 'Billing', fromEmail: 'billing@example.test' },
    status: 'done',
    triggered: true,
    reason: null,
    path: ['start', 'send'],
    effects: [{ kind: 'mail.send', description: 'Send “Re: Invoice 7” to 1 recipient(s)' }],
    error: null,
    baseline: { triggered: true, path: ['start', 'draft'], effects: [{ kind: 'mail.draft', description: 'Draft “Re: Invoice 7” to 1 recipient(s)' }], error: null },
    changed: true,
    executionId: '00000000-0000-4000-8000-000000000012',
    baselineExecutionId: '00000000-0000-4000-8000-000000000013',
  },
  {
    id: '00000000-0000-4000-8000-000000000020',
    index: 1,
    messageId: '00000000-0000-4000-8000-000000000021',
    headline: { subject: 'Lunch?', fromName: null, fromEmail: 'friend@example.test' },
    status: 'done',
    triggered: false,
    reason: { verdict: 'filtered', ruleRef: null, param: 'subject' },
    path: [],
    effects: [],
    error: null,
    baseline: { triggered: false, path: [], effects: [], error: null },
    changed: false,
    executionId: null,
    baselineExecutionId: null,
  },
];

function render(locale: Locale, latest: EvalRun | null, hasAiNodes = false, nodeNames?: ReadonlyMap<string, string>) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  const trpcClient = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: 'http://localhost.invalid/api/trpc' })] });
  const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
  queryClient.setQueryData(trpc.evalRuns.list.queryKey({ id: workflowId, limit: 1 }), { evalRuns: latest ? [latest] : [] });
  queryClient.setQueryData(trpc.evalRuns.cases.infiniteQueryKey({ id: run.id, limit: 50 }), { pages: [{ cases, nextCursor: 'next' }], pageParams: [null] });
  const panel = createElement(EvalRunsPanel, { workflowId, hasPublished: true, hasAiNodes, nodeNames });
  const withTrpc = createElement(TRPCProvider, { trpcClient, queryClient, children: panel });
  const withQuery = createElement(QueryClientProvider, { client: queryClient }, withTrpc);
  return renderToString(createElement(I18nProvider, { initialLocale: locale, children: withQuery }));
}

const startButton = (html: string) => /<button[^>]*data-testid="eval-start"[^>]*>/.exec(html)?.[0] ?? '';
const text = (html: string) => html.replace(/<!-- -->/g, '').replace(/&#x27;/g, '\'').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"');

describe('EvalRunsPanel', () => {
  it('shows the start button, progress, the summary sentence and a row per case with the comparison', () => {
    const html = text(render('en', run));
    expect(html).toContain('data-testid="eval-start"');
    expect(startButton(html)).toContain('disabled=""');
    expect(html).toContain('Try on my last 200 mails');
    expect(html).toContain('Would trigger on 37 of 200 · would send 12 · would draft 3 · 3 errors · 5 differ from the published version');
    expect(html).toContain('120 of 200 cases');
    expect(html).toContain('role="progressbar"');
    expect(html.match(/data-testid="eval-case-row"/g)).toHaveLength(2);
    expect(html).toContain('start → send');
    expect(html).toContain('Send “Re: Invoice 7” to 1 recipient(s)');
    expect(html).toContain('Differs');
    expect(html).toContain('Baseline: start → draft · Draft “Re: Invoice 7” to 1 recipient(s)');
    expect(html).toContain('Not triggered');
    expect(html).toContain('Only differences');
    expect(html).toContain('data-testid="eval-load-more"');
    expect(html).toContain('data-testid="eval-cancel"');
  });

  it('reads a case’s path as node names, a node no longer in the draft by its id', () => {
    const names = nodeNamesOf({ nodes: [{ id: 'start', name: 'New invoice' }, { id: 'send', name: 'Send the receipt' }, { id: 'x', name: '  ' }, null, 'junk'] });
    expect([...names]).toEqual([['start', 'New invoice'], ['send', 'Send the receipt']]);
    const html = text(render('en', run, false, names));
    expect(html).toContain('New invoice → Send the receipt');
    expect(html).toContain('Baseline: New invoice → draft');
  });

  it('speaks French and invites a first evaluation when there is none', () => {
    expect(text(render('fr', run))).toContain('Se déclencherait sur 37 sur 200');
    const empty = text(render('en', null));
    expect(empty).toContain('data-testid="eval-empty"');
    expect(empty).not.toContain('eval-summary');
    expect(startButton(empty)).not.toContain('disabled=""');
  });

  it('knows a graph with AI nodes', () => {
    expect(graphHasAiNodes({ nodes: [{ type: 'trigger.mail' }, { type: 'ai.classify' }] })).toBe(true);
    expect(graphHasAiNodes({ nodes: [{ type: 'trigger.mail' }, null, 'x', { type: 'mail.draft' }] })).toBe(false);
  });

  it('offers real model calls, with what they cost, only when the draft has AI nodes; shows a run’s AI cost', () => {
    const without = text(render('en', null));
    expect(without).not.toContain('data-testid="eval-call-models"');
    const withAi = text(render('en', null, true));
    expect(withAi).toContain('data-testid="eval-call-models"');
    expect(withAi).toContain('Call the AI models for real');
    expect(withAi).toContain('This costs money and counts against your AI budget');
    expect(/<input[^>]*data-testid="eval-call-models"[^>]*>/.exec(withAi)?.[0]).not.toContain('checked');
    expect(text(render('fr', null, true))).toContain('Appeler réellement les modèles d’IA');
    // A running evaluation: the choice is locked; its cost so far is shown.
    const running = text(render('en', { ...run, callModels: true, costUsd: 0.4812 }, true));
    expect(/<input[^>]*data-testid="eval-call-models"[^>]*>/.exec(running)?.[0]).toContain('disabled=""');
    expect(running).toContain('AI cost: $0.4812');
    expect(text(render('en', run, true))).not.toContain('data-testid="eval-cost"');
  });

  it('gives each case that would not run its reason, and sums the reasons up with the trigger option to turn on in one click (Try on my mail reasons)', () => {
    const withReasons: EvalRun = {
      ...run,
      status: 'succeeded',
      reasons: [
        { verdict: 'guardrail', ruleRef: 'guardrail:auto_reply', param: 'includeAutoReplies', count: 58 },
        { verdict: 'filtered', ruleRef: null, param: 'subject', count: 1 },
        { verdict: 'guardrail', ruleRef: 'guardrail:from_self', param: null, count: 1 },
      ],
    };
    const html = text(render('en', withReasons));
    expect(html).toContain('Would not run: the subject contains none of this workflow’s words.');
    expect(html).toContain('58 skipped: automatic mail guardrail; include automatic mail?');
    expect(html).toContain('1 skipped: subject filter');
    expect(html).toContain('1 skipped: mail from this mailbox (always skipped)');
    // One button, for the reason a trigger option lets in; the loop guard offers none.
    expect(html.match(/data-testid="eval-include"/g)).toHaveLength(1);
    expect(html).toContain('data-option="includeAutoReplies"');
    expect(html).toContain('Turn on “Include automatic mail”');
    const french = text(render('fr', withReasons));
    expect(french).toContain('58 ignorés : garde-fou du courrier automatique ; inclure le courrier automatique ?');
    expect(french).toContain('Ne s’exécuterait pas : l’objet ne contient aucun des mots de ce workflow.');
    // No reason, no summary.
    expect(text(render('en', run))).not.toContain('data-testid="eval-reasons"');
  });
});
