'use client';

/**
 * The webmail's keyboard shortcuts (Gmail's letters): j/k next/previous thread, e archive, # trash,
 * s flag, u back to the list, shift+i mark read, shift+u mark unread, r reply, a reply all, f forward
 * (to the open thread's last message), c compose, / search, ? this list. They
 * stay quiet while the member types in a field, holds Ctrl/Alt/Meta, or works in a dialog or menu.
 */
import { useKeyboardCommands } from '@/app/lib/use-keyboard-commands';

export type ShortcutCommand =
  | 'next'
  | 'previous'
  | 'archive'
  | 'trash'
  | 'flag'
  | 'back'
  | 'markRead'
  | 'markUnread'
  | 'reply'
  | 'replyAll'
  | 'forward'
  | 'compose'
  | 'search'
  | 'help';

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
  { keys: ['r'], command: 'reply' },
  { keys: ['a'], command: 'replyAll' },
  { keys: ['f'], command: 'forward' },
  { keys: ['c'], command: 'compose' },
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
    case 'r':
      return 'reply';
    case 'a':
      return 'replyAll';
    case 'f':
      return 'forward';
    case 'c':
      return 'compose';
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

export function useShortcuts(handler: (command: ShortcutCommand) => void, enabled = true) {
  useKeyboardCommands(commandOf, handler, enabled);
}
