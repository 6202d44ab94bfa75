import { describe, expect, it } from 'vitest';
import { resolveFolder } from './resolve';

const folders = [
  { mailboxId: 'a', key: 'INBOX', role: 'inbox' },
  { mailboxId: 'a', key: 'Trash', role: 'trash' },
  { mailboxId: 'a', key: 'Junk', role: 'spam' },
  { mailboxId: 'a', key: 'Projects', role: null },
  { mailboxId: 'b', key: 'Inbox', role: 'inbox' },
  { mailboxId: 'b', key: 'Deleted Items', role: 'trash' },
  { mailboxId: 'b', key: 'archive', role: null },
];

const keys = (name: string, mailboxes = ['a', 'b']) => {
  const resolved = resolveFolder(name, mailboxes, folders);
  return resolved && Object.fromEntries(resolved.keysByMailbox);
};

describe('resolveFolder', () => {
  it.each<[string, Record<string, string[]> | null]>([
    ['inbox', { a: ['INBOX'], b: ['Inbox'] }],
    ['trash', { a: ['Trash'], b: ['Deleted Items'] }],
    ['all', { a: ['INBOX', 'Projects'], b: ['Inbox', 'archive'] }],
    ['starred', { a: ['INBOX', 'Projects'], b: ['Inbox', 'archive'] }],
    ['sent', { a: [], b: [] }],
    // A role name wins over a personal folder spelled the same.
    ['archive', { a: [], b: [] }],
    ['Projects', { a: ['Projects'], b: [] }],
    ['INBOX', { a: ['INBOX'], b: [] }],
    ['Nowhere', null],
    ['constructor', null],
  ])('%s', (name, expected) => {
    expect(keys(name)).toEqual(expected);
  });

  it('only looks at the mailboxes asked for', () => {
    expect(keys('Projects', ['b'])).toBeNull();
    expect(keys('inbox', ['b'])).toEqual({ b: ['Inbox'] });
  });

  it('flags only starred', () => {
    expect(resolveFolder('starred', ['a'], folders)?.flaggedOnly).toBe(true);
    expect(resolveFolder('all', ['a'], folders)?.flaggedOnly).toBe(false);
  });
});
