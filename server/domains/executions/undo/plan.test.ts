import { describe, expect, it } from 'vitest';
import { namedByRecords, planUndo, type UndoEffectRecord, type UndoMessageState, type UndoOutboundState, type UndoWorld } from './plan';

const mailbox = 'mb-1';
const state = (folderKey: string, more: Partial<UndoMessageState> = {}): UndoMessageState => ({ mailboxId: mailbox, folderKey, seen: false, flagged: false, labels: [], ...more });

let counter = 0;
/** A mail action's record: the message before and after, as the webmail's single-message action writes it. */
function mailRecord(kind: string, messageId: string, before: UndoMessageState, after: UndoMessageState, key = `e${++counter}`): UndoEffectRecord {
  const strip = ({ folderKey, seen, flagged, labels }: UndoMessageState) => ({ folderKey, seen, flagged, labels });
  return {
    effectKey: `run:${key}:op`,
    executionId: 'run',
    nodeId: key,
    kind,
    description: kind,
    result: { operationId: `op-${key}`, duplicate: false, undo: { v: 1, messageId, mailboxId: mailbox, messageIdHeader: `<${messageId}@x.test>`, before: strip(before), after: strip(after) } },
  };
}

function outboundRecord(kind: 'mail.draft' | 'mail.send', itemId: string, key = `o${++counter}`): UndoEffectRecord {
  return { effectKey: `run:${key}:outbound`, executionId: 'run', nodeId: key, kind, description: kind, result: { itemId, reviewStatus: 'pending', sendStatus: 'pending', to: ['a@x.test'], subject: 'Re: hi', duplicate: false } };
}

const folders = new Map([[mailbox, new Set(['INBOX', 'Archive', 'Receipts', 'Trash'])]]);
const world = (messages: [string, UndoMessageState][], outbound: UndoOutboundState[] = [], done?: string[]): UndoWorld => ({
  messages: new Map(messages),
  folders,
  outbound: new Map(outbound.map((item) => [item.id, item])),
  ...(done ? { done: new Set(done) } : {}),
});

describe('planUndo: one mail action, undone only if the message is still as the run left it', () => {
  const cases: { name: string; record: UndoEffectRecord; now: UndoMessageState | null; expected: Record<string, unknown> }[] = [
    {
      name: 'a move, message where the run left it: moved back',
      record: mailRecord('mail.move', 'm1', state('INBOX'), state('Archive')),
      now: state('Archive'),
      expected: { status: 'will_undo', reason: null, action: { kind: 'message', messageId: 'm1', action: 'move', folder: 'INBOX' } },
    },
    {
      name: 'a move, message moved again by hand: skipped',
      record: mailRecord('mail.move', 'm1', state('INBOX'), state('Archive')),
      now: state('Receipts'),
      expected: { status: 'skip', reason: 'moved_since' },
    },
    {
      name: 'a move, its folder of origin deleted since: skipped',
      record: mailRecord('mail.move', 'm1', state('Old'), state('Archive')),
      now: state('Archive'),
      expected: { status: 'skip', reason: 'folder_gone' },
    },
    {
      name: 'a move, message no longer mirrored: skipped',
      record: mailRecord('mail.move', 'm1', state('INBOX'), state('Archive')),
      now: null,
      expected: { status: 'skip', reason: 'message_gone' },
    },
    {
      name: 'labels added and removed: the added ones removed, the removed ones put back',
      record: mailRecord('mail.label', 'm1', state('INBOX', { labels: ['old', 'keep'] }), state('INBOX', { labels: ['keep', 'new'] })),
      now: state('INBOX', { labels: ['keep', 'new', 'mine'] }),
      expected: { status: 'will_undo', action: { kind: 'message', messageId: 'm1', labels: { add: ['old'], remove: ['new'] } } },
    },
    {
      name: 'a label the run added, removed by hand since: skipped',
      record: mailRecord('mail.label', 'm1', state('INBOX'), state('INBOX', { labels: ['new'] })),
      now: state('INBOX'),
      expected: { status: 'skip', reason: 'labels_changed' },
    },
    {
      name: 'a label the run removed, added back by hand since: skipped',
      record: mailRecord('mail.label', 'm1', state('INBOX', { labels: ['old'] }), state('INBOX')),
      now: state('INBOX', { labels: ['old'] }),
      expected: { status: 'skip', reason: 'labels_changed' },
    },
    {
      name: 'a label already there: nothing to undo (removing it would take what the run did not add)',
      record: mailRecord('mail.label', 'm1', state('INBOX', { labels: ['new'] }), state('INBOX', { labels: ['new'] })),
      now: state('INBOX', { labels: ['new'] }),
      expected: { status: 'skip', reason: 'no_change', action: null },
    },
    {
      name: 'marked read: marked unread again',
      record: mailRecord('mail.markRead', 'm1', state('INBOX'), state('INBOX', { seen: true })),
      now: state('INBOX', { seen: true }),
      expected: { status: 'will_undo', action: { kind: 'message', messageId: 'm1', action: 'markUnread' } },
    },
    {
      name: 'marked read, then marked unread by hand: skipped',
      record: mailRecord('mail.markRead', 'm1', state('INBOX'), state('INBOX', { seen: true })),
      now: state('INBOX'),
      expected: { status: 'skip', reason: 'read_changed' },
    },
    {
      name: 'marked unread: marked read again',
      record: mailRecord('mail.markUnread', 'm1', state('INBOX', { seen: true }), state('INBOX')),
      now: state('INBOX'),
      expected: { status: 'will_undo', action: { kind: 'message', messageId: 'm1', action: 'markRead' } },
    },
    {
      name: 'flagged: unflagged',
      record: mailRecord('mail.flag', 'm1', state('INBOX'), state('INBOX', { flagged: true })),
      now: state('INBOX', { flagged: true, seen: true }),
      expected: { status: 'will_undo', action: { kind: 'message', messageId: 'm1', action: 'unflag' } },
    },
    {
      name: 'unflagged: flagged again',
      record: mailRecord('mail.unflag', 'm1', state('INBOX', { flagged: true }), state('INBOX')),
      now: state('INBOX'),
      expected: { status: 'will_undo', action: { kind: 'message', messageId: 'm1', action: 'flag' } },
    },
    {
      name: 'flagged, then unflagged by hand: skipped',
      record: mailRecord('mail.flag', 'm1', state('INBOX'), state('INBOX', { flagged: true })),
      now: state('INBOX'),
      expected: { status: 'skip', reason: 'flag_changed' },
    },
    {
      name: 'flagging a flagged message: nothing to undo',
      record: mailRecord('mail.flag', 'm1', state('INBOX', { flagged: true }), state('INBOX', { flagged: true })),
      now: state('INBOX', { flagged: true }),
      expected: { status: 'skip', reason: 'no_change' },
    },
    {
      name: 'a flag change, message moved by hand since: skipped (it is not where the run left it)',
      record: mailRecord('mail.flag', 'm1', state('INBOX'), state('INBOX', { flagged: true })),
      now: state('Archive', { flagged: true }),
      expected: { status: 'skip', reason: 'moved_since' },
    },
    {
      name: 'an archive: moved back to the inbox',
      record: mailRecord('mail.archive', 'm1', state('INBOX'), state('Archive')),
      now: state('Archive'),
      expected: { status: 'will_undo', action: { kind: 'message', messageId: 'm1', action: 'move', folder: 'INBOX' } },
    },
    {
      name: 'a record written before undo records existed: skipped',
      record: { effectKey: 'run:n:op', executionId: 'run', nodeId: 'n', kind: 'mail.move', description: 'Move', result: { operationId: 'op', duplicate: false } },
      now: state('Archive'),
      expected: { status: 'skip', reason: 'not_recorded', messageId: null, action: null },
    },
    {
      name: 'a repeat that found the operation made (no before): skipped',
      record: { effectKey: 'run:n:op', executionId: 'run', nodeId: 'n', kind: 'mail.move', description: 'Move', result: { operationId: 'op', duplicate: true } },
      now: state('Archive'),
      expected: { status: 'skip', reason: 'not_recorded' },
    },
    {
      name: 'a malformed record (a label that is not text): skipped, never thrown',
      record: { effectKey: 'run:n:op', executionId: 'run', nodeId: 'n', kind: 'mail.label', description: 'Label', result: { undo: { v: 1, messageId: 'm1', mailboxId: mailbox, before: { folderKey: 'INBOX', seen: false, flagged: false, labels: [1] }, after: { folderKey: 'INBOX', seen: false, flagged: false, labels: [] } } } },
      now: state('INBOX'),
      expected: { status: 'skip', reason: 'not_recorded' },
    },
  ];
  it.each(cases)('$name', ({ record, now, expected }) => {
    const plan = planUndo([record], world(now ? [['m1', now]] : []));
    expect(plan.items).toHaveLength(1);
    expect(plan.items[0]).toMatchObject({ effectKey: record.effectKey, effect: record.kind, ...expected });
    expect(plan.sent).toEqual([]);
  });
});

describe('planUndo: a run’s records, newest first', () => {
  it('a label then a move of one message: the move is undone first, then the label, from where the move put it back', () => {
    const label = mailRecord('mail.label', 'm1', state('INBOX'), state('INBOX', { labels: ['invoice'] }));
    const move = mailRecord('mail.move', 'm1', state('INBOX', { labels: ['invoice'] }), state('Receipts', { labels: ['invoice'] }));
    const plan = planUndo([label, move], world([['m1', state('Receipts', { labels: ['invoice'] })]]));
    expect(plan.items.map((item) => [item.effectKey, item.status, item.action])).toEqual([
      [move.effectKey, 'will_undo', { kind: 'message', messageId: 'm1', action: 'move', folder: 'INBOX' }],
      [label.effectKey, 'will_undo', { kind: 'message', messageId: 'm1', labels: { add: [], remove: ['invoice'] } }],
    ]);
  });

  it('a message moved again by hand: its move and the run’s earlier label of it are both skipped; the others are undone', () => {
    const records = ['m1', 'm2', 'm3'].flatMap((id) => [
      mailRecord('mail.label', id, state('INBOX'), state('INBOX', { labels: ['done'] })),
      mailRecord('mail.move', id, state('INBOX', { labels: ['done'] }), state('Archive', { labels: ['done'] })),
    ]);
    const now: [string, UndoMessageState][] = [
      ['m1', state('Archive', { labels: ['done'] })],
      ['m2', state('Receipts', { labels: ['done'] })],
      ['m3', state('Archive', { labels: ['done'] })],
    ];
    const plan = planUndo(records, world(now));
    const byMessage = (id: string) => plan.items.filter((item) => item.messageId === id).map((item) => [item.effect, item.status, item.reason]);
    expect(byMessage('m1')).toEqual([['mail.move', 'will_undo', null], ['mail.label', 'will_undo', null]]);
    expect(byMessage('m2')).toEqual([['mail.move', 'skip', 'moved_since'], ['mail.label', 'skip', 'moved_since']]);
    expect(byMessage('m3')).toEqual([['mail.move', 'will_undo', null], ['mail.label', 'will_undo', null]]);
    expect(plan.items.map((item) => item.effectKey)).toEqual([...records].reverse().map((record) => record.effectKey));
  });

  it('a message moved by another mail client (a new identity, found again by its Message-ID): moved since, not gone', () => {
    const move = mailRecord('mail.move', 'm1', state('INBOX'), state('Archive'));
    const plan = planUndo([move], { ...world([]), relocated: new Map([['m1', 'Receipts']]) });
    expect(plan.items).toMatchObject([{ messageId: 'm1', status: 'skip', reason: 'moved_since' }]);
  });

  it('records an interrupted undo already made count as made, without comparing, and the rest compares from there', () => {
    const label = mailRecord('mail.label', 'm1', state('INBOX'), state('INBOX', { labels: ['x'] }));
    const move = mailRecord('mail.move', 'm1', state('INBOX', { labels: ['x'] }), state('Archive', { labels: ['x'] }));
    // The move was undone before the interruption: the message is back in the inbox.
    const plan = planUndo([label, move], world([['m1', state('INBOX', { labels: ['x'] })]], [], [move.effectKey]));
    expect(plan.items.map((item) => [item.effect, item.status])).toEqual([
      ['mail.move', 'will_undo'],
      ['mail.label', 'will_undo'],
    ]);
  });

  it('effects that are not mailbox changes are counted, never undone', () => {
    const records: UndoEffectRecord[] = [
      { effectKey: 'run:t:write', executionId: 'run', nodeId: 't', kind: 'tables.insert', description: 'Insert', result: {} },
      { effectKey: 'run:h:request', executionId: 'run', nodeId: 'h', kind: 'http.request', description: 'POST', result: {} },
      // The engine's own records (the runs a loop started) are not effects at all.
      { effectKey: 'run:loop:child:0', executionId: 'run', nodeId: 'loop', kind: 'loop_iteration', description: '', result: { executionId: 'child', index: 0 } },
    ];
    expect(planUndo(records, world([]))).toEqual({ items: [], sent: [], others: 2 });
  });
});

describe('planUndo: drafts and sends', () => {
  const outbound = (id: string, reviewStatus: string, sendStatus: string): UndoOutboundState => ({ id, reviewStatus, sendStatus, to: ['a@x.test'], subject: 'Re: hi' });
  it.each([
    ['a draft waiting for review: discarded', 'mail.draft', 'pending', 'pending', { status: 'will_undo', action: { kind: 'discard_draft', outboundId: 'o1' } }],
    ['a snoozed draft: discarded', 'mail.draft', 'snoozed', 'pending', { status: 'will_undo' }],
    ['a send waiting for review: discarded (never sent)', 'mail.send', 'pending', 'pending', { status: 'will_undo' }],
    ['a draft rejected since: skipped', 'mail.draft', 'rejected', 'cancelled', { status: 'skip', reason: 'draft_gone' }],
    ['a draft removed from Drafts by hand: skipped', 'mail.draft', 'gone', 'pending', { status: 'skip', reason: 'draft_gone' }],
    ['a send that failed for good: skipped', 'mail.send', 'none', 'failed', { status: 'skip', reason: 'send_failed' }],
  ] as const)('%s', (_name, kind, reviewStatus, sendStatus, expected) => {
    const record = outboundRecord(kind, 'o1');
    const plan = planUndo([record], world([], [outbound('o1', reviewStatus, sendStatus)]));
    expect(plan.sent).toEqual([]);
    expect(plan.items).toEqual([expect.objectContaining({ effectKey: record.effectKey, outboundId: 'o1', messageId: null, ...expected })]);
  });

  it.each([
    ['sent', 'none', 'done'],
    ['approved and sent', 'sent', 'done'],
    ['sending', 'none', 'running'],
    ['of unknown outcome', 'none', 'unknown'],
    ['approved, waiting to leave', 'sent', 'pending'],
    ['leaving without review (its undo window is the webmail’s)', 'none', 'pending'],
    ['held by the send guard, without review', 'none', 'held'],
  ])('a send %s: listed as sent, not undone', (_name, reviewStatus, sendStatus) => {
    const record = outboundRecord('mail.send', 'o1');
    const plan = planUndo([record], world([], [outbound('o1', reviewStatus, sendStatus)]));
    expect(plan.items).toEqual([]);
    expect(plan.sent).toEqual([{ effectKey: record.effectKey, executionId: 'run', nodeId: record.nodeId, effect: 'mail.send', outboundId: 'o1', to: ['a@x.test'], subject: 'Re: hi', sendStatus }]);
  });

  it('an item no longer found: skipped as gone; a record without an item: not recorded', () => {
    const plan = planUndo([outboundRecord('mail.draft', 'o9'), { ...outboundRecord('mail.draft', 'x'), result: null }], world([]));
    expect(plan.items.map((item) => item.reason)).toEqual(['not_recorded', 'draft_gone']);
  });
});

describe('namedByRecords', () => {
  it('names the messages, mailboxes and review items to read, once each', () => {
    const records = [
      mailRecord('mail.move', 'm1', state('INBOX'), state('Archive')),
      mailRecord('mail.label', 'm1', state('Archive'), state('Archive', { labels: ['x'] })),
      outboundRecord('mail.draft', 'o1'),
      { effectKey: 'k', executionId: 'run', nodeId: 'n', kind: 'mail.move', description: '', result: { operationId: 'op' } },
    ];
    expect(namedByRecords(records)).toEqual({
      messageIds: ['m1'],
      mailboxIds: [mailbox],
      outboundIds: ['o1'],
      headers: new Map([['m1', { mailboxId: mailbox, messageIdHeader: '<m1@x.test>' }]]),
    });
  });
});
