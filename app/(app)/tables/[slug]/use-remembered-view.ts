'use client';

/** View preferences of one table remembered in this browser: hidden columns and column widths. */
import type { ColumnSizingState, VisibilityState } from '@tanstack/react-table';
import { useEffect, useState } from 'react';

/**
 * Keyed by column key, which people choose: without a prototype, the grid library's own lookups
 * (`columnSizing[id]`) find nothing for a column keyed `constructor` that has no entry.
 */
function keyedByColumn<T extends Record<string, unknown>>(entries: object): T {
  return Object.assign(Object.create(null) as T, entries);
}

function useRemembered<T extends Record<string, unknown>>(storageKey: string, compact: (value: T) => T) {
  const [value, setValue] = useState<T>(() => keyedByColumn<T>({}));
  useEffect(() => {
    try {
      const stored = window.localStorage.getItem(storageKey);
      const parsed: unknown = stored ? JSON.parse(stored) : {};
      setValue(keyedByColumn<T>(typeof parsed === 'object' && parsed !== null ? parsed : {}));
    } catch {
      setValue(keyedByColumn<T>({}));
    }
  }, [storageKey]);
  const update = (next: T) => {
    const kept = keyedByColumn<T>(compact(next));
    setValue(kept);
    try {
      window.localStorage.setItem(storageKey, JSON.stringify(kept));
    } catch {
      // private mode: remembered for this visit only
    }
  };
  return [value, update] as const;
}

/** Hidden columns per table (only the hidden ones are stored). */
export function useHiddenColumns(tableId: string) {
  return useRemembered<VisibilityState>(`mailflow:tables:${tableId}:hidden`, (next) =>
    Object.fromEntries(Object.entries(next).filter(([, visible]) => visible === false)),
  );
}

/** Column widths per table set by dragging a header's edge (absent: the column's own width). */
export function useColumnWidths(tableId: string) {
  return useRemembered<ColumnSizingState>(`mailflow:tables:${tableId}:widths`, (next) =>
    Object.fromEntries(Object.entries(next).filter(([, width]) => Number.isFinite(width)).map(([key, width]) => [key, Math.round(width)])),
  );
}
