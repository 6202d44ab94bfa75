'use client';

/**
 * Infinite scroll: put the returned ref on a sentinel element at the end of a list; `onReach` runs
 * when the sentinel comes into view (within `margin` of the scrolling box) and `enabled` is true.
 * Lists keep a "Load more" button too, for keyboards and for browsers without IntersectionObserver.
 */
import { useEffect, useRef, useState } from 'react';

export function useInfiniteScroll<T extends Element>({
  enabled,
  onReach,
  margin = '200px',
}: {
  enabled: boolean;
  onReach: () => void;
  margin?: string;
}) {
  const [node, setNode] = useState<T | null>(null);
  const latest = useRef(onReach);
  useEffect(() => {
    latest.current = onReach;
  });

  useEffect(() => {
    if (!node || !enabled || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) latest.current();
      },
      { rootMargin: margin },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [node, enabled, margin]);

  return setNode;
}
