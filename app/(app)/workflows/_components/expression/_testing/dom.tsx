/**
 * Component tests' helpers (jsdom): the layout APIs CodeMirror calls and jsdom lacks, rendering
 * inside the i18n provider, and driving a CodeMirror editor through its view (jsdom has no layout,
 * so typing into a contenteditable is not reliable; dispatching is what typing does in the end).
 * A test file using them also mocks `next/navigation` (the i18n provider reads the router):
 * `vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh() {} }) }))`.
 */
import { EditorSelection } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { act, render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { I18nProvider } from '@/app/i18n/client';

function emptyRects(): DOMRectList {
  const list = [] as unknown as DOMRectList & DOMRect[];
  (list as unknown as { item: (index: number) => DOMRect | null }).item = () => null;
  return list;
}

const zeroRect = { x: 0, y: 0, width: 0, height: 0, top: 0, left: 0, right: 0, bottom: 0, toJSON: () => ({}) } as DOMRect;

/** Range and element geometry: CodeMirror measures text; jsdom has no layout (all zeros is enough). */
export function installLayoutPolyfills(): void {
  if (typeof Range !== 'undefined') {
    Range.prototype.getClientRects ??= emptyRects;
    Range.prototype.getBoundingClientRect ??= () => zeroRect;
  }
  if (typeof Element !== 'undefined') {
    Element.prototype.scrollIntoView ??= () => {};
  }
  if (typeof document !== 'undefined' && !document.elementFromPoint) {
    document.elementFromPoint = () => null;
  }
}

installLayoutPolyfills();

export function renderWithI18n(ui: ReactElement, locale: 'en' | 'fr' = 'en'): RenderResult {
  return render(<I18nProvider initialLocale={locale}>{ui}</I18nProvider>);
}

/** The CodeMirror view inside an `expression-editor` element. */
export function editorViewOf(element: Element): EditorView {
  const editor = element.querySelector('.cm-editor');
  const view = editor ? EditorView.findFromDOM(editor as HTMLElement) : null;
  if (!view) throw new Error('No CodeMirror editor in this element.');
  return view;
}

/** Replaces the editor's whole text as a member's edit would. */
export function setEditorText(element: Element, text: string): void {
  const view = editorViewOf(element);
  act(() => {
    view.dispatch({
      changes: { from: 0, to: view.state.doc.length, insert: text },
      selection: EditorSelection.cursor(text.length),
      userEvent: 'input.type',
    });
  });
}

/** Types `text` at the end of the editor. */
export function typeAtEnd(element: Element, text: string): void {
  const view = editorViewOf(element);
  const end = view.state.doc.length;
  act(() => {
    view.dispatch({ changes: { from: end, insert: text }, selection: EditorSelection.cursor(end + text.length), userEvent: 'input.type' });
  });
}

export function editorText(element: Element): string {
  return editorViewOf(element).state.doc.toString();
}
