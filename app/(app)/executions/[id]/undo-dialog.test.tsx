// @vitest-environment jsdom
/**
 * The run page's "Undo mailbox changes" dialog (issue 24 §4), in jsdom over a tRPC client answering
 * from a table of handlers: it checks first (the preview), lists what will be undone by message
 * subject, what is left and why, and what was sent; confirming undoes and shows each item's result in
 * place. The empty state, the refusals in words, and the run page's summary after a reload.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeRouter, renderWithTrpc, trpcAppError } from '@/app/testing/render-with-trpc';
import type { UndoPreview, UndoResult, UndoSummary } from '../_lib/api';
import { UndoDialog } from './undo-dialog';
import { UndoSummaryNotice } from './undo-summary';

afterEach(cleanup);

const runId = '00000000-0000-4000-8000-0000000000a1';
const base = { executionId: runId, nodeId: 'move', description: 'Move the message to Archive', outboundId: null };

const moveBack = {
  ...base,
  effectKey: 'k-move',
  effect: 'mail.move',
  messageId: 'm-1',
  subject: 'Invoice 42',
  action: { kind: 'message' as const, messageId: 'm-1', action: 'move' as const, folder: 'INBOX' },
};
const labelBack = {
  ...base,
  effectKey: 'k-label',
  nodeId: 'label',
  effect: 'mail.label',
  description: 'Label the message (+1 −0)',
  messageId: 'm-1',
  subject: 'Invoice 42',
  action: { kind: 'message' as const, messageId: 'm-1', labels: { add: [], remove: ['Processed'] } },
};
const movedSince = {
  ...base,
  effectKey: 'k-other',
  effect: 'mail.move',
  messageId: 'm-2',
  subject: 'Receipt 7',
  action: { kind: 'message' as const, messageId: 'm-2', action: 'move' as const, folder: 'INBOX' },
};
const draft = {
  ...base,
  effectKey: 'k-draft',
  nodeId: 'draft',
  effect: 'mail.draft',
  description: 'Draft “Thanks” to 1 recipient(s)',
  messageId: null,
  outboundId: 'o-1',
  subject: 'Thanks',
  action: { kind: 'discard_draft' as const, outboundId: 'o-1' },
};
const sent = { effectKey: 'k-send', executionId: runId, nodeId: 'send', effect: 'mail.send', outboundId: 'o-2', to: ['boss@example.test'], subject: 'Report', sendStatus: 'done' };

const preview: UndoPreview = {
  executionId: runId,
  items: [
    { ...draft, status: 'will_undo', reason: null },
    { ...moveBack, status: 'will_undo', reason: null },
    { ...labelBack, status: 'will_undo', reason: null },
    { ...movedSince, status: 'skip', reason: 'moved_since' },
  ],
  sent: [sent],
  others: 2,
  counts: { willUndo: 3, skip: 1, sent: 1 },
  undoneAt: null,
};

const result: UndoResult = {
  executionId: runId,
  items: [
    { ...draft, status: 'undone', reason: null },
    { ...moveBack, status: 'undone', reason: null },
    { ...labelBack, status: 'failed', reason: 'mailbox_disconnected' },
    { ...movedSince, status: 'skipped', reason: 'moved_since' },
  ],
  sent: [sent],
  counts: { undone: 2, skipped: 1, failed: 1, sent: 1 },
  undoneAt: '2026-06-02T10:15:00.000Z',
  replayed: false,
};

function renderDialog(handlers: Record<string, (input: unknown) => unknown>, locale: 'en' | 'fr' = 'en') {
  return renderWithTrpc(<UndoDialog executionId={runId} open onOpenChange={() => {}} />, handlers, { locale, router: fakeRouter() });
}

const texts = (testId: string) => screen.queryAllByTestId(testId).map((node) => node.textContent);

describe('UndoDialog', () => {
  it('checks first, then lists what will be undone by subject, what is left and why, and what was sent', async () => {
    let answer: (value: UndoPreview) => void = () => {};
    const calls = renderDialog({ 'executions.undo.preview': () => new Promise<UndoPreview>((resolve) => (answer = resolve)) });
    expect((await screen.findByTestId('undo-checking')).textContent).toBe('Checking what can be undone…');
    answer(preview);

    const willUndo = await screen.findByRole('region', { name: 'Will be undone (3)' });
    expect(within(willUndo).getAllByTestId('undo-item').map((node) => node.textContent)).toEqual([
      'Discard the draft waiting for review“Thanks”',
      'Move back to “Inbox”“Invoice 42”',
      'Remove the label “Processed”“Invoice 42”',
    ]);
    const left = screen.getByRole('region', { name: 'Left as they are (1)' });
    expect(within(left).getByTestId('undo-item-reason').textContent).toBe('The message was moved since the run.');
    expect(within(left).getByTestId('undo-item').textContent).toContain('“Receipt 7”');
    expect(texts('undo-sent-item')).toEqual(['Already sent: “Report” to boss@example.test']);
    expect(screen.getByTestId('undo-others').textContent).toBe('2 other effects of the run (table rows, web calls, notifications) are not mailbox changes and stay as they are.');
    // The preview changed nothing: only it was asked.
    expect(calls.map((call) => [call.path, call.input])).toEqual([['executions.undo.preview', { id: runId }]]);
  });

  it('confirming undoes the run and shows each item’s result in place', async () => {
    const calls = renderDialog({ 'executions.undo.preview': () => preview, 'executions.undo.run': () => result });
    fireEvent.click(await screen.findByRole('button', { name: 'Undo 3 changes' }));
    const summary = await screen.findByTestId('undo-result-summary');
    expect(summary.textContent).toBe('Undone2 restored, 1 skipped, 1 failed.');
    expect(screen.getAllByTestId('undo-result').map((node) => [node.getAttribute('data-status'), node.textContent])).toEqual([
      ['undone', 'UndoneDiscard the draft waiting for review“Thanks”'],
      ['undone', 'UndoneMove back to “Inbox”“Invoice 42”'],
      ['failed', 'FailedRemove the label “Processed”“Invoice 42”The mailbox is disconnected.'],
      ['skipped', 'SkippedMove back to “Inbox”“Receipt 7”The message was moved since the run.'],
    ]);
    expect(texts('undo-sent-item')).toEqual(['Already sent: “Report” to boss@example.test']);
    // The heading took the focus from the button that is gone; the only way on is Close.
    expect(document.activeElement?.textContent).toBe('Undone');
    expect(screen.queryByRole('button', { name: /Undo \d/ })).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Close' }).length).toBeGreaterThan(0);
    expect(calls.filter((call) => call.path === 'executions.undo.run').map((call) => call.input)).toEqual([{ id: runId }]);
  });

  it('in French', async () => {
    renderDialog({ 'executions.undo.preview': () => preview, 'executions.undo.run': () => result }, 'fr');
    const willUndo = await screen.findByRole('region', { name: 'Sera annulé (3)' });
    expect(within(willUndo).getAllByTestId('undo-item')[1]!.textContent).toBe('Remettre dans «\u00a0Boîte de réception\u00a0»«\u00a0Invoice 42\u00a0»');
    expect(texts('undo-sent-item')).toEqual(['Déjà envoyé\u00a0: «\u00a0Report\u00a0» à boss@example.test']);
    fireEvent.click(screen.getByRole('button', { name: 'Annuler 3 changements' }));
    expect((await screen.findByTestId('undo-result-summary')).textContent).toBe('Annulé2 remis en place, 1 laissé tel quel, 1 en échec.');
  });

  it('a run with nothing to undo: the empty state, what is left and why, no undo button', async () => {
    renderDialog({
      'executions.undo.preview': () => ({
        ...preview,
        items: [{ ...movedSince, status: 'skip', reason: 'moved_since' }],
        sent: [],
        others: 0,
        counts: { willUndo: 0, skip: 1, sent: 0 },
      }),
    });
    const empty = await screen.findByTestId('undo-nothing');
    expect(empty.textContent).toBe('Nothing to undoThis run left no change in the mailbox that can be put back.');
    expect(texts('undo-item-reason')).toEqual(['The message was moved since the run.']);
    expect(screen.queryByTestId('undo-confirm')).toBeNull();
    expect(screen.queryByTestId('undo-others')).toBeNull();
  });

  it('a refusal of the preview reads as a sentence, and Check again asks again', async () => {
    let refuse = true;
    const calls = renderDialog({
      'executions.undo.preview': () => {
        if (refuse) throw trpcAppError('execution.not_undoable', { reason: 'called_run', parentExecutionId: '00000000-0000-4000-8000-0000000000a0' });
        return preview;
      },
    });
    expect((await screen.findByTestId('undo-preview-error')).textContent).toContain('This run was started by another run: undo the calling run instead.');
    refuse = false;
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }));
    await screen.findByRole('region', { name: 'Will be undone (3)' });
    expect(calls.filter((call) => call.path === 'executions.undo.preview')).toHaveLength(2);
  });

  it('an undo refused (another undo in progress, a key missing a scope) stays on the preview with the sentence', async () => {
    for (const [error, sentence] of [
      [trpcAppError('execution.undo_in_progress', { retryAfterSeconds: 120 }), 'This run is being undone right now. Try again in a moment.'],
      [trpcAppError('api_key.scope_missing', { required: 'messages:write' }), 'Your access lacks the “messages:write” permission needed to undo this run.'],
      [trpcAppError('execution.not_undoable', { reason: 'too_many_effects', limit: 1000 }), 'This run made too many changes (over 1,000) to be undone here.'],
    ] as const) {
      renderDialog({
        'executions.undo.preview': () => preview,
        'executions.undo.run': () => {
          throw error;
        },
      });
      fireEvent.click(await screen.findByRole('button', { name: 'Undo 3 changes' }));
      expect((await screen.findByTestId('undo-error')).textContent).toBe(sentence);
      expect(screen.getByRole('button', { name: 'Undo 3 changes' })).toBeTruthy();
      cleanup();
    }
  });

  it('a run undone meanwhile (another tab): says when, offers nothing more', async () => {
    renderDialog({ 'executions.undo.preview': () => ({ ...preview, undoneAt: '2026-06-02T10:15:00.000Z' }) });
    expect((await screen.findByTestId('undo-already')).textContent).toMatch(/^This run was already undone on 2 Jun 2026, \d\d:\d\d\.$/);
    expect(screen.queryByTestId('undo-confirm')).toBeNull();
  });

  it('holds the undo button while undoing', async () => {
    renderDialog({ 'executions.undo.preview': () => preview, 'executions.undo.run': () => new Promise(() => {}) });
    fireEvent.click(await screen.findByRole('button', { name: 'Undo 3 changes' }));
    await waitFor(() => expect(screen.getByTestId('undo-confirm').textContent).toBe('Undoing…'));
    expect((screen.getByTestId('undo-confirm') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('UndoSummaryNotice (the run page, from the run’s detail)', () => {
  const done: UndoSummary = {
    status: 'done',
    undoneAt: '2026-06-02T10:15:00.000Z',
    by: { memberId: '00000000-0000-4000-8000-0000000000b1', apiKeyId: null },
    counts: { undone: 3, skipped: 1, failed: 0, sent: 0 },
  };

  it('says when it was undone and what it restored', () => {
    renderWithTrpc(<UndoSummaryNotice undo={done} />, {}, { router: fakeRouter() });
    expect(screen.getByTestId('execution-undo-summary').textContent).toMatch(/^Undone on 2 Jun 2026, \d\d:\d\d: 3 restored, 1 skipped$/);
  });

  it('names the sends it could not undo and an undo made through an API key; in French too', () => {
    renderWithTrpc(<UndoSummaryNotice undo={{ ...done, by: { ...done.by, apiKeyId: '00000000-0000-4000-8000-0000000000c1' }, counts: { undone: 1, skipped: 0, failed: 2, sent: 1 } }} />, {}, { locale: 'fr', router: fakeRouter() });
    expect(screen.getByTestId('execution-undo-summary').textContent).toMatch(
      /^Annulée le 2 juin 2026( à |, )\d\d:\d\d\u00a0: 1 remis en place, 0 laissé tel quel, 2 en échec1 message déjà envoyé n’a pas pu être annulé\.Annulée au moyen d’une clé d’API\.$/,
    );
  });

  it('an undo running now, and one that stopped before the end', () => {
    renderWithTrpc(<UndoSummaryNotice undo={{ ...done, status: 'running', undoneAt: null }} />, {}, { router: fakeRouter() });
    expect(screen.getByTestId('execution-undo-summary').textContent).toBe('This run is being undone…');
    cleanup();
    renderWithTrpc(<UndoSummaryNotice undo={{ ...done, status: 'interrupted', undoneAt: null }} />, {}, { router: fakeRouter() });
    expect(screen.getByTestId('execution-undo-summary').textContent).toBe('An undo of this run stopped before the end. Finish it to put the remaining changes back.');
  });
});
