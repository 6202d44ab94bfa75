'use client';

/**
 * The editor of one cell, fitting its column type: text and email inputs, a decimal input for
 * numbers, native date and date-time inputs, and a dropdown of the options for choice columns.
 * Enter saves, Escape cancels, Tab saves and moves on; leaving the cell saves too.
 */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { cn } from '@/app/ui/cn';
import type { Column } from '../_lib/api';

export type CommitReason = 'enter' | 'tab' | 'shiftTab' | 'blur' | 'change';

const editorClasses =
  'absolute inset-0 z-[1] h-full w-full min-w-0 rounded-none border-2 border-brand bg-surface px-[10px] text-[13px] text-fg outline-none ' +
  'aria-invalid:border-red-500';

export function CellEditor({
  column,
  text,
  invalid,
  label,
  errorId,
  /** Typed into a closed cell: the caret goes after it instead of selecting everything. */
  caretAtEnd,
  onText,
  onCommit,
  onCancel,
}: {
  column: Column;
  text: string;
  invalid: boolean;
  label: string;
  errorId?: string;
  caretAtEnd: boolean;
  onText: (text: string) => void;
  onCommit: (text: string, reason: CommitReason) => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const inputRef = useRef<HTMLInputElement>(null);
  const selectRef = useRef<HTMLSelectElement>(null);

  useEffect(() => {
    const input = inputRef.current;
    if (input) {
      input.focus();
      if (caretAtEnd) {
        const end = input.value.length;
        try {
          input.setSelectionRange(end, end);
        } catch {
          // date inputs have no selection
        }
      } else {
        try {
          input.select();
        } catch {
          // nothing to select
        }
      }
    }
    const select = selectRef.current;
    if (select) {
      select.focus();
      try {
        select.showPicker();
      } catch {
        // not supported or not allowed: the focused select opens with Alt+Down or a click
      }
    }
    // Only when the editor opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function keyDown(event: KeyboardEvent<HTMLInputElement | HTMLSelectElement>) {
    event.stopPropagation();
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    } else if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
      event.preventDefault();
      onCommit(event.currentTarget.value, 'enter');
    } else if (event.key === 'Tab') {
      event.preventDefault();
      onCommit(event.currentTarget.value, event.shiftKey ? 'shiftTab' : 'tab');
    }
  }

  const common = {
    'aria-label': label,
    'aria-invalid': invalid || undefined,
    'aria-describedby': invalid ? errorId : undefined,
    'data-testid': 'cell-editor',
    onKeyDown: keyDown,
    // The grid ignores a blur that follows Enter, Tab or Escape.
    onBlur: (event: { currentTarget: { value: string } }) => onCommit(event.currentTarget.value, 'blur'),
  };

  if (column.type === 'select') {
    return (
      <select
        ref={selectRef}
        {...common}
        value={text}
        className={cn(editorClasses, 'pr-2')}
        onChange={(event) => {
          onText(event.target.value);
          onCommit(event.target.value, 'change');
        }}
      >
        <option value="">{t.tables.values.empty}</option>
        {/* A value no longer among the options stays choosable until it is changed. */}
        {text && !column.options.includes(text) ? <option value={text}>{text}</option> : null}
        {column.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  }

  const typeProps =
    column.type === 'number'
      ? { type: 'text', inputMode: 'decimal' as const, className: cn(editorClasses, 'text-right tabular-nums') }
      : column.type === 'date'
        ? { type: 'date', className: editorClasses }
        : column.type === 'datetime'
          ? { type: 'datetime-local', className: editorClasses }
          : column.type === 'email'
            ? { type: 'email', inputMode: 'email' as const, autoComplete: 'off', spellCheck: false, className: editorClasses }
            : { type: 'text', autoComplete: 'off', className: editorClasses };

  return <input ref={inputRef} {...common} {...typeProps} value={text} onChange={(event) => onText(event.target.value)} />;
}
