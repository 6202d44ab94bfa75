import { describe, expect, it } from 'vitest';
import { planGmailOperation, type GmailOperation } from './plan';

const modify = (add: string[], remove: string[]) => ({ call: 'modify', add, remove });

describe('planGmailOperation', () => {
  const cases: [string, GmailOperation, string[], unknown][] = [
    ['markRead', { action: 'markRead' }, ['INBOX', 'UNREAD'], [modify([], ['UNREAD'])]],
    ['markRead again: nothing', { action: 'markRead' }, ['INBOX'], []],
    ['markUnread', { action: 'markUnread' }, ['INBOX'], [modify(['UNREAD'], [])]],
    ['flag', { action: 'flag' }, ['INBOX'], [modify(['STARRED'], [])]],
    ['unflag', { action: 'unflag' }, ['INBOX', 'STARRED'], [modify([], ['STARRED'])]],
    ['archive', { action: 'archive' }, ['INBOX', 'UNREAD'], [modify([], ['INBOX'])]],
    ['archive from spam', { action: 'archive' }, ['SPAM'], [modify([], ['SPAM'])]],
    ['archive from trash', { action: 'archive' }, ['TRASH', 'INBOX'], [{ call: 'untrash' }, modify([], ['INBOX'])]],
    ['unarchive', { action: 'unarchive' }, ['Label_1'], [modify(['INBOX'], [])]],
    ['trash', { action: 'trash' }, ['INBOX'], [{ call: 'trash' }]],
    ['trash again: nothing', { action: 'trash' }, ['TRASH'], []],
    ['restore to inbox', { action: 'restore' }, ['TRASH'], [{ call: 'untrash' }, modify(['INBOX'], [])]],
    ['restore to a label', { action: 'restore', toFolderKey: 'Label_2' }, ['TRASH'], [{ call: 'untrash' }, modify(['Label_2'], [])]],
    ['restore to archive', { action: 'restore', toFolderKey: 'ARCHIVE' }, ['TRASH'], [{ call: 'untrash' }]],
    ['spam', { action: 'spam' }, ['INBOX'], [modify(['SPAM'], ['INBOX'])]],
    ['notSpam', { action: 'notSpam' }, ['SPAM'], [modify(['INBOX'], ['SPAM'])]],
    ['move to a label from another', { action: 'move', fromFolderKey: 'Label_1', toFolderKey: 'Label_2' }, ['Label_1', 'INBOX'], [modify(['Label_2'], ['INBOX', 'Label_1'])]],
    ['move to inbox', { action: 'move', toFolderKey: 'INBOX' }, ['Label_1'], [modify(['INBOX'], [])]],
    ['move to trash', { action: 'move', toFolderKey: 'TRASH' }, ['INBOX'], [{ call: 'trash' }]],
    ['labels', { action: 'labels', labelsAdd: ['Label_1', 'INBOX'], labelsRemove: ['Label_2', 'UNREAD'] }, ['Label_2'], [modify(['Label_1'], ['Label_2'])]],
    ['deletePermanently', { action: 'deletePermanently' }, ['INBOX'], [{ call: 'delete' }]],
  ];
  it.each(cases)('%s', (_name, operation, current, steps) => {
    expect(planGmailOperation(operation, current)).toEqual({ ok: true, steps });
  });

  it.each([
    ['move to SENT', { action: 'move', toFolderKey: 'SENT' }, 'unsupported_target'],
    ['move to DRAFT', { action: 'move', toFolderKey: 'DRAFT' }, 'unsupported_target'],
    ['move to STARRED', { action: 'move', toFolderKey: 'STARRED' }, 'unsupported_target'],
    ['move without target', { action: 'move' }, 'unsupported_target'],
    ['unknown action', { action: 'snooze' }, 'unsupported_action'],
  ])('refuses %s', (_name, operation, reason) => {
    expect(planGmailOperation(operation, ['INBOX'])).toEqual({ ok: false, reason });
  });
});
