'use client';

/**
 * The document title carries the reader's unread support replies while there are any: "(2) Support · Brand".
 * Next sets the title on every navigation, so the count is put back whenever the <title> changes.
 */
import { useEffect } from 'react';

const countPrefix = /^\(\d+\+?\) /;

/** `title` with the count in front (or without any count at 0); an older count is replaced, never stacked. */
export function titleWithUnread(title: string, count: number): string {
  const base = title.replace(countPrefix, '');
  return count > 0 ? `(${count > 99 ? '99+' : count}) ${base}` : base;
}

export function useUnreadTitle(count: number): void {
  useEffect(() => {
    const apply = () => {
      const next = titleWithUnread(document.title, count);
      if (next !== document.title) document.title = next;
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => {
      observer.disconnect();
      const base = titleWithUnread(document.title, 0);
      if (base !== document.title) document.title = base;
    };
  }, [count]);
}
