'use client';

/** View preferences of one table remembered in this browser: hidden columns and column widths. */
import type { ColumnSizingState, VisibilityState } from '@tanstack/react-table';
import { useEffect, useState } from 'react';

function useRemembered<T extends Record<string, unknown>>(storageKey: string, compact: (value: T) => T) {
  const [value, setValue] = useState<T>({} as T);
  useEffect(() => {
    try {
      const stored = window.localStorage.getItem(storageKey);
      setValue(stored ? (JSON.parse(stored) as T) : ({} as T));
    } catch {
      setValue({} as T);
    }
  }, [storageKey]);
  const update = (next: T) => {
    const kept = compact(next);
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
