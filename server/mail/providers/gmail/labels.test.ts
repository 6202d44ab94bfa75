import { describe, expect, it } from 'vitest';
import { foldersFromLabels, placeMessage } from './labels';

describe('Gmail labels as folders', () => {
  it('nests user labels under their nearest existing ancestor and keeps ids as keys', () => {
    const folders = foldersFromLabels([
      { id: 'INBOX', name: 'INBOX', type: 'system' },
      { id: 'CATEGORY_SOCIAL', name: 'CATEGORY_SOCIAL', type: 'system' },
      { id: 'Label_2', name: 'Work/2026/Q1', type: 'user' },
      { id: 'Label_1', name: 'Work', type: 'user', color: { backgroundColor: '#FB4C2F', textColor: '#ffffff' } },
      { id: 'Label_3', name: 'Work/Projects', type: 'user', color: { backgroundColor: 'red' } },
      { id: 'ARCHIVE', name: 'Sneaky', type: 'user' },
      { id: 'Label_4', name: '', type: 'user' },
    ]);
    const users = folders.filter((folder) => folder.role === null);
    expect(users.map((folder) => [folder.key, folder.name, folder.parentKey, folder.depth, folder.color])).toEqual([
      ['Label_1', 'Work', null, 0, '#fb4c2f'],
      ['Label_2', '2026/Q1', 'Label_1', 1, null],
      ['Label_3', 'Projects', 'Label_1', 1, null],
    ]);
    expect(folders.filter((folder) => folder.role !== null)).toHaveLength(7);
    expect(folders.find((folder) => folder.key === 'ARCHIVE')).toMatchObject({ role: 'archive', providerId: null, selectable: true });
    expect(folders.find((folder) => folder.key === 'STARRED')).toMatchObject({ role: 'starred', selectable: false });
  });
});

describe('placeMessage', () => {
  it.each([
    ['inbox, unread', ['INBOX', 'UNREAD', 'CATEGORY_UPDATES', 'IMPORTANT'], 'INBOX', [], { seen: false, flagged: false, draft: false, sent: false }],
    ['archived with a label', ['Label_1'], 'ARCHIVE', ['Label_1'], { seen: true, flagged: false, draft: false, sent: false }],
    ['sent to oneself', ['INBOX', 'SENT'], 'INBOX', ['SENT'], { seen: true, flagged: false, draft: false, sent: true }],
    ['sent, starred', ['SENT', 'STARRED'], 'SENT', [], { seen: true, flagged: true, draft: false, sent: true }],
    ['draft', ['DRAFT'], 'DRAFT', [], { seen: true, flagged: false, draft: true, sent: false }],
    ['trash wins over inbox', ['TRASH', 'INBOX', 'Label_9'], 'TRASH', ['Label_9'], { seen: true, flagged: false, draft: false, sent: false }],
    ['spam', ['SPAM', 'UNREAD'], 'SPAM', [], { seen: false, flagged: false, draft: false, sent: false }],
    ['no labels at all', undefined, 'ARCHIVE', [], { seen: true, flagged: false, draft: false, sent: false }],
  ])('%s', (_name, labelIds, folderKey, labels, flags) => {
    expect(placeMessage(labelIds)).toEqual({ folderKey, labels, flags });
  });
});
