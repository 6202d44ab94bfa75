'use client';

/**
 * Editing the grid's cells: Enter or typing edits, Escape cancels, Delete clears, Space toggles a
 * yes/no cell. Cells save one at a time through rows.update; a refused value stays in the cell with the
 * service's reason under it until it is fixed or cancelled.
 */
import { useMutation } from '@tanstack/react-query';
import type { Row as ModelRow } from '@tanstack/react-table';
import { useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useI18n } from '@/app/i18n/client';
import { useTableMutations, useTablesCache, type CellValue, type Column, type Row, type Table } from '../_lib/api';
import { cellOf, editorText, parseEditorText, sameCell } from '../_lib/cells';
import type { CommitReason } from './cell-editor';
import { cellErrorText, cellId, type Draft, type Editing, type Position } from './grid-model';

interface CellEditingOptions {
  table: Table;
  modelRows: ModelRow<Row>[];
  dataColumns: Column[];
  columnCount: number;
  activeRef: RefObject<Position>;
  focusCell: (position: Position) => void;
  onAnnounce: (message: string) => void;
}

export function useCellEditing({ table, modelRows, dataColumns, columnCount, activeRef, focusCell, onAnnounce }: CellEditingOptions) {
  const { t } = useI18n();
  const cache = useTablesCache();
  const mutations = useTableMutations();
  const updateRow = useMutation(mutations.updateRow);
  const [editing, setEditingState] = useState<Editing | null>(null);
  // The editor in effect right now (state lags a render behind): a blur after Escape or Enter is ignored.
  const editingRef = useRef<Editing | null>(null);
  const setEditing = (next: Editing | null) => {
    editingRef.current = next;
    setEditingState(next);
  };
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});

  const setDraft = (id: string, draft: Draft | null) =>
    setDrafts((current) => {
      const next = { ...current };
      if (draft) next[id] = draft;
      else delete next[id];
      return next;
    });

  function startEditing(row: Row, column: Column, typed?: string) {
    const id = cellId(row.id, column.key);
    if (drafts[id]?.saving) return;
    if (column.type === 'boolean') {
      toggle(row, column);
      return;
    }
    if (typed !== undefined) setDraft(id, { text: typed, error: drafts[id]?.error ?? null, saving: false });
    else if (!drafts[id]) setDraft(id, { text: editorText(column, cellOf(row.cells, column.key)), error: null, saving: false });
    setEditing({ rowId: row.id, key: column.key, caretAtEnd: typed !== undefined || Boolean(drafts[id]?.error) });
  }

  async function save(row: Row, column: Column, text: string, reason: CommitReason | 'clear' | 'toggle', value?: CellValue | null) {
    const id = cellId(row.id, column.key);
    let next: CellValue | null;
    if (value !== undefined) next = value;
    else {
      const parsed = parseEditorText(column.type, text);
      if (!parsed.ok) {
        setDraft(id, { text, error: t.tables.problems[parsed.error], saving: false });
        return;
      }
      next = parsed.value;
    }
    if (sameCell(next, cellOf(row.cells, column.key))) {
      setDraft(id, null);
      return;
    }
    setDraft(id, { text, error: null, saving: true });
    try {
      const { row: saved } = await updateRow.mutateAsync({ id: table.id, rowId: row.id, cells: { [column.key]: next } });
      cache.putRow(table.id, saved);
      setDraft(id, null);
      onAnnounce(t.tables.grid.saved(column.label));
    } catch (error) {
      const message = cellErrorText(error, column.key, t);
      setDraft(id, { text, error: message, saving: false });
      onAnnounce(`${column.label}: ${message}`);
      // Still on that cell: open the editor again with what was typed.
      const here = activeRef.current;
      const rowIndex = modelRows.findIndex((model) => model.original.id === row.id);
      const colIndex = dataColumns.findIndex((c) => c.key === column.key) + 1;
      if (reason === 'enter' && here.row === rowIndex && here.col === colIndex && column.type !== 'boolean') {
        setEditing({ rowId: row.id, key: column.key, caretAtEnd: true });
      }
    }
  }

  function toggle(row: Row, column: Column) {
    const current = drafts[cellId(row.id, column.key)];
    if (current?.saving) return;
    const value = cellOf(row.cells, column.key) === true;
    void save(row, column, String(!value), 'toggle', !value);
  }

  function commitEditor(row: Row, column: Column, text: string, reason: CommitReason) {
    const current = editingRef.current;
    if (!current || current.rowId !== row.id || current.key !== column.key) return;
    const parsed = parseEditorText(column.type, text);
    if (!parsed.ok && reason !== 'blur') {
      // Not even sendable (a number that is not one): keep the editor open with the reason.
      setDraft(cellId(row.id, column.key), { text, error: t.tables.problems[parsed.error], saving: false });
      return;
    }
    setEditing(null);
    void save(row, column, text, reason);
    const rowIndex = modelRows.findIndex((model) => model.original.id === row.id);
    const colIndex = dataColumns.findIndex((c) => c.key === column.key) + 1;
    if (reason === 'tab') focusCell({ row: rowIndex, col: Math.min(colIndex + 1, columnCount - 1) });
    else if (reason === 'shiftTab') focusCell({ row: rowIndex, col: Math.max(colIndex - 1, 1) });
    else if (reason !== 'blur') focusCell({ row: rowIndex, col: colIndex });
  }

  function cancelEditor(row: Row, column: Column) {
    if (!editingRef.current) return;
    setEditing(null);
    setDraft(cellId(row.id, column.key), null);
    const rowIndex = modelRows.findIndex((model) => model.original.id === row.id);
    focusCell({ row: rowIndex, col: dataColumns.findIndex((c) => c.key === column.key) + 1 });
  }

  /** The editing keys on the data cell at (row, col): Enter/F2/Space, Delete/Backspace, Escape and typing. */
  function onCellKeyDown(event: KeyboardEvent<HTMLDivElement>, row: number, col: number) {
    if (row < 0 || col < 1) return;
    const model = modelRows[row];
    const column = dataColumns[col - 1];
    if (!model || !column) return;
    const record = model.original;
    const id = cellId(record.id, column.key);
    if (event.key === 'Enter' || event.key === 'F2' || (event.key === ' ' && column.type === 'boolean')) {
      event.preventDefault();
      startEditing(record, column);
    } else if ((event.key === 'Delete' || event.key === 'Backspace') && !drafts[id]?.saving) {
      event.preventDefault();
      if (cellOf(record.cells, column.key) !== undefined || drafts[id]) void save(record, column, '', 'clear', null);
    } else if (event.key === 'Escape' && drafts[id] && !drafts[id].saving) {
      event.preventDefault();
      setDraft(id, null);
    } else if (
      event.key.length === 1 &&
      !event.ctrlKey &&
      !event.metaKey &&
      !event.altKey &&
      (column.type === 'text' || column.type === 'email' || column.type === 'number')
    ) {
      event.preventDefault();
      startEditing(record, column, event.key);
    }
  }

  return { editing, drafts, setDraft, startEditing, toggle, commitEditor, cancelEditor, onCellKeyDown };
}

export type CellEditingState = ReturnType<typeof useCellEditing>;
