import { describe, expect, it } from 'vitest';
import type { Thread } from '@/app/lib/mail-types';
import { applyToPages, neighbourAfterRemoval, patchThread, staysInList, type ListScope } from './thread-cache';

const thread = (id: string, overrides: Partial<Thread> = {}): Thread => ({
  id,
  mailboxId: 'm1',
  subject: 'Hello',
  lastMessageAt: '2026-01-01T00:00:00.000Z',
  messageCount: 3,
  unreadCount: 2,
  participants: [{ email: 'a@example.test' }],
  participantCount: 1,
  snippet: null,
  hasAttachments: false,
  flags: { seen: false, flagged: false, draft: false, sent: false },
  ...overrides,
});

const inbox: ListScope = { folder: 'inbox', role: 'inbox', filter: 'all', searchEverywhere: false };

describe('optimistic thread list updates', () => {
  it('marks read and flags in place', () => {
    expect(patchThread(thread('t'), { action: 'markRead' })).toMatchObject({ unreadCount: 0, flags: { seen: true } });
    expect(patchThread(thread('t', { unreadCount: 0 }), { action: 'markUnread' })).toMatchObject({ unreadCount: 1, flags: { seen: false } });
    expect(patchThread(thread('t'), { action: 'flag' }).flags.flagged).toBe(true);
  });

  it('archive, trash and spam take the thread out of the inbox but not out of their own folder', () => {
    for (const action of ['archive', 'trash', 'spam', 'deletePermanently'] as const) expect(staysInList(inbox, { action })).toBe(false);
    expect(staysInList({ ...inbox, folder: 'archive', role: 'archive' }, { action: 'archive' })).toBe(true);
    expect(staysInList({ ...inbox, folder: 'all', role: 'all' }, { action: 'archive' })).toBe(true);
    expect(staysInList({ ...inbox, folder: 'all', role: 'all' }, { action: 'trash' })).toBe(false);
    expect(staysInList({ ...inbox, folder: 'trash', role: 'trash' }, { action: 'restore' })).toBe(false);
  });

  it('unflag leaves the flagged filter; a search everywhere keeps moved threads', () => {
    expect(staysInList({ ...inbox, filter: 'flagged' }, { action: 'unflag' })).toBe(false);
    expect(staysInList(inbox, { action: 'unflag' })).toBe(true);
    expect(staysInList({ ...inbox, searchEverywhere: true }, { action: 'trash' })).toBe(true);
  });

  it('move keeps the thread only in the destination list', () => {
    expect(staysInList(inbox, { action: 'move', toFolder: 'Projects' })).toBe(false);
    expect(staysInList({ ...inbox, folder: 'Projects', role: null }, { action: 'move', toFolder: 'Projects' })).toBe(true);
  });

  it('applies to every page and picks the neighbour to open next', () => {
    const pages = [
      { threads: [thread('a'), thread('b')], nextCursor: 'c1' },
      { threads: [thread('c')], nextCursor: null },
    ];
    const after = applyToPages(pages, 'b', inbox, { action: 'archive' });
    expect(after.flatMap((page) => page.threads.map((t) => t.id))).toEqual(['a', 'c']);
    expect(after[0].nextCursor).toBe('c1');
    const all = pages.flatMap((page) => page.threads);
    expect(neighbourAfterRemoval(all, 'b')).toBe('c');
    expect(neighbourAfterRemoval(all, 'c')).toBe('b');
    expect(neighbourAfterRemoval([thread('x')], 'x')).toBeNull();
  });
});
