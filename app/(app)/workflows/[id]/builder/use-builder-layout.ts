'use client';

/**
 * How the builder uses the window: the canvas alone over the whole window (the app's header and
 * side navigation covered), and the palette and the inspector panel shown or collapsed. Remembered
 * in this browser (localStorage), for every workflow.
 */
import { useCallback, useEffect, useState } from 'react';

export interface BuilderLayout {
  fullWindow: boolean;
  palette: boolean;
  panel: boolean;
}

export const builderLayoutKey = 'mailflow.builder.layout';
export const defaultBuilderLayout: BuilderLayout = { fullWindow: false, palette: true, panel: true };

export function readBuilderLayout(stored: string | null): BuilderLayout {
  if (!stored) return defaultBuilderLayout;
  try {
    const value = JSON.parse(stored) as Partial<Record<keyof BuilderLayout, unknown>>;
    const flag = (key: keyof BuilderLayout) => (typeof value[key] === 'boolean' ? (value[key] as boolean) : defaultBuilderLayout[key]);
    return { fullWindow: flag('fullWindow'), palette: flag('palette'), panel: flag('panel') };
  } catch {
    return defaultBuilderLayout;
  }
}

export function useBuilderLayout(): [BuilderLayout, (part: keyof BuilderLayout) => void] {
  const [layout, setLayout] = useState<BuilderLayout>(defaultBuilderLayout);
  // Read after mount: the server renders the default, the browser's choice follows at once.
  useEffect(() => setLayout(readBuilderLayout(window.localStorage.getItem(builderLayoutKey))), []);
  const toggle = useCallback((part: keyof BuilderLayout) => {
    setLayout((current) => {
      const next = { ...current, [part]: !current[part] };
      try {
        window.localStorage.setItem(builderLayoutKey, JSON.stringify(next));
      } catch {
        // Storage full or refused: the choice holds for this visit.
      }
      return next;
    });
  }, []);
  return [layout, toggle];
}
