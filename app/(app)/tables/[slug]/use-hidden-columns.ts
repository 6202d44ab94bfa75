'use client';

import type { VisibilityState } from '@tanstack/react-table';
import { useEffect, useState } from 'react';

/** Hidden columns per table, remembered in this browser. */
export function useHiddenColumns(tableId: string) {
  const storageKey = `mailflow:tables:${tableId}:hidden`;
  const [hidden, setHidden] = useState<VisibilityState>({});
  useEffect(() => {
    try {
      const stored = window.localStorage.getItem(storageKey);
      setHidden(stored ? (JSON.parse(stored) as VisibilityState) : {});
    } catch {
      setHidden({});
    }
  }, [storageKey]);
  const update = (next: VisibilityState) => {
    const compact = Object.fromEntries(Object.entries(next).filter(([, visible]) => visible === false));
    setHidden(compact);
    try {
      window.localStorage.setItem(storageKey, JSON.stringify(compact));
    } catch {
      // private mode: remembered for this visit only
    }
  };
  return [hidden, update] as const;
}
