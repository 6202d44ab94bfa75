'use client';

/**
 * The webmail's keyboard shortcuts (Gmail's letters): j/k next/previous thread, e archive, # trash,
 * s flag, u back to the list, shift+i mark read, shift+u mark unread, / search, ? this list. They
 * stay quiet while the member types in a field, holds Ctrl/Alt/Meta, or works in a dialog or menu.
 */
import { useEffect, useRef } from 'react';

export type ShortcutCommand = 'next' | 'previous' | 'archive' | 'trash' | 'flag' | 'back' | 'markRead' | 'markUnread' | 'search' | 'help';

/** Key → command, in the order the help lists them. */
export const shortcuts: { keys: string[]; command: ShortcutCommand }[] = [
  { keys: ['j'], command: 'next' },
  { keys: ['k'], command: 'previous' },
  { keys: ['e'], command: 'archive' },
  { keys: ['#'], command: 'trash' },
  { keys: ['s'], command: 'flag' },
  { keys: ['u'], command: 'back' },
  { keys: ['Shift', 'i'], command: 'markRead' },
  { keys: ['Shift', 'u'], command: 'markUnread' },
  { keys: ['/'], command: 'search' },
  { keys: ['?'], command: 'help' },
];

export function commandOf(event: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey'>): ShortcutCommand | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  switch (event.key) {
    case 'j':
      return 'next';
    case 'k':
      return 'previous';
    case 'e':
      return 'archive';
    case '#':
      return 'trash';
    case 's':
      return 'flag';
    case 'u':
      return 'back';
    case 'I':
      return event.shiftKey ? 'markRead' : null;
    case 'U':
      return event.shiftKey ? 'markUnread' : null;
    case '/':
      return 'search';
    case '?':
      return 'help';
    default:
      return null;
  }
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target.closest('input, textarea, select, [role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]')) return true;
  return false;
}

export function useShortcuts(handler: (command: ShortcutCommand) => void, enabled = true) {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!enabled) return;
    const listener = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat || isTyping(event.target)) return;
      const command = commandOf(event);
      if (!command) return;
      event.preventDefault();
      latest.current(command);
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, [enabled]);
}
