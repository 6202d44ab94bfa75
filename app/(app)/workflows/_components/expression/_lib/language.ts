/**
 * CodeMirror 6 pieces of the expression editor: a small stream language for parameter text (plain
 * text outside `{{ }}`, JSONata tokens inside), a mark on every whole `{{ … }}` piece, the completion
 * source over the sample scope, and single-line mode.
 */
import { autocompletion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { HighlightStyle, StreamLanguage, syntaxHighlighting, type StringStream } from '@codemirror/language';
import { EditorState, type Extension, RangeSetBuilder } from '@codemirror/state';
import { Decoration, type DecorationSet, EditorView, ViewPlugin, type ViewUpdate } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { expressionPieces } from '@/server/engine/expressions';
import { completePath } from './completions';
import type { SampleScope } from './preview';

interface TemplateState {
  inExpression: boolean;
  quote: string | null;
}

const keywords = new Set(['and', 'or', 'in', 'true', 'false', 'null', 'function']);

function tokenInExpression(stream: StringStream, state: TemplateState): string | null {
  if (state.quote) {
    let escaped = false;
    while (!stream.eol()) {
      const char = stream.next();
      if (char === state.quote && !escaped) {
        state.quote = null;
        break;
      }
      escaped = !escaped && char === '\\';
    }
    return 'string';
  }
  if (stream.match('}}')) {
    state.inExpression = false;
    return 'meta';
  }
  if (stream.eatSpace()) return null;
  const char = stream.peek();
  if (char === '"' || char === "'") {
    state.quote = stream.next() ?? null;
    return tokenInExpression(stream, state);
  }
  if (stream.match(/^-?\d+(\.\d+)?([eE][+-]?\d+)?/)) return 'number';
  if (stream.match(/^\$[A-Za-z_]\w*/) || stream.match('$')) return 'variableName.special';
  if (stream.match(/^`[^`]*`/)) return 'propertyName';
  if (stream.match(/^[A-Za-z_]\w*/)) {
    return keywords.has(stream.current()) ? 'keyword' : 'propertyName';
  }
  if (stream.match(/^\/(?:[^/\\\n]|\\.)+\/[im]*/)) return 'string.special';
  if (stream.match(/^(:=|!=|<=|>=|~>|\.\.|\?:|\?\?|[-+*/%&|=<>!?:.^#@~])/)) return 'operator';
  if (stream.match(/^[()[\]{},;]/)) return 'bracket';
  stream.next();
  return null;
}

/** Parameter text: plain outside `{{ }}`, JSONata inside. */
export const expressionLanguage = StreamLanguage.define<TemplateState>({
  name: 'mailflow-expression',
  startState: () => ({ inExpression: false, quote: null }),
  copyState: (state) => ({ ...state }),
  token(stream, state) {
    if (state.inExpression) return tokenInExpression(stream, state);
    if (stream.match('{{')) {
      state.inExpression = true;
      return 'meta';
    }
    // Plain text up to the next `{{`.
    while (!stream.eol() && !stream.match('{{', false)) stream.next();
    return null;
  },
});

const highlight = HighlightStyle.define([
  { tag: tags.meta, color: 'var(--expr-brace, #7c3aed)', fontWeight: '600' },
  { tag: tags.propertyName, color: 'var(--expr-property, #0369a1)' },
  { tag: tags.special(tags.variableName), color: 'var(--expr-function, #b45309)' },
  { tag: tags.keyword, color: 'var(--expr-keyword, #be185d)' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--expr-string, #15803d)' },
  { tag: tags.number, color: 'var(--expr-number, #c2410c)' },
  { tag: tags.operator, color: 'var(--expr-operator, #475569)' },
]);

const pieceMark = Decoration.mark({ class: 'cm-expression-piece' });

function pieceDecorations(view: EditorView): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  for (const piece of expressionPieces(view.state.doc.toString())) builder.add(piece.start, piece.end, pieceMark);
  return builder.finish();
}

/** A background on each whole `{{ … }}` piece. */
export const pieceHighlighter = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = pieceDecorations(view);
    }
    update(update: ViewUpdate) {
      if (update.docChanged) this.decorations = pieceDecorations(update.view);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

/** The completion source: paths of the sample scope read through `getSample` (it may change while mounted). */
export function scopeCompletionSource(getSample: () => SampleScope | null | undefined) {
  return (context: CompletionContext): CompletionResult | null => {
    const line = context.state.doc.lineAt(context.pos);
    // Expressions do not span lines in practice; reading from the line start keeps long bodies cheap.
    const before = context.state.sliceDoc(line.from, context.pos);
    const result = completePath(before, getSample(), context.explicit);
    if (!result) return null;
    return {
      from: line.from + result.from,
      options: result.options.map((option) => ({ label: option.label, apply: option.apply, detail: option.detail, type: option.type })),
      validFor: /^[\w$`-]*$/,
    };
  };
}

/** Keeps the document on one line: pasted line breaks become spaces. */
export const singleLine: Extension = EditorState.transactionFilter.of((transaction) => {
  if (!transaction.docChanged || transaction.newDoc.lines <= 1) return transaction;
  const text = transaction.newDoc.toString().replace(/\r?\n/g, ' ');
  return [transaction, { changes: { from: 0, to: transaction.newDoc.length, insert: text }, sequential: true }];
});

const theme = EditorView.baseTheme({
  '&.cm-editor': { fontSize: '13px', borderRadius: '6px' },
  '&.cm-editor.cm-focused': { outline: 'none' },
  '.cm-content': { fontFamily: 'var(--font-mono, ui-monospace, monospace)', padding: '6px 0', minHeight: '20px' },
  '.cm-line': { padding: '0 10px' },
  '.cm-expression-piece': { backgroundColor: 'rgba(124, 58, 237, 0.09)', borderRadius: '3px' },
  '.cm-placeholder': { color: 'var(--muted, #6b7280)' },
  '.cm-content, .cm-line': { caretColor: 'var(--fg, #111827)' },
  '&.cm-editor .cm-cursor': { borderLeftColor: 'var(--fg, #111827)' },
  // The app's colours (light and dark), not CodeMirror's light defaults.
  '.cm-tooltip': { backgroundColor: 'var(--surface, #fff)', color: 'var(--fg, #111827)', border: '1px solid var(--line-strong, #d1d5db)', borderRadius: '6px' },
  '.cm-tooltip.cm-tooltip-autocomplete > ul': { fontFamily: 'var(--font-mono, ui-monospace, monospace)', fontSize: '12px', maxHeight: '14em' },
  '.cm-tooltip.cm-tooltip-autocomplete > ul > li[aria-selected]': { backgroundColor: 'var(--brand, #4f46e5)', color: 'var(--on-brand, #fff)' },
  '.cm-completionDetail': { marginLeft: '0.75em', fontStyle: 'normal', opacity: '0.7' },
});

export function expressionExtensions(getSample: () => SampleScope | null | undefined): Extension[] {
  return [
    theme,
    expressionLanguage,
    syntaxHighlighting(highlight),
    pieceHighlighter,
    autocompletion({ override: [scopeCompletionSource(getSample)], activateOnTyping: true, icons: false }),
  ];
}
