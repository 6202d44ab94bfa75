'use client';

/**
 * Single-key shortcuts of a page (the webmail's, the review queue's): `commandOf` maps a key press to
 * a command or null, `handler` runs it. Quiet while the member types in a field or works in a dialog
 * or menu, on key repeat, and for an event another handler already took.
 */
import { useEffect, useRef } from 'react';

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return Boolean(target.closest('input, textarea, select, [role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]'));
}

export function useKeyboardCommands<Command>(commandOf: (event: KeyboardEvent) => Command | null, handler: (command: Command) => void, enabled = true): void {
  const latest = useRef({ commandOf, handler });
  useEffect(() => {
    latest.current = { commandOf, handler };
  });
  useEffect(() => {
    if (!enabled) return;
    const listener = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat || isTyping(event.target)) return;
      const command = latest.current.commandOf(event);
      if (command === null) return;
      event.preventDefault();
      latest.current.handler(command);
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, [enabled]);
}
