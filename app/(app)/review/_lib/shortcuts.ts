'use client';

/**
 * The review queue's keyboard shortcuts: j/k next/previous item, s send, r reject (asks for a reason),
 * b snooze until tomorrow morning (Gmail's snooze key; `e` means archive everywhere else in the
 * application, so it is not used here), x select or unselect for "Send selected", ? this list. Quiet while the member types in a
 * field, holds Ctrl/Alt/Meta, or works in a dialog or menu.
 */
import { useKeyboardCommands } from '@/app/lib/use-keyboard-commands';

export type ReviewCommand = 'next' | 'previous' | 'send' | 'reject' | 'snooze' | 'toggle' | 'help';

export const reviewShortcuts: { key: string; command: ReviewCommand }[] = [
  { key: 'j', command: 'next' },
  { key: 'k', command: 'previous' },
  { key: 's', command: 'send' },
  { key: 'r', command: 'reject' },
  { key: 'b', command: 'snooze' },
  { key: 'x', command: 'toggle' },
  { key: '?', command: 'help' },
];

export function reviewCommandOf(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>): ReviewCommand | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  return reviewShortcuts.find((shortcut) => shortcut.key === event.key)?.command ?? null;
}

export function useReviewShortcuts(handler: (command: ReviewCommand) => void, enabled = true) {
  useKeyboardCommands(reviewCommandOf, handler, enabled);
}
