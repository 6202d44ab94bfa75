'use client';

/**
 * A parameter's text with `{{ expression }}` pieces, on CodeMirror 6: highlighting, autocomplete of
 * the sample scope's paths inside `{{ }}`, single- or multi-line, and a live preview of the value
 * under the field (evaluated with the engine's functions against the sample data).
 */
import { closeBrackets } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { Annotation, Compartment, EditorState, Prec } from '@codemirror/state';
import { EditorView, keymap, placeholder as placeholderExtension } from '@codemirror/view';
import { useEffect, useRef, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { cn } from '@/app/ui/cn';
import { forgetEditor, rememberFocusedEditor } from './_lib/insert-target';
import { expressionExtensions, singleLine } from './_lib/language';
import { previewOf, type Preview, type SampleScope } from './_lib/preview';

export interface ExpressionEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** Multi-line (a body) or single-line (Enter does nothing, pasted line breaks become spaces). */
  multiline?: boolean;
  /** The data expressions see in the preview and the autocomplete: pinned data or the last run's. */
  sampleScope?: SampleScope | null;
  placeholder?: string;
  /** Id of the editable element (for a `<label htmlFor>`-like `aria-labelledby` pairing use `labelledBy`). */
  id?: string;
  labelledBy?: string;
  ariaLabel?: string;
  describedBy?: string;
  invalid?: boolean;
  disabled?: boolean;
  /** Show the live preview under the field (default true). */
  preview?: boolean;
  /** The parameter path named in evaluation errors (`params.subject`). */
  path?: string;
  className?: string;
}

const previewDelayMs = 150;

export function ExpressionEditor({
  value,
  onChange,
  multiline = false,
  sampleScope,
  placeholder,
  id,
  labelledBy,
  ariaLabel,
  describedBy,
  invalid = false,
  disabled = false,
  preview = true,
  path,
  className,
}: ExpressionEditorProps) {
  const { t } = useI18n();
  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  const sampleRef = useRef(sampleScope);
  const [attributes] = useState(() => new Compartment());
  const [editable] = useState(() => new Compartment());
  const [text, setText] = useState(value);

  useEffect(() => {
    onChangeRef.current = onChange;
    sampleRef.current = sampleScope;
  });

  // One editor per mount; later prop changes go through effects below.
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const view = new EditorView({
      parent: host,
      state: EditorState.create({
        doc: value,
        extensions: [
          history(),
          closeBrackets(),
          ...expressionExtensions(() => sampleRef.current),
          multiline ? EditorView.lineWrapping : [singleLine, Prec.lowest(keymap.of([{ key: 'Enter', run: () => true }]))],
          keymap.of([...defaultKeymap, ...historyKeymap]),
          placeholder ? placeholderExtension(placeholder) : [],
          attributes.of([]),
          editable.of([]),
          // The field a click in a step's input or output panel inserts into (insert-target.ts).
          EditorView.domEventHandlers({
            focus: (_event, view) => {
              rememberFocusedEditor(view);
              return false;
            },
          }),
          EditorView.updateListener.of((update) => {
            if (!update.docChanged) return;
            const next = update.state.doc.toString();
            setText(next);
            // Changes made to follow the `value` prop are not the member's edits.
            if (update.transactions.some((transaction) => transaction.annotation(external))) return;
            onChangeRef.current(next);
          }),
        ],
      }),
    });
    viewRef.current = view;
    return () => {
      forgetEditor(view);
      view.destroy();
      viewRef.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- created once; value/placeholder follow below
  }, [multiline]);

  useEffect(() => {
    const view = viewRef.current;
    if (!view) return;
    view.dispatch({
      effects: [
        attributes.reconfigure(
          EditorView.contentAttributes.of({
            ...(id ? { id } : {}),
            ...(labelledBy ? { 'aria-labelledby': labelledBy } : {}),
            ...(ariaLabel ? { 'aria-label': ariaLabel } : {}),
            ...(describedBy ? { 'aria-describedby': describedBy } : {}),
            ...(invalid ? { 'aria-invalid': 'true' } : {}),
            'aria-multiline': multiline ? 'true' : 'false',
            role: 'textbox',
          }),
        ),
        editable.reconfigure([EditorView.editable.of(!disabled), EditorState.readOnly.of(disabled)]),
      ],
    });
  }, [attributes, editable, id, labelledBy, ariaLabel, describedBy, invalid, disabled, multiline]);

  // The value prop changed from outside (undo in the builder, another field's reset): follow it.
  useEffect(() => {
    const view = viewRef.current;
    if (!view) return;
    const current = view.state.doc.toString();
    if (current !== value) {
      view.dispatch({ changes: { from: 0, to: current.length, insert: value }, annotations: external.of(true) });
    }
  }, [value]);

  return (
    <div className={cn('space-y-1', className)}>
      <div
        ref={hostRef}
        data-testid="expression-editor"
        data-path={path}
        className={cn(
          'expression-editor rounded-md border border-line-strong bg-surface text-sm shadow-xs focus-within:border-brand focus-within:outline-2 focus-within:outline-brand/30',
          multiline ? 'min-h-20' : '',
          invalid ? 'border-red-500' : '',
          disabled ? 'opacity-60' : '',
        )}
      />
      {preview ? <ExpressionPreview text={text} sampleScope={sampleScope} path={path} labels={t.params.expression} /> : null}
    </div>
  );
}


/** Marks the transactions that follow the `value` prop. */
const external = Annotation.define<boolean>();

function ExpressionPreview({
  text,
  sampleScope,
  path,
  labels,
}: {
  text: string;
  sampleScope: SampleScope | null | undefined;
  path: string | undefined;
  labels: { preview: string; evaluating: string; noSample: string; error: string; truncated: string };
}) {
  const [state, setState] = useState<{ for: string; sample: unknown; preview: Preview } | null>(null);

  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      void previewOf(text, sampleScope, path).then((preview) => {
        if (live) setState({ for: text, sample: sampleScope, preview });
      });
    }, previewDelayMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, sampleScope, path]);

  if (!text.includes('{{')) return null;
  const current = state && state.for === text && state.sample === sampleScope ? state.preview : null;
  if (current?.kind === 'literal') return null;
  return (
    <div data-testid="expression-preview" data-state={current?.kind ?? 'pending'} aria-live="polite" className="rounded-md bg-subtle px-2 py-1 text-xs">
      <span className="font-medium text-muted">{labels.preview}: </span>
      {current === null ? (
        <span className="text-muted">{labels.evaluating}</span>
      ) : current.kind === 'noSample' ? (
        <span className="text-muted">{labels.noSample}</span>
      ) : current.kind === 'error' ? (
        <span className="text-red-700 dark:text-red-400">
          {labels.error}: {current.message}
        </span>
      ) : current.kind === 'value' ? (
        <>
          <pre className="mt-0.5 max-h-40 overflow-auto font-mono text-xs whitespace-pre-wrap break-all text-fg">{current.text}</pre>
          {current.truncated ? <span className="text-muted">{labels.truncated}</span> : null}
        </>
      ) : null}
    </div>
  );
}
