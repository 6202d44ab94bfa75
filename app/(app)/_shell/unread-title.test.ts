import { describe, expect, it } from 'vitest';
import { titleWithUnread } from './unread-title';

describe('the unread count in the document title', () => {
  it('puts the count in front while it is above zero, replacing an older one and never stacking', () => {
    expect(titleWithUnread('Support · Mailflow', 2)).toBe('(2) Support · Mailflow');
    expect(titleWithUnread('(2) Support · Mailflow', 3)).toBe('(3) Support · Mailflow');
    expect(titleWithUnread('(3) Support · Mailflow', 0)).toBe('Support · Mailflow');
    expect(titleWithUnread('Support · Mailflow', 0)).toBe('Support · Mailflow');
    expect(titleWithUnread('Support', 120)).toBe('(99+) Support');
    expect(titleWithUnread('(99+) Support', 1)).toBe('(1) Support');
  });
});
