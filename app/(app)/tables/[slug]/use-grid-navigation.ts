'use client';

/**
 * Keyboard navigation of the data grid (ARIA grid pattern): one tab stop, arrow keys, Home/End and
 * Page Up/Down between cells, the header row included; a moved-to cell is scrolled into view and focused.
 */
import type { Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { selectWidth, type Position } from './grid-model';

interface GridNavigationOptions {
  rowCount: number;
  columnCount: number;
  /** The page's first row: a new page starts at its top. */
  offset: number;
  scrollRef: RefObject<HTMLDivElement | null>;
  virtualizer: Virtualizer<HTMLDivElement, Element>;
}

export function useGridNavigation({ rowCount, columnCount, offset, scrollRef, virtualizer }: GridNavigationOptions) {
  const [active, setActive] = useState<Position>({ row: 0, col: 1 });
  /** A cell to focus once it is rendered (a virtualised row may need a scroll first); expires. */
  const pendingFocus = useRef<{ position: Position; until: number } | null>(null);
  const activeRef = useRef(active);
  activeRef.current = active;

  // Keep the active position inside the grid when rows or columns change.
  useEffect(() => {
    setActive((current) => {
      const row = rowCount === 0 ? -1 : Math.min(current.row, rowCount - 1);
      const col = Math.min(current.col, columnCount - 1);
      return row === current.row && col === current.col ? current : { row, col };
    });
  }, [rowCount, columnCount]);

  // A new page starts at its top.
  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
  }, [offset, scrollRef]);

  const focusCell = useCallback(
    (position: Position) => {
      pendingFocus.current = { position, until: Date.now() + 1500 };
      setActive(position);
      if (position.row >= 0) virtualizer.scrollToIndex(position.row, { align: 'auto' });
    },
    [virtualizer],
  );

  // After each render: focus the wanted cell if it is there now, and bring it into view sideways
  // (the selection column stays on the left, so the browser's own scrolling would hide cells under it).
  useLayoutEffect(() => {
    const wanted = pendingFocus.current;
    const container = scrollRef.current;
    if (!wanted || !container) return;
    if (Date.now() > wanted.until) {
      pendingFocus.current = null;
      return;
    }
    const target = container.querySelector<HTMLElement>(`[data-pos="${wanted.position.row}:${wanted.position.col}"]`);
    if (!target) return;
    pendingFocus.current = null;
    target.focus({ preventScroll: true });
    if (wanted.position.col > 0) {
      const cell = target.closest<HTMLElement>('[role="gridcell"], [role="columnheader"]') ?? target;
      const left = cell.offsetLeft;
      const right = left + cell.offsetWidth;
      if (left < container.scrollLeft + selectWidth) container.scrollLeft = left - selectWidth;
      else if (right > container.scrollLeft + container.clientWidth) container.scrollLeft = right - container.clientWidth;
    }
  });

  /** Moves the focus for a navigation key pressed on the cell at (row, col); false when the key is not one. */
  function moveByKey(event: KeyboardEvent<HTMLDivElement>, row: number, col: number): boolean {
    const lastRow = rowCount - 1;
    const lastCol = columnCount - 1;
    const move = (next: Position) => {
      event.preventDefault();
      focusCell({ row: Math.max(-1, Math.min(lastRow, next.row)), col: Math.max(0, Math.min(lastCol, next.col)) });
      return true;
    };
    switch (event.key) {
      case 'ArrowUp':
        return move({ row: row - 1, col });
      case 'ArrowDown':
        return move({ row: row + 1, col });
      case 'ArrowLeft':
        return move({ row, col: col - 1 });
      case 'ArrowRight':
        return move({ row, col: col + 1 });
      case 'Home':
        return move(event.ctrlKey ? { row: row < 0 ? -1 : 0, col: 0 } : { row, col: 0 });
      case 'End':
        return move(event.ctrlKey ? { row: lastRow, col: lastCol } : { row, col: lastCol });
      case 'PageUp':
        return move({ row: Math.max(row < 0 ? -1 : 0, row - 10), col });
      case 'PageDown':
        return move({ row: row + 10, col });
      default:
        return false;
    }
  }

  const tabStop = (row: number, col: number) => (active.row === row && active.col === col ? 0 : -1);
  const activate = (row: number, col: number) => () => {
    if (active.row !== row || active.col !== col) setActive({ row, col });
  };

  return { active, activeRef, focusCell, moveByKey, tabStop, activate };
}
