'use client';

/** One data cell of the grid: its value, its editor while editing, the saving spinner and a refused value's reason. */
import type { MouseEvent } from 'react';
import type { useI18n } from '@/app/i18n/client';
import type { Dictionary } from '@/app/i18n';
import { cn } from '@/app/ui/cn';
import { Spinner } from '@/app/ui/spinner';
import type { Column, Row } from '../_lib/api';
import { cellOf, displayCell, editorText } from '../_lib/cells';
import { CellEditor, type CommitReason } from './cell-editor';
import type { Draft } from './grid-model';

export function GridCell({
  column,
  row,
  rowNumber,
  col,
  pos,
  width,
  draft,
  isEditing,
  isActive,
  bubbleAbove,
  tabIndex,
  caretAtEnd,
  onActivate,
  onStartEditing,
  onToggle,
  onText,
  onCommit,
  onCancel,
  locale,
  t,
}: {
  column: Column;
  row: Row;
  rowNumber: number;
  col: number;
  pos: string;
  width: number;
  draft: Draft | undefined;
  isEditing: boolean;
  isActive: boolean;
  bubbleAbove: boolean;
  tabIndex: number;
  caretAtEnd: boolean;
  onActivate: () => void;
  onStartEditing: () => void;
  onToggle: () => void;
  onText: (text: string) => void;
  onCommit: (text: string, reason: CommitReason) => void;
  onCancel: () => void;
  locale: ReturnType<typeof useI18n>['locale'];
  t: Dictionary;
}) {
  const value = cellOf(row.cells, column.key);
  const errorId = `cell-error-${row.id}-${column.key}`;
  const label = t.tables.grid.editCell(column.label, rowNumber);
  const showBubble = Boolean(draft?.error) && (isActive || isEditing);

  let content: React.ReactNode;
  if (column.type === 'boolean') {
    content = (
      <input
        type="checkbox"
        tabIndex={-1}
        aria-hidden="true"
        className={cn('size-4 accent-[var(--brand)]', value === undefined && !draft?.saving && 'opacity-40')}
        checked={draft?.saving ? draft.text === 'true' : value === true}
        disabled={draft?.saving}
        onChange={onToggle}
        onMouseDown={(event: MouseEvent) => event.preventDefault()}
        onClick={(event: MouseEvent<HTMLInputElement>) => event.currentTarget.closest<HTMLElement>('[role="gridcell"]')?.focus()}
      />
    );
  } else if (draft && !isEditing) {
    content = <span className={cn('truncate', draft.error && 'text-red-700 dark:text-red-400')}>{draft.text || '\u00a0'}</span>;
  } else if (column.type === 'select' && value !== undefined && value !== '') {
    content = <span className="truncate rounded bg-subtle px-1.5 py-0.5 text-xs font-medium ring-1 ring-line-strong/60 ring-inset">{String(value)}</span>;
  } else {
    content = <span className="truncate">{displayCell(column, value, locale, t)}</span>;
  }

  return (
    <div
      role="gridcell"
      aria-colindex={col + 1}
      aria-readonly={false}
      aria-invalid={draft?.error ? true : undefined}
      aria-describedby={draft?.error ? errorId : undefined}
      aria-label={column.type === 'boolean' ? `${label}: ${value === true ? t.tables.values.yes : value === false ? t.tables.values.no : t.tables.values.empty}` : undefined}
      data-pos={pos}
      data-testid={`cell-${column.key}`}
      tabIndex={isEditing ? -1 : tabIndex}
      onFocus={onActivate}
      onClick={onActivate}
      onDoubleClick={() => column.type !== 'boolean' && !isEditing && onStartEditing()}
      className={cn(
        'relative flex shrink-0 items-center border-r border-line px-3 outline-none',
        'focus-visible:z-[1] focus-visible:shadow-[inset_0_0_0_2px_var(--brand)]',
        column.type === 'number' && 'justify-end tabular-nums',
        column.type === 'boolean' && 'justify-center',
        draft?.error && 'bg-red-50 shadow-[inset_0_0_0_1px_rgb(220_38_38/0.6)] dark:bg-red-950/40',
      )}
      style={{ width }}
    >
      {isEditing ? (
        <CellEditor
          column={column}
          text={draft?.text ?? editorText(column, value)}
          invalid={Boolean(draft?.error)}
          label={label}
          errorId={errorId}
          caretAtEnd={caretAtEnd}
          onText={onText}
          onCommit={onCommit}
          onCancel={onCancel}
        />
      ) : (
        content
      )}
      {draft?.saving ? (
        <span className="absolute top-1/2 right-1 -translate-y-1/2 text-muted" role="img" aria-label={t.tables.grid.saving}>
          <Spinner className="size-3" />
        </span>
      ) : null}
      {draft?.error ? (
        <span
          id={errorId}
          data-testid="cell-error"
          className={cn(
            'pointer-events-none absolute left-0 z-[3] w-max max-w-72 rounded-md bg-red-600 px-2 py-1 text-xs font-medium text-white shadow-lg dark:bg-red-500',
            bubbleAbove ? 'bottom-full mb-1' : 'top-full mt-1',
            showBubble ? 'block' : 'sr-only',
          )}
        >
          {draft.error}
        </span>
      ) : null}
    </div>
  );
}
