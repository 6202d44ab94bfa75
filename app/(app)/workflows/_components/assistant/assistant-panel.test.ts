/**
 * The assistant panel rendered to HTML (React's server renderer over a query cache holding a
 * conversation), and the pure pieces: Markdown without raw HTML, deltas applied at their offsets.
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

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh: () => {} }) }));

const conversationId = '00000000-0000-4000-8000-000000000001';
const workflowId = '00000000-0000-4000-8000-000000000002';
const messageId = '00000000-0000-4000-8000-000000000004';

function render(locale: Locale, element: ReactElement) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  const trpcClient = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: 'http://localhost.invalid/api/trpc' })] });
  const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
  const conversation = {
    id: conversationId,
    title: 'Fix my invoices',
    workflowId,
    model: null,
    lastModel: 'fake-large',
    status: 'running' as const,
    usage: { calls: 2, inputTokens: 10, outputTokens: 5, costUsd: null },
    createdAt: '2026-11-24T10:00:00.000Z',
    updatedAt: '2026-11-24T10:00:00.000Z',
  };
  queryClient.setQueryData(trpc.assistant.list.queryKey({ workflowId, limit: 50 }), { conversations: [conversation] });
  queryClient.setQueryData(trpc.assistant.get.queryKey({ id: conversationId }), {
    conversation,
    messages: [
      { id: '00000000-0000-4000-8000-000000000003', role: 'user' as const, content: 'Add a label step', parts: [], status: 'done' as const, error: null, createdAt: conversation.createdAt },
      { id: messageId, role: 'assistant' as const, content: 'Here is **my** proposal.', parts: [{ type: 'tool_call' as const, id: 'c1', name: 'get_workflow', input: {} }], status: 'streaming' as const, error: null, createdAt: conversation.createdAt },
    ],
    proposals: [
      { id: '00000000-0000-4000-8000-000000000005', conversationId, messageId, workflowId, baseDraftRevision: 1, graph: { nodes: [], connections: [] }, summary: 'Adds a label step.', status: 'stale' as const, createdAt: conversation.createdAt, decidedAt: conversation.createdAt },
    ],
  });
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
