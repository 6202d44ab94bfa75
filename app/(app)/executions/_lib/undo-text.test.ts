/**
 * Undoing a run's mailbox changes in words (issue 24 §4): what undoing an item does, why one is left
 * or failed, and which runs the run page offers it on.
 */
import { describe, expect, it } from 'vitest';
import { dictionaries } from '@/app/i18n';
import { failureText, runRefusalText, skipReasonText, undoActionText, undoAvailability } from './undo-text';

const en = dictionaries.en;
const fr = dictionaries.fr;
const item = (effect: string, action: Parameters<typeof undoActionText>[0]['action'], description = 'Label the message (+1 −0)') => ({ effect, description, action });
const message = (rest: object) => ({ kind: 'message' as const, messageId: 'm', ...rest });

describe('undoActionText', () => {
  it.each([
    [item('mail.move', message({ action: 'move', folder: 'INBOX' })), 'Move back to “Inbox”', 'Remettre dans «\u00a0Boîte de réception\u00a0»'],
    [item('mail.archive', message({ action: 'move', folder: 'Projects/2026' })), 'Move back to “Projects/2026”', 'Remettre dans «\u00a0Projects/2026\u00a0»'],
    [item('mail.markRead', message({ action: 'markUnread' })), 'Mark unread again', 'Marquer de nouveau comme non lu'],
    [item('mail.markUnread', message({ action: 'markRead' })), 'Mark read again', 'Marquer de nouveau comme lu'],
    [item('mail.flag', message({ action: 'unflag' })), 'Remove the flag', 'Retirer le drapeau'],
    [item('mail.unflag', message({ action: 'flag' })), 'Flag again', 'Remettre le drapeau'],
    [item('mail.label', message({ labels: { add: [], remove: ['Processed'] } })), 'Remove the label “Processed”', 'Retirer l’étiquette «\u00a0Processed\u00a0»'],
    [
      item('mail.label', message({ labels: { add: ['Todo'], remove: ['Done', 'Billing'] } })),
      'Remove the labels “Done”, “Billing”; Put back the label “Todo”',
      'Retirer les étiquettes «\u00a0Done\u00a0», «\u00a0Billing\u00a0»\u00a0; Remettre l’étiquette «\u00a0Todo\u00a0»',
    ],
    [item('mail.draft', { kind: 'discard_draft', outboundId: 'o' }), 'Discard the draft waiting for review', 'Écarter le brouillon en attente de relecture'],
    // No undo could be named (the record is missing): what the run did.
    [item('mail.move', null), 'The run’s move', 'Le déplacement fait par l’exécution'],
    [item('custom.kind', null, 'Something the run did'), 'Something the run did', 'Something the run did'],
  ])('%#: %j', (described, english, french) => {
    expect(undoActionText(described, en)).toBe(english);
    expect(undoActionText(described, fr)).toBe(french);
  });
});

describe('reasons in words', () => {
  it('names every skip reason of the plan, and keeps an unknown one as it is', () => {
    for (const reason of ['not_recorded', 'message_gone', 'moved_since', 'read_changed', 'flag_changed', 'labels_changed', 'folder_gone', 'no_change', 'draft_gone', 'send_failed']) {
      expect(skipReasonText(reason, en)).not.toBe(reason);
      expect(skipReasonText(reason, fr)).not.toBe(skipReasonText(reason, en));
    }
    expect(skipReasonText('brand_new', en)).toBe('brand_new');
    expect(skipReasonText(null, en)).toBeNull();
  });

  it('a failure: the mailbox’s refusal, a known error code, or the reason as given', () => {
    expect(failureText('mailbox_disconnected', en)).toBe('The mailbox is disconnected.');
    expect(failureText('unknown_folder', fr)).toBe('Le dossier n’existe plus dans la boîte.');
    expect(failureText('execution.not_found', en)).toBe('This execution no longer exists.');
    expect(failureText('imap_busy', en)).toBe('The mailbox refused it (imap_busy).');
  });
});

describe('runRefusalText (a run the bulk undo refused)', () => {
  it('the refusal’s reason, another undo in progress, or the code’s sentence', () => {
    expect(runRefusalText({ code: 'execution.not_undoable', reason: 'not_finished' }, en)).toBe('This run is still in progress: wait until it finishes.');
    expect(runRefusalText({ code: 'execution.undo_in_progress', reason: null }, fr)).toBe('Cette exécution est en cours d’annulation. Réessayez dans un instant.');
    expect(runRefusalText({ code: 'execution.not_found', reason: null }, en)).toBe('This execution no longer exists.');
    expect(runRefusalText({ code: 'brand.new_code', reason: null }, en)).toBe('brand.new_code');
  });
});

describe('undoAvailability', () => {
  const live = { simulated: false, status: 'succeeded', parentExecutionId: null, acted: true, undo: null };
  it.each([
    ['a finished live run that acted', live, 'offer'],
    ['a failed run that acted (its changes up to the failure)', { ...live, status: 'failed' }, 'offer'],
    ['a test run', { ...live, simulated: true }, 'none'],
    ['a run in progress', { ...live, status: 'running', acted: null }, 'none'],
    ['a waiting run', { ...live, status: 'waiting', acted: null }, 'none'],
    ['a run another run started', { ...live, parentExecutionId: 'p' }, 'none'],
    ['a run that did nothing', { ...live, acted: false }, 'none'],
    ['a run undone', { ...live, undo: { status: 'done' as const } }, 'done'],
    ['a run being undone', { ...live, undo: { status: 'running' as const } }, 'running'],
    ['a run whose undo stopped before the end', { ...live, undo: { status: 'interrupted' as const } }, 'finish'],
  ])('%s: %s', (_name, execution, expected) => {
    expect(undoAvailability(execution)).toBe(expected);
  });
});
