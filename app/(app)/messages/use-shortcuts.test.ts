import { describe, expect, it } from 'vitest';
import { commandOf, shortcuts } from './use-shortcuts';

const key = (value: string, extra: Partial<{ shiftKey: boolean; ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) => ({
  key: value,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...extra,
});

describe('webmail shortcuts', () => {
  it('maps the letters to their commands', () => {
    expect(commandOf(key('j'))).toBe('next');
    expect(commandOf(key('k'))).toBe('previous');
    expect(commandOf(key('e'))).toBe('archive');
    expect(commandOf(key('#', { shiftKey: true }))).toBe('trash');
    expect(commandOf(key('s'))).toBe('flag');
    expect(commandOf(key('u'))).toBe('back');
    expect(commandOf(key('I', { shiftKey: true }))).toBe('markRead');
    expect(commandOf(key('U', { shiftKey: true }))).toBe('markUnread');
    expect(commandOf(key('?', { shiftKey: true }))).toBe('help');
  });

  it('r replies, a replies to all, f forwards, c composes', () => {
    expect(['r', 'a', 'f', 'c'].map((letter) => commandOf(key(letter)))).toEqual(['reply', 'replyAll', 'forward', 'compose']);
    expect(commandOf(key('r', { ctrlKey: true }))).toBeNull();
    expect(commandOf(key('c', { metaKey: true }))).toBeNull();
  });

  it('leaves browser and system shortcuts alone', () => {
    expect(commandOf(key('k', { ctrlKey: true }))).toBeNull();
    expect(commandOf(key('e', { metaKey: true }))).toBeNull();
    expect(commandOf(key('s', { altKey: true }))).toBeNull();
    expect(commandOf(key('I'))).toBeNull();
    expect(commandOf(key('x'))).toBeNull();
  });

  it('lists every command once in the help', () => {
    const commands = shortcuts.map((entry) => entry.command);
    expect(new Set(commands).size).toBe(commands.length);
  });
});
