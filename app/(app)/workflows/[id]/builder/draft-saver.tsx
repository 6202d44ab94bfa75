'use client';

/**
 * Lets the page's other actions (publish, the header's test run) save the builder's pending edit
 * first: the builder registers its `flush`, the actions call `useSaveDraft()`. Without a builder on
 * the page there is nothing pending, and the draft on the server is what they act on.
 */
import { createContext, useContext, useEffect, useRef, type ReactNode, type RefObject } from 'react';

type Flush = () => Promise<boolean>;

const DraftSaver = createContext<RefObject<Flush | null> | null>(null);

export function DraftSaverProvider({ children }: { children: ReactNode }) {
  const flush = useRef<Flush | null>(null);
  return <DraftSaver.Provider value={flush}>{children}</DraftSaver.Provider>;
}

export function useRegisterDraftSaver(flush: Flush): void {
  const holder = useContext(DraftSaver);
  useEffect(() => {
    if (!holder) return;
    holder.current = flush;
  });
  useEffect(
    () => () => {
      if (holder) holder.current = null;
    },
    [holder],
  );
}

/** Saves the builder's pending edit; true when the server's draft is the editor's (or there is no builder). */
export function useSaveDraft(): Flush {
  const holder = useContext(DraftSaver);
  return () => (holder?.current ? holder.current() : Promise.resolve(true));
}
