/**
 * English strings of undoing a run's mailbox changes (issue 24 §4): the run page's action, its dialog
 * (what will be undone, what is left and why, what was sent), the result, the summary the page keeps,
 * and the workflow's "Undo runs…" window. Reasons are sentences a person reads; the API's codes
 * (`moved_since`, `execution.not_undoable`…) never show.
 */
import { pluralEn as plural } from '../../../i18n/plural';

export const enUndo = {
  open: 'Undo mailbox changes',
  finish: 'Finish undoing',
  title: 'Undo this run’s mailbox changes',
  description: 'Moves, labels, flags and read marks go back to how they were before the run, and its drafts waiting for review are discarded. Nothing else changes.',
  checking: 'Checking what can be undone…',
  retry: 'Check again',
  willUndoTitle: (n: number) => `Will be undone (${n})`,
  skipTitle: (n: number) => `Left as they are (${n})`,
  sentTitle: (n: number) => `Cannot be undone (${n})`,
  others: (n: number) => `${plural(n, 'other effect', 'other effects')} of the run (table rows, web calls, notifications) ${n === 1 ? 'is not a mailbox change and stays' : 'are not mailbox changes and stay'} as ${n === 1 ? 'it is' : 'they are'}.`,
  nothing: {
    title: 'Nothing to undo',
    body: 'This run left no change in the mailbox that can be put back.',
  },
  alreadyUndone: (date: string) => `This run was already undone on ${date}.`,
  submit: (n: number) => `Undo ${plural(n, 'change', 'changes')}`,
  submitting: 'Undoing…',
  resultTitle: 'Undone',
  resultSummary: (restored: number, skipped: number, failed: number) =>
    [`${restored} restored`, `${skipped} skipped`, ...(failed > 0 ? [`${failed} failed`] : [])].join(', ') + '.',
  itemStatus: { undone: 'Undone', skipped: 'Skipped', failed: 'Failed' } as Record<string, string>,
  noSubject: '(no subject)',
  quoted: (subject: string) => `“${subject}”`,
  inbox: 'Inbox',
  /** What undoing one item does, in words. */
  actions: {
    moveBack: (folder: string) => `Move back to “${folder}”`,
    markRead: 'Mark read again',
    markUnread: 'Mark unread again',
    flag: 'Flag again',
    unflag: 'Remove the flag',
    labelsRemove: (labels: string[]) => `Remove the ${labels.length === 1 ? 'label' : 'labels'} ${labels.map((label) => `“${label}”`).join(', ')}`,
    labelsPutBack: (labels: string[]) => `Put back the ${labels.length === 1 ? 'label' : 'labels'} ${labels.map((label) => `“${label}”`).join(', ')}`,
    discardDraft: 'Discard the draft waiting for review',
    separator: '; ',
  },
  /** What the run did, for an item whose undo could not be named (its record is missing). */
  effects: {
    'mail.move': 'The run’s move',
    'mail.archive': 'The run’s archiving',
    'mail.trash': 'The run’s move to the trash',
    'mail.label': 'The run’s labels',
    'mail.flag': 'The run’s flag',
    'mail.unflag': 'The run’s unflagging',
    'mail.markRead': 'The run’s read mark',
    'mail.markUnread': 'The run’s unread mark',
    'mail.draft': 'The run’s draft',
    'mail.send': 'The run’s message',
  } as Record<string, string>,
  /** Why an item is left as it is. */
  reasons: {
    not_recorded: 'The run did not record how the message was before (an older run, or the change was already made).',
    message_gone: 'The message is no longer in the mailbox.',
    moved_since: 'The message was moved since the run.',
    read_changed: 'Its read mark was changed since the run.',
    flag_changed: 'Its flag was changed since the run.',
    labels_changed: 'Its labels were changed since the run.',
    folder_gone: 'The folder it came from no longer exists.',
    no_change: 'The run changed nothing there.',
    draft_gone: 'The draft is no longer waiting for review (already discarded or handled).',
    send_failed: 'Its send failed: nothing was sent.',
  } as Record<string, string>,
  /** Why the mailbox refused an item. */
  failures: {
    mailbox_disconnected: 'The mailbox is disconnected.',
    unknown_folder: 'The folder no longer exists in the mailbox.',
    other: (reason: string) => `The mailbox refused it (${reason}).`,
  },
  alreadySent: (subject: string, to: string) => `Already sent: “${subject}” to ${to}`,
  sending: (subject: string, to: string) => `Being sent: “${subject}” to ${to}`,
  /** Why the undo was refused, in words (409 `execution.not_undoable` and its reason, and the others). */
  refusals: {
    not_finished: 'This run is still in progress: wait until it finishes.',
    test_run: 'A test run changed nothing in the mailbox: there is nothing to undo.',
    called_run: 'This run was started by another run: undo the calling run instead.',
    too_many_effects: 'This run made too many changes (over 1,000) to be undone here.',
  } as Record<string, string>,
  inProgress: 'This run is being undone right now. Try again in a moment.',
  scopeMissing: (scope: string) => `Your access lacks the “${scope}” permission needed to undo this run.`,
  summary: {
    done: (date: string, counts: string) => `Undone on ${date}: ${counts}`,
    counts: (restored: number, skipped: number, failed: number) =>
      [`${restored} restored`, `${skipped} skipped`, ...(failed > 0 ? [`${failed} failed`] : [])].join(', '),
    sent: (n: number) => `${plural(n, 'message', 'messages')} already sent could not be undone.`,
    throughKey: 'Undone through an API key.',
    running: 'This run is being undone…',
    interrupted: 'An undo of this run stopped before the end. Finish it to put the remaining changes back.',
  },
  bulk: {
    open: 'Undo runs…',
    title: 'Undo this workflow’s runs',
    description: 'After a rule misbehaved: put back the mailbox changes of its runs in a time window. Each run is undone as its own page would, newest first.',
    from: 'From',
    to: 'To',
    windowHint: 'The last 24 hours by default; 30 days at most.',
    preview: 'Preview',
    previewing: 'Checking…',
    submit: 'Undo these runs',
    submitting: 'Undoing…',
    windowInvalid: 'The end must be after the start, and the window 30 days at most.',
    previewTitle: (n: number) => `${plural(n, 'run', 'runs')} to undo`,
    doneTitle: (n: number) => `${plural(n, 'run', 'runs')} handled`,
    none: 'No run of this window changed the mailbox, or they were all undone already.',
    more: 'More runs remain in this window: undo again to continue.',
    totals: (restored: number, skipped: number, failed: number, sent: number) =>
      [`${restored} restored`, `${skipped} skipped`, ...(failed > 0 ? [`${failed} failed`] : []), ...(sent > 0 ? [`${sent} already sent`] : [])].join(', '),
    previewTotals: (willUndo: number, skipped: number, sent: number) =>
      [`${willUndo} to undo`, `${skipped} to leave`, ...(sent > 0 ? [`${sent} already sent`] : [])].join(', '),
    outcomes: { undone: 'Undone', already_undone: 'Already undone', preview: 'To undo', refused: 'Refused' } as Record<string, string>,
    openRun: 'Open the run',
    runLabel: (n: number) => `Run ${n}`,
  },
};
