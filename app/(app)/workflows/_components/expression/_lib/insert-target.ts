/**
 * Click-to-insert (issue 19 §6): clicking a field in a step's input or output panel inserts its
 * expression into the expression field the member was last in. Each editor says when it is focused
 * (and forgets itself when it goes); the field list asks here to insert. Inside an open `{{ … }}`
 * the bare path goes in at the cursor; elsewhere a whole `{{ path }}`.
 */
import { EditorSelection } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import { openPieceStart } from './completions';

let focused: EditorView | null = null;

export function rememberFocusedEditor(view: EditorView): void {
  focused = view;
}

export function forgetEditor(view: EditorView): void {
  if (focused === view) focused = null;
}

/** Whether an expression field is there to insert into. */
export function hasInsertTarget(): boolean {
  return focused !== null;
}

/** Inserts `path` (`input.from.email`) at the cursor of the last focused expression field; false when there is none. */
export function insertIntoFocusedField(path: string): boolean {
  const view = focused;
  if (!view) return false;
  const { from, to } = view.state.selection.main;
  const text = view.state.doc.toString();
  const insert = openPieceStart(text, from) >= 0 ? path : `{{ ${path} }}`;
  view.dispatch({ changes: { from, to, insert }, selection: EditorSelection.cursor(from + insert.length), userEvent: 'input.paste', scrollIntoView: true });
  view.focus();
  return true;
}
