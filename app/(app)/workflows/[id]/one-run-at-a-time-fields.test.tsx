// @vitest-environment jsdom
/**
 * "One run at a time" in the run settings (issue 24 §3): off by default; choosing a key shows the burst
 * window (and, for an expression, the key field); saving sends the setting; a window out of bounds is
 * refused in the browser; the server's refusal of a key expression shows on the field in the
 * interface's language. The rules themselves: server/domains/workflows/workflows.int.test.ts.
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { en } from '@/app/i18n/en';
import { fr } from '@/app/i18n/fr';
import { fakeRouter, renderWithTrpc, trpcAppError } from '@/app/testing/render-with-trpc';
import type { WorkflowDetail } from '../_lib/api';
import { SettingsPanel } from './settings-panel';

afterEach(cleanup);

const workflow = {
  id: '00000000-0000-4000-8000-00000000000a',
  name: 'Answer customers',
  description: '',
  status: 'published',
  publishedVersion: null,
  triggerType: 'mail',
  draftRevision: 1,
  errorWorkflowId: null,
  maxConcurrency: null,
  executionTimeoutMs: null,
  sendWithoutReview: false,
  oneRunAtATime: null,
  createdAt: '2026-12-03T08:00:00.000Z',
  updatedAt: '2026-12-03T08:00:00.000Z',
  graph: { id: 'x', workflowId: 'x', nodes: [], connections: [] },
  draftIssues: [],
  executionLimits: { maxConcurrency: { effective: 10, ceiling: 100, instanceTotal: 100 }, executionTimeoutMs: { effective: 3_600_000, ceiling: 86_400_000, minimum: 60_000 }, waitMs: { effective: 1, ceiling: 2_592_000_000 } },
  testMessageIds: [],
  webhook: { configured: false, requireSignature: false },
} as unknown as WorkflowDetail;

const t = en.workflows.settings;

function renderPanel(patch: (input: unknown) => unknown, detail: WorkflowDetail = workflow, locale: 'en' | 'fr' = 'en') {
  return renderWithTrpc(<SettingsPanel workflow={detail} />, { 'workflows.list': () => ({ workflows: [] }), 'workflows.patch': patch, 'workflows.get': () => ({ workflow: detail }) }, { locale, router: fakeRouter() });
}

const sent = (calls: { path: string; input: unknown }[]) => calls.filter((call) => call.path === 'workflows.patch').map((call) => (call.input as { settings: { oneRunAtATime: unknown } }).settings.oneRunAtATime);

describe('one run at a time in the run settings', () => {
  it('is off by default and saves null; per conversation with a burst window saves the setting', async () => {
    const calls = renderPanel(() => ({ workflow }));
    const select = screen.getByLabelText(t.oneRunAtATime);
    expect((select as HTMLSelectElement).value).toBe('');
    expect(screen.queryByLabelText(t.coalesce, { exact: false })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: t.save }));
    await waitFor(() => expect(sent(calls)).toEqual([null]));

    fireEvent.change(select, { target: { value: 'thread' } });
    expect(screen.queryByLabelText(t.keyExpression)).toBeNull();
    fireEvent.change(screen.getByLabelText(t.coalesce, { exact: false }), { target: { value: '90' } });
    fireEvent.click(screen.getByRole('button', { name: t.save }));
    await waitFor(() => expect(sent(calls)).toEqual([null, { by: 'thread', expression: null, coalesceSeconds: 90 }]));
  });

  it('shows the stored setting, and refuses a window out of bounds before asking the server', async () => {
    const calls = renderPanel(() => ({ workflow }), { ...workflow, oneRunAtATime: { by: 'expression', expression: '{{ trigger.orderId }}', coalesceSeconds: 0 } } as WorkflowDetail);
    expect((screen.getByLabelText(t.keyExpression) as HTMLInputElement).value).toBe('{{ trigger.orderId }}');
    fireEvent.change(screen.getByLabelText(t.coalesce, { exact: false }), { target: { value: '3601' } });
    fireEvent.click(screen.getByRole('button', { name: t.save }));
    expect(await screen.findByText(t.invalidCoalesce)).toBeTruthy();
    expect(sent(calls)).toEqual([]);
  });

  it('the server’s refusal of the key expression shows on the field, in French too', async () => {
    const refuse = () => {
      throw trpcAppError('request.bad_request', { field: 'settings.oneRunAtATime.expression', reason: 'not_inline' });
    };
    renderPanel(refuse, workflow, 'fr');
    fireEvent.change(screen.getByLabelText(fr.workflows.settings.oneRunAtATime), { target: { value: 'expression' } });
    fireEvent.change(screen.getByLabelText(fr.workflows.settings.keyExpression), { target: { value: '{{ $lowercase(trigger.from.email) }}' } });
    fireEvent.click(screen.getByRole('button', { name: fr.workflows.settings.save }));
    // The sentence holds a no-break space, which the DOM text matcher normalises: compare normalised text.
    const normalised = (text: string) => text.replace(/\s+/g, ' ');
    expect(await screen.findByText((_, element) => element?.tagName !== 'BODY' && element?.children.length === 0 && normalised(element.textContent ?? '') === normalised(fr.workflows.settings.keyExpressionProblems.not_inline))).toBeTruthy();
  });
});
