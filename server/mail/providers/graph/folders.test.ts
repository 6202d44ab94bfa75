import { describe, expect, it } from 'vitest';
import { foldersFromGraph } from './folders';

describe('foldersFromGraph', () => {
  it('keys well-known folders by name, others by id, and links children to their parent key', () => {
    const folders = foldersFromGraph(
      [
        { folder: { id: 'ID-INBOX', displayName: 'Inbox', parentFolderId: 'ROOT', childFolderCount: 1 }, depth: 0 },
        { folder: { id: 'ID-SENT', displayName: 'Sent Items', parentFolderId: 'ROOT' }, depth: 0 },
        { folder: { id: 'ID-JUNK', displayName: 'Junk Email', parentFolderId: 'ROOT' }, depth: 0 },
        { folder: { id: 'ID-OUTBOX', displayName: 'Outbox', parentFolderId: 'ROOT' }, depth: 0 },
        { folder: { id: 'ID-SUB', displayName: 'Receipts', parentFolderId: 'ID-INBOX' }, depth: 1 },
        { folder: { id: 'ID-SUB', displayName: 'Receipts again', parentFolderId: 'ID-INBOX' }, depth: 1 },
      ],
      new Map([
        ['ID-INBOX', 'inbox'],
        ['ID-SENT', 'sentitems'],
        ['ID-JUNK', 'junkemail'],
      ]),
    );
    expect(folders.map((folder) => [folder.key, folder.role, folder.parentKey, folder.depth, folder.providerId])).toEqual([
      ['inbox', 'inbox', null, 0, 'ID-INBOX'],
      ['sentitems', 'sent', null, 0, 'ID-SENT'],
      ['junkemail', 'spam', null, 0, 'ID-JUNK'],
      ['ID-OUTBOX', null, null, 0, 'ID-OUTBOX'],
      ['ID-SUB', null, 'inbox', 1, 'ID-SUB'],
    ]);
  });
});
