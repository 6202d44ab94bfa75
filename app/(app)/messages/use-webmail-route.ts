'use client';

/**
 * Where the webmail is, in the URL (`/messages?mailbox=…&folder=…&thread=…`): links can be shared,
 * reloads keep the place, and the browser's Back closes an open thread (small screens show one pane).
 */
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback } from 'react';

export interface WebmailRoute {
  mailboxId: string | null;
  folder: string;
  threadId: string | null;
}

export function useWebmailRoute() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const route: WebmailRoute = {
    mailboxId: params.get('mailbox') || null,
    folder: params.get('folder') || 'inbox',
    threadId: params.get('thread') || null,
  };

  const go = useCallback(
    (next: Partial<WebmailRoute>, mode: 'push' | 'replace' = 'replace') => {
      const merged = { mailboxId: params.get('mailbox') || null, folder: params.get('folder') || 'inbox', threadId: params.get('thread') || null, ...next };
      const query = new URLSearchParams();
      if (merged.mailboxId) query.set('mailbox', merged.mailboxId);
      if (merged.folder !== 'inbox') query.set('folder', merged.folder);
      if (merged.threadId) query.set('thread', merged.threadId);
      const url = query.size > 0 ? `${pathname}?${query.toString()}` : pathname;
      if (mode === 'push') router.push(url, { scroll: false });
      else router.replace(url, { scroll: false });
    },
    [params, pathname, router],
  );

  return { route, go };
}
