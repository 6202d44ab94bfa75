'use client';

/**
 * The review queue's keyboard shortcuts: j/k next/previous item, s send, r reject (asks for a reason),
 * e snooze until tomorrow morning (Gmail's "e" puts a message out of the way; here out of today's
 * queue), x select or unselect for "Send selected", ? this list. Quiet while the member types in a
 * field, holds Ctrl/Alt/Meta, or works in a dialog or menu.
 */
import { useEffect, useRef } from 'react';

export type ReviewCommand = 'next' | 'previous' | 'send' | 'reject' | 'snooze' | 'toggle' | 'help';

export const reviewShortcuts: { key: string; command: ReviewCommand }[] = [
  { key: 'j', command: 'next' },
  { key: 'k', command: 'previous' },
  { key: 's', command: 'send' },
  { key: 'r', command: 'reject' },
  { key: 'e', command: 'snooze' },
  { key: 'x', command: 'toggle' },
  { key: '?', command: 'help' },
];

export function reviewCommandOf(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>): ReviewCommand | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  return reviewShortcuts.find((shortcut) => shortcut.key === event.key)?.command ?? null;
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return Boolean(target.closest('input, textarea, select, [role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]'));
}

export function useReviewShortcuts(handler: (command: ReviewCommand) => void, enabled = true) {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!enabled) return;
    const listener = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat || isTyping(event.target)) return;
      const command = reviewCommandOf(event);
      if (!command) return;
      event.preventDefault();
      latest.current(command);
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, [enabled]);
}
