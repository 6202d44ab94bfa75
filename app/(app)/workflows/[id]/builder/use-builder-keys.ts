'use client';

/**
 * The builder's keyboard: shortcuts while focus is on the canvas (never while typing in a field or
 * an expression editor), and the clipboard through the browser's copy/cut/paste events, which need
 * no permission and carry the graph's JSON as plain text.
 */
import { useEffect, useRef } from 'react';

export type ShortcutAction =
  | 'undo'
  | 'redo'
  | 'duplicate'
  | 'delete'
  | 'disable'
  | 'tidy'
  | 'fullWindow'
  | 'note'
  | 'fit'
  | 'save'
  | 'test'
  | 'help'
  | 'selectAll';

/** Shown in the help panel, in this order. `mod` is Ctrl (⌘ on a Mac). */
export const shortcutList: { action: ShortcutAction | 'copy' | 'cut' | 'paste'; keys: string }[] = [
  { action: 'undo', keys: 'mod+Z' },
  { action: 'redo', keys: 'mod+Shift+Z · mod+Y' },
  { action: 'copy', keys: 'mod+C' },
  { action: 'cut', keys: 'mod+X' },
  { action: 'paste', keys: 'mod+V' },
  { action: 'duplicate', keys: 'mod+D' },
  { action: 'selectAll', keys: 'mod+A' },
  { action: 'delete', keys: 'Delete · Backspace' },
  { action: 'disable', keys: 'D' },
  { action: 'tidy', keys: 'Shift+L' },
  { action: 'fullWindow', keys: 'Shift+F' },
  { action: 'note', keys: 'N' },
  { action: 'fit', keys: 'F' },
  { action: 'save', keys: 'mod+S' },
  { action: 'test', keys: 'mod+Enter' },
  { action: 'help', keys: '?' },
];

export function actionOfKey(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>): ShortcutAction | null {
  const mod = event.ctrlKey || event.metaKey;
  const key = event.key.toLowerCase();
  if (event.altKey) return null;
  if (mod) {
    if (key === 'z') return event.shiftKey ? 'redo' : 'undo';
    if (key === 'y') return 'redo';
    if (key === 'd') return 'duplicate';
    if (key === 's') return 'save';
    if (key === 'a') return 'selectAll';
    if (key === 'enter') return 'test';
    return null;
  }
  if (key === 'delete' || key === 'backspace') return 'delete';
  if (key === '?') return 'help';
  if (event.shiftKey && key === 'l') return 'tidy';
  if (event.shiftKey && key === 'f') return 'fullWindow';
  if (event.shiftKey) return null;
  if (key === 'd') return 'disable';
  if (key === 'n') return 'note';
  if (key === 'f') return 'fit';
  return null;
}

/**
 * Typing somewhere: a field, an expression editor (contenteditable), a dialog, or a panel of its own
 * inside the builder (`data-builder-shortcuts="off"`: the assistant, where Ctrl+A or Delete are not
 * about the canvas).
 */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest('[contenteditable="true"]')) return true;
  if (target.closest('[role="dialog"]') || target.closest('[data-builder-shortcuts="off"]')) return true;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function useBuilderKeys(
  root: React.RefObject<HTMLElement | null>,
  handlers: { onAction: (action: ShortcutAction) => void; onCopy: () => string | null; onCut: () => string | null; onPaste: (text: string) => void },
) {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const inside = (target: EventTarget | null) => target instanceof Node && Boolean(root.current?.contains(target)) && !isTypingTarget(target);
    // Focus on the page body still counts as the builder's, unless the builder is hidden (the
    // workflow page keeps it mounted behind its other tabs).
    const shown = () => Boolean(root.current && root.current.offsetParent !== null);
    const ours = (target: EventTarget | null) => inside(target) || (target === document.body && shown());
    function keydown(event: KeyboardEvent) {
      if (!ours(event.target)) return;
      const action = actionOfKey(event);
      if (!action) return;
      event.preventDefault();
      latest.current.onAction(action);
    }
    function clip(kind: 'copy' | 'cut') {
      return (event: ClipboardEvent) => {
        if (!ours(event.target) || window.getSelection()?.toString()) return;
        const text = kind === 'copy' ? latest.current.onCopy() : latest.current.onCut();
        if (text === null || !event.clipboardData) return;
        event.clipboardData.setData('text/plain', text);
        event.preventDefault();
      };
    }
    function paste(event: ClipboardEvent) {
      if (!ours(event.target)) return;
      const text = event.clipboardData?.getData('text/plain');
      if (!text) return;
      event.preventDefault();
      latest.current.onPaste(text);
    }
    const copy = clip('copy');
    const cut = clip('cut');
    document.addEventListener('keydown', keydown);
    document.addEventListener('copy', copy);
    document.addEventListener('cut', cut);
    document.addEventListener('paste', paste);
    return () => {
      document.removeEventListener('keydown', keydown);
      document.removeEventListener('copy', copy);
      document.removeEventListener('cut', cut);
      document.removeEventListener('paste', paste);
    };
  }, [root]);
}
