/**
 * The assistant panel rendered to HTML (React's server renderer over a query cache holding a
 * conversation), and the pure pieces: Markdown without raw HTML, deltas applied at their offsets,
 * saving the builder's pending edit before accepting, an outdated proposal.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { createElement, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '@/app/i18n/client';
import type { Locale } from '@/app/i18n';
import { TRPCProvider } from '@/app/lib/trpc';
import type { AppRouter } from '@/server/trpc/root';
import { applyDelta } from './api';
import { AssistantPanel, ConversationView, MarkdownText } from './assistant-panel';
import { isOutdated, proposedNodeIds, saveThenAccept } from './proposal-view';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh: () => {} }) }));

const conversationId = '00000000-0000-4000-8000-000000000001';
const workflowId = '00000000-0000-4000-8000-000000000002';
const messageId = '00000000-0000-4000-8000-000000000004';

const draftGraph = { nodes: [{ id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {}, position: { x: 0, y: 0 } }], connections: [] };
const proposedGraph = {
  nodes: [...draftGraph.nodes, { id: 'notify', type: 'notify.owner', version: 1, name: 'Notify me', params: {}, position: { x: 260, y: 0 } }],
  connections: [{ from: 'start', output: 'main', to: 'notify' }],
};

function render(locale: Locale, element: ReactElement, options: { proposal?: 'stale' | 'pending'; draftRevision?: number; failed?: boolean } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  const trpcClient = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: 'http://localhost.invalid/api/trpc' })] });
  const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
  const conversation = {
    id: conversationId,
    title: 'Fix my invoices',
    workflowId,
    model: null,
    lastModel: 'fake-large',
    status: options.failed ? ('failed' as const) : ('running' as const),
    usage: { calls: 2, inputTokens: 10, outputTokens: 5, costUsd: null },
    createdAt: '2026-11-24T10:00:00.000Z',
    updatedAt: '2026-11-24T10:00:00.000Z',
  };
  queryClient.setQueryData(trpc.assistant.list.queryKey({ workflowId, limit: 50 }), { conversations: [conversation] });
  queryClient.setQueryData(trpc.assistant.get.queryKey({ id: conversationId }), {
    conversation,
    messages: [
      { id: '00000000-0000-4000-8000-000000000003', role: 'user' as const, content: 'Add a label step', parts: [], status: 'done' as const, error: null, createdAt: conversation.createdAt },
      {
        id: messageId,
        role: 'assistant' as const,
        content: 'Here is **my** proposal.',
        parts: [{ type: 'tool_call' as const, id: 'c1', name: 'get_workflow', input: {} }],
        status: options.failed ? ('failed' as const) : ('streaming' as const),
        error: options.failed ? { code: 'assistant.turn_interrupted', message: 'The turn was interrupted.' } : null,
        createdAt: conversation.createdAt,
      },
    ],
    proposals: [
      options.proposal === 'pending'
        ? { id: '00000000-0000-4000-8000-000000000005', conversationId, messageId, workflowId, baseDraftRevision: 1, graph: proposedGraph, summary: 'Adds a notification.', status: 'pending' as const, createdAt: conversation.createdAt, decidedAt: null }
        : { id: '00000000-0000-4000-8000-000000000005', conversationId, messageId, workflowId, baseDraftRevision: 1, graph: { nodes: [], connections: [] }, summary: 'Adds a label step.', status: 'stale' as const, createdAt: conversation.createdAt, decidedAt: conversation.createdAt },
    ],
  });
  // Only the fields the proposal preview reads.
  queryClient.setQueryData(trpc.workflows.get.queryKey({ id: workflowId }), { workflow: { id: workflowId, graph: draftGraph, draftRevision: options.draftRevision ?? 1 } } as never);
  const withTrpc = createElement(TRPCProvider, { trpcClient, queryClient, children: element });
  const withQuery = createElement(QueryClientProvider, { client: queryClient }, withTrpc);
  return renderToString(createElement(I18nProvider, { initialLocale: locale, children: withQuery }));
}

describe('MarkdownText', () => {
  it('renders Markdown and never raw HTML or script links', () => {
    const html = renderToString(createElement(MarkdownText, { text: '**bold** <script>alert(1)</script><img src=x onerror=alert(1)> [x](javascript:alert(1)) [ok](https://example.test)' }));
    expect(html).toContain('<strong>bold</strong>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('href="https://example.test"');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
  });
});

describe('applyDelta', () => {
  it.each([
    ['appends at the end', 'Hel', 3, 'lo', 'Hello'],
    ['ignores a delta already there', 'Hello', 0, 'He', 'Hello'],
    ['replaces an overlapping tail', 'Hel', 2, 'llo', 'Hello'],
    ['reports a gap', 'He', 4, 'o', null],
  ])('%s', (_label, current, offset, delta, expected) => {
    expect(applyDelta(current, offset, delta)).toBe(expected);
  });
});

describe('AssistantPanel', () => {
  it.each(['en', 'fr'] as const)('shows the conversations, messages, tools, stop button and proposal (%s)', (locale) => {
    const panel = render(locale, createElement(AssistantPanel, { workflowId }));
    expect(panel).toContain('data-testid="assistant-panel"');
    expect(panel).toContain('Fix my invoices');
    const view = render(locale, createElement(ConversationView, { id: conversationId }));
    expect(view).toContain('Add a label step');
    expect(view).toContain('<strong>my</strong>');
    expect(view).toContain('get_workflow');
    expect(view).toContain('data-testid="assistant-stop"');
    expect(view).toContain('data-testid="assistant-proposal"');
    expect(view).toContain('Adds a label step.');
    expect(view).toContain(locale === 'en' ? 'Outdated' : 'Périmée');
  });
});

describe('saveThenAccept', () => {
  it('accepts at once without an editor', async () => {
    const accept = vi.fn(async () => ({}));
    expect(await saveThenAccept(undefined, accept)).toEqual({ kind: 'accepted' });
    expect(accept).toHaveBeenCalledOnce();
  });

  it('saves the pending edit first, then accepts', async () => {
    const order: string[] = [];
    const outcome = await saveThenAccept(
      async () => (order.push('save'), true),
      async () => order.push('accept'),
    );
    expect(outcome).toEqual({ kind: 'accepted' });
    expect(order).toEqual(['save', 'accept']);
  });

  it('never accepts over an edit that could not be saved', async () => {
    const accept = vi.fn(async () => ({}));
    expect(await saveThenAccept(async () => false, accept)).toEqual({ kind: 'unsaved' });
    expect(accept).not.toHaveBeenCalled();
  });

  it('answers the server’s refusal (a stale proposal) as a failure to show', async () => {
    const refusal = new Error('workflow.revision_conflict');
    expect(await saveThenAccept(async () => true, async () => Promise.reject(refusal))).toEqual({ kind: 'failed', error: refusal });
  });
});

describe('isOutdated', () => {
  it.each([
    ['pending on the same revision', 'pending', 3, 3, false],
    ['pending, the draft moved on', 'pending', 3, 4, true],
    ['pending, the draft not known yet', 'pending', 3, undefined, false],
    ['already decided', 'accepted', 3, 4, false],
  ] as const)('%s', (_label, status, base, revision, expected) => {
    expect(isOutdated({ status, baseDraftRevision: base }, revision)).toBe(expected);
  });
});

describe('a pending proposal', () => {
  it.each(['en', 'fr'] as const)('shows what accepting adds, with Accept and Reject (%s)', (locale) => {
    const view = render(locale, createElement(ConversationView, { id: conversationId, saveDraft: async () => true }), { proposal: 'pending' });
    expect(view).toContain('data-testid="assistant-proposal-diff"');
    expect(view).toContain('data-testid="diff-node-added"');
    expect(view).toContain('Notify me');
    expect(view).toContain('data-testid="diff-connection-added"');
    expect(view).toContain('data-testid="assistant-accept"');
    expect(view).toContain('data-testid="assistant-reject"');
    expect(view).toContain(locale === 'en' ? 'Your unsaved edits are saved first.' : 'Vos modifications non enregistrées le sont d’abord.');
    expect(view).not.toContain('data-testid="assistant-proposal-outdated"');
  });

  it('warns when the draft moved past the revision the assistant read', () => {
    const view = render('en', createElement(ConversationView, { id: conversationId }), { proposal: 'pending', draftRevision: 2 });
    expect(view).toContain('data-testid="assistant-proposal-outdated"');
    expect(view).toContain('Accepting changes the draft only');
  });
});

describe('an interrupted turn', () => {
  it.each(['en', 'fr'] as const)('says so in the member’s language (%s)', (locale) => {
    const view = render(locale, createElement(ConversationView, { id: conversationId }), { failed: true });
    expect(view).toContain('data-code="assistant.turn_interrupted"');
    expect(view).toContain(locale === 'en' ? 'interrupted because the server restarted' : 'interrompue par un redémarrage du serveur');
    expect(view).not.toContain('data-testid="assistant-stop"');
  });
});

describe('the builder’s side panel', () => {
  it('has a close button when the builder gives one', () => {
    expect(render('en', createElement(AssistantPanel, { workflowId, onClose: () => {} }))).toContain('data-testid="assistant-close"');
    expect(render('en', createElement(AssistantPanel, { workflowId }))).not.toContain('data-testid="assistant-close"');
  });
});

describe('proposedNodeIds', () => {
  it('reads the node ids of a proposed graph, ignoring what is not a node', () => {
    expect(proposedNodeIds(proposedGraph)).toEqual(['start', 'notify']);
    expect(proposedNodeIds({ nodes: [null, 3, { id: 7 }, { id: 'x' }] })).toEqual(['x']);
    expect(proposedNodeIds({})).toEqual([]);
  });
});
