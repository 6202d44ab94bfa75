import { describe, expect, it } from 'vitest';
import { flagsOf, keywordToLabel, labelsOf, labelToKeyword } from './flags';
import { folderRows, isSyncedFolder } from './folders';
import { imapFolderPrefix, imapProviderKey, parseImapProviderKey } from './provider-key';
import { packUids, uidSlices, uidSlicesFromNewest } from './uid-ranges';

describe('provider keys', () => {
  it.each([
    ['INBOX', 7n, 42n],
    ['Work/2026 plans', 1234567890n, 1n],
    ['a\u00e9b', 1n, 4294967295n],
  ])('round-trips %j', (folder, validity, uid) => {
    const key = imapProviderKey(folder, validity, uid);
    expect(key.startsWith(imapFolderPrefix(folder, validity))).toBe(true);
    expect(parseImapProviderKey(key)).toEqual({ folderKey: folder, uidValidity: validity, uid });
  });

  it.each(['', 'INBOX', 'INBOX\n1', 'INBOX\nx\n1', '\n1\n2'])('refuses %j', (key) => {
    expect(parseImapProviderKey(key)).toBeNull();
  });
});

describe('flags and labels', () => {
  it.each([
    [[], null, { seen: false, flagged: false, draft: false, sent: false }],
    [['\\Seen', '\\Flagged'], null, { seen: true, flagged: true, draft: false, sent: false }],
    [['\\SEEN', '\\Draft'], 'sent', { seen: true, flagged: false, draft: true, sent: true }],
    [['\\Answered', '$Forwarded'], 'inbox', { seen: false, flagged: false, draft: false, sent: false }],
  ] as const)('%j in %s', (flags, role, expected) => {
    expect(flagsOf(flags, role)).toEqual(expected);
  });

  it.each([
    ['work', 'work'],
    ['Client/ACME', 'Client/ACME'],
    ['two words', 'mf.dHdvIHdvcmRz'],
    ['Été', `mf.${Buffer.from('Été').toString('base64url')}`],
    ['(paren)', `mf.${Buffer.from('(paren)').toString('base64url')}`],
    ['$Label1', `mf.${Buffer.from('$Label1').toString('base64url')}`],
    ['mf.x', `mf.${Buffer.from('mf.x').toString('base64url')}`],
  ])('label %j ↔ keyword %j', (label, keyword) => {
    expect(labelToKeyword(label)).toBe(keyword);
    expect(keywordToLabel(keyword)).toBe(label);
  });

  it('keeps only keywords that are labels, sorted and unique', () => {
    expect(labelsOf(['\\Seen', '$NotJunk', 'NonJunk', 'Junk', 'work', 'mf.dHdvIHdvcmRz', 'work', 'mf.%%%'])).toEqual(['two words', 'work']);
  });
});

const entry = (path: string, options: { specialUse?: string; flags?: string[]; delimiter?: string } = {}) => {
  const delimiter = options.delimiter ?? '/';
  const parts = path.split(delimiter);
  return {
    path,
    name: parts.at(-1)!,
    delimiter,
    parentPath: parts.slice(0, -1).join(delimiter),
    flags: new Set(options.flags ?? []),
    specialUse: options.specialUse,
  };
};

describe('folderRows', () => {
  it('gives roles from SPECIAL-USE, hierarchy from the delimiter, and placeholders for missing system roles', () => {
    const rows = folderRows([
      entry('INBOX'),
      entry('INBOX/Receipts'),
      entry('Sent Items', { specialUse: '\\Sent' }),
      entry('Bin', { specialUse: '\\Trash' }),
      entry('Archive'),
      entry('[Gmail]', { flags: ['\\Noselect'] }),
      entry('[Gmail]/All Mail', { specialUse: '\\All' }),
      entry('Projects/2026/Q1'),
      entry('Projects'),
    ]);
    expect(rows.map((row) => [row.key, row.role, row.parentKey, row.depth, row.selectable])).toEqual([
      ['INBOX', 'inbox', null, 0, true],
      ['INBOX/Receipts', null, 'INBOX', 1, true],
      ['Sent Items', 'sent', null, 0, true],
      ['Bin', 'trash', null, 0, true],
      ['Archive', 'archive', null, 0, true],
      ['[Gmail]', null, null, 0, false],
      ['[Gmail]/All Mail', 'all', '[Gmail]', 1, true],
      ['Projects/2026/Q1', null, null, 2, true],
      ['Projects', null, null, 0, true],
      ['Drafts', 'drafts', null, 0, false],
      ['Junk', 'spam', null, 0, false],
    ]);
    expect(rows.filter(isSyncedFolder).map((row) => row.key)).toEqual(['INBOX', 'INBOX/Receipts', 'Sent Items', 'Bin', 'Archive', 'Projects/2026/Q1', 'Projects']);
  });

  it('gives a role to one folder only and skips paths it cannot key', () => {
    const rows = folderRows([entry('INBOX'), entry('Trash', { specialUse: '\\Trash' }), entry('Deleted', { specialUse: '\\Trash' }), entry('bad\nname'), entry('x'.repeat(300))]);
    expect(rows.filter((row) => row.role === 'trash').map((row) => row.key)).toEqual(['Trash']);
    expect(rows.some((row) => row.key.includes('\n') || row.key.length > 256)).toBe(false);
  });
});

describe('uid ranges', () => {
  it.each([
    [[], ''],
    [[5], '5'],
    [[3, 1, 2, 2, 7, 9, 10, 11], '1:3,7,9:11'],
  ])('%j → %s', (uids, packed) => {
    expect(packUids(uids)).toBe(packed);
  });

  it('slices ascending', () => {
    expect(uidSlices([5, 1, 3, 2, 4], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(uidSlicesFromNewest([5, 1, 3, 2, 4, 4], 2)).toEqual([[4, 5], [2, 3], [1]]);
    expect(uidSlicesFromNewest([], 2)).toEqual([]);
  });
});
