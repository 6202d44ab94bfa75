'use client';

/**
 * The theme as the page shows it (the root element's `data-theme`), and how to change it: the
 * attribute at once, the cookie for the next visits. Every reader (the user menu, the canvas's
 * colour mode) follows a change made anywhere, since they all read the attribute.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { isTheme, themeAttribute, themeCookie, type Theme } from './theme';

const oneYear = 60 * 60 * 24 * 365;

function readTheme(): Theme {
  const value = document.documentElement.dataset.theme;
  return isTheme(value) ? value : 'system';
}

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => observer.disconnect();
}

export function applyTheme(theme: Theme): void {
  const attribute = themeAttribute(theme);
  if (attribute) document.documentElement.dataset.theme = attribute;
  else delete document.documentElement.dataset.theme;
  document.cookie = `${themeCookie}=${theme}; path=/; max-age=${oneYear}; samesite=lax`;
}

export function useTheme(): [Theme, (theme: Theme) => void] {
  // The server's snapshot is `system`: what the client then reads replaces it right after hydration.
  const theme = useSyncExternalStore(subscribe, readTheme, () => 'system' as const);
  return [theme, useCallback((next: Theme) => applyTheme(next), [])];
}
