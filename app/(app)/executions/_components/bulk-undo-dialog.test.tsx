// @vitest-environment jsdom
/**
 * The workflow's "Undo runs…" (issue 24 §4), in jsdom over a tRPC client answering from a table of
 * handlers: the last 24 hours by default, a dry run first (how many runs, each run's changes), then
 * the undo with the same per-run results; a window the server would refuse is caught in words; more
 * runs left means undoing again.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeRouter, renderWithTrpc, trpcAppError } from '@/app/testing/render-with-trpc';
import type { BulkUndoAnswer } from '../_lib/api';
import { BulkUndoDialog } from './bulk-undo-dialog';

afterEach(cleanup);

const workflowId = '00000000-0000-4000-8000-0000000000f1';
const runA = '00000000-0000-4000-8000-0000000000a1';
const runB = '00000000-0000-4000-8000-0000000000a2';
const runC = '00000000-0000-4000-8000-0000000000a3';
const counts = (undone: number, skipped = 0, failed = 0, sent = 0) => ({ undone, skipped, failed, sent });

const dryRun: BulkUndoAnswer = {
  count: 3,
  hasMore: false,
  dryRun: true,
  runs: [
    { executionId: runA, createdAt: '2026-06-02T10:15:00.000Z', subject: 'Invoice 42', outcome: 'preview', counts: counts(3, 1), error: null },
    { executionId: runB, createdAt: '2026-06-02T09:00:00.000Z', subject: null, outcome: 'preview', counts: counts(2, 0, 0, 1), error: null },
    { executionId: runC, createdAt: '2026-06-02T08:00:00.000Z', subject: 'Receipt', outcome: 'refused', counts: null, error: { code: 'execution.undo_in_progress', reason: null } },
  ],
  totals: counts(5, 1, 0, 1),
};

const done: BulkUndoAnswer = {
  ...dryRun,
  dryRun: false,
  runs: [
    { ...dryRun.runs[0]!, outcome: 'undone', counts: counts(2, 1, 1) },
    { ...dryRun.runs[1]!, outcome: 'already_undone', counts: counts(2, 0, 0, 1) },
    dryRun.runs[2]!,
  ],
  totals: counts(4, 1, 1, 1),
};

function renderDialog(handlers: Record<string, (input: unknown) => unknown>, locale: 'en' | 'fr' = 'en') {
  return renderWithTrpc(<BulkUndoDialog workflowId={workflowId} open onOpenChange={() => {}} />, handlers, { locale, router: fakeRouter() });
}

const bulkCalls = (calls: { path: string; input: unknown }[]) => calls.filter((call) => call.path === 'executions.undo.workflow').map((call) => call.input as Record<string, unknown>);
const rows = () => screen.getAllByTestId('bulk-undo-run').map((row) => [row.getAttribute('data-outcome'), within(row).getByRole('link').textContent, row.textContent]);

describe('BulkUndoDialog', () => {
  it('previews the last 24 hours first, then undoes the same window with per-run results', async () => {
    let answer: BulkUndoAnswer = dryRun;
    const calls = renderDialog({ 'executions.undo.workflow': () => answer });
    const submit = screen.getByTestId('bulk-undo-submit') as HTMLButtonElement;
    // Nothing is undone before a look at what it would do.
    expect(submit.disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));

    expect((await screen.findByTestId('bulk-undo-title')).textContent).toBe('3 runs to undo');
    expect(screen.getByTestId('bulk-undo-totals').textContent).toBe('5 to undo, 1 to leave, 1 already sent');
    const [sent] = bulkCalls(calls);
    expect(sent).toMatchObject({ id: workflowId, limit: 100, dryRun: true });
    const window = Date.parse(sent!.to as string) - Date.parse(sent!.from as string);
    expect(window).toBeGreaterThanOrEqual(24 * 3_600_000);
    expect(window).toBeLessThanOrEqual(24 * 3_600_000 + 120_000);
    expect(Math.abs(Date.parse(sent!.from as string) - (Date.now() - 24 * 3_600_000))).toBeLessThan(120_000);
    expect(rows().map(([outcome, link]) => [outcome, link])).toEqual([
      ['preview', '“Invoice 42”'],
      ['preview', expect.stringMatching(/^2 Jun 2026, \d\d:\d\d$/)],
      ['refused', '“Receipt”'],
    ]);
    expect(rows()[0]![2]).toMatch(/To undo“Invoice 42”2 Jun 2026, \d\d:\d\d · 3 to undo, 1 to leave$/);
    expect(rows()[2]![2]).toMatch(/This run is being undone right now\. Try again in a moment\.$/);
    expect(within(screen.getAllByTestId('bulk-undo-run')[0]!).getByRole('link').getAttribute('href')).toBe(`/executions/${runA}`);

    answer = done;
    expect(submit.disabled).toBe(false);
    fireEvent.click(submit);
    await waitFor(() => expect(screen.getByTestId('bulk-undo-title').textContent).toBe('3 runs handled'));
    expect(screen.getByTestId('bulk-undo-totals').textContent).toBe('4 restored, 1 skipped, 1 failed, 1 already sent');
    expect(rows().map(([outcome]) => outcome)).toEqual(['undone', 'already_undone', 'refused']);
    expect(rows()[0]![2]).toMatch(/2 restored, 1 skipped, 1 failed$/);
    const [, real] = bulkCalls(calls);
    expect(real).toEqual({ ...sent, dryRun: false });
    // Done, nothing more in the window: the undo is not offered again.
    expect(submit.disabled).toBe(true);
  });

  it('more runs than one call takes: says so, and undoing again continues', async () => {
    let answer: BulkUndoAnswer = { ...dryRun, hasMore: true };
    const calls = renderDialog({ 'executions.undo.workflow': () => answer });
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    await screen.findByTestId('bulk-undo-more');
    answer = { ...done, hasMore: true };
    fireEvent.click(screen.getByTestId('bulk-undo-submit'));
    await waitFor(() => expect(screen.getByTestId('bulk-undo-title').textContent).toBe('3 runs handled'));
    expect(screen.getByTestId('bulk-undo-more').textContent).toBe('More runs remain in this window: undo again to continue.');
    expect((screen.getByTestId('bulk-undo-submit') as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(screen.getByTestId('bulk-undo-submit'));
    await waitFor(() => expect(bulkCalls(calls).map((call) => call.dryRun)).toEqual([true, false, false]));
  });

  it('a window the server would refuse is caught in words, without a call; an empty window says so', async () => {
    const calls = renderDialog({ 'executions.undo.workflow': () => ({ count: 0, hasMore: false, dryRun: true, runs: [], totals: counts(0) }) });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-01-01T00:00' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-01T00:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect(screen.getByText('The end must be after the start, and the window 30 days at most.')).toBeTruthy();
    expect(bulkCalls(calls)).toEqual([]);

    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-01-02T00:00' } });
    expect(screen.queryByText('The end must be after the start, and the window 30 days at most.')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect((await screen.findByTestId('bulk-undo-title')).textContent).toBe('0 runs to undo');
    expect(screen.getByText('No run of this window changed the mailbox, or they were all undone already.')).toBeTruthy();
    expect(bulkCalls(calls)).toEqual([{ id: workflowId, from: new Date('2026-01-01T00:00').toISOString(), to: new Date('2026-01-02T00:00').toISOString(), limit: 100, dryRun: true }]);
    expect((screen.getByTestId('bulk-undo-submit') as HTMLButtonElement).disabled).toBe(true);
  });

  it('a refused call reads as a sentence; in French', async () => {
    renderDialog(
      {
        'executions.undo.workflow': () => {
          throw trpcAppError('api_key.scope_missing', { required: 'messages:write' });
        },
      },
      'fr',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Prévisualiser' }));
    expect((await screen.findByTestId('bulk-undo-error')).textContent).toBe('Votre accès n’a pas la permission «\u00a0messages:write\u00a0» nécessaire pour annuler cette exécution.');
  });
});
