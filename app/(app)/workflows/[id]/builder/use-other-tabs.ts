'use client';

/**
 * Another tab or window of this browser editing the same workflow: announced over a
 * BroadcastChannel so the member knows before a save conflicts (the server's draft revision still
 * guards against other browsers and programs).
 */
import { useEffect, useState } from 'react';

type Message = { kind: 'hello' | 'here' | 'bye'; workflowId: string; tabId: string };

export function useOtherTabs(workflowId: string): boolean {
  const [others, setOthers] = useState<Set<string>>(new Set());
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const tabId = crypto.randomUUID();
    const channel = new BroadcastChannel('mailflow-builder');
    const send = (kind: Message['kind']) => channel.postMessage({ kind, workflowId, tabId } satisfies Message);
    channel.onmessage = (event: MessageEvent<Message>) => {
      const message = event.data;
      if (!message || message.workflowId !== workflowId || message.tabId === tabId) return;
      setOthers((current) => {
        const next = new Set(current);
        if (message.kind === 'bye') next.delete(message.tabId);
        else next.add(message.tabId);
        return next;
      });
      if (message.kind === 'hello') send('here');
    };
    send('hello');
    const leave = () => send('bye');
    window.addEventListener('pagehide', leave);
    return () => {
      leave();
      window.removeEventListener('pagehide', leave);
      channel.close();
    };
  }, [workflowId]);
  return others.size > 0;
}
