'use client';

/**
 * The footer of a list read by cursor: "Load more" while there is a next page ("Loading more…" while it
 * comes), the error of a next page that failed with a retry (when `errorTestId` is given), and the list's
 * own end text when everything is shown.
 */
import type { ReactNode } from 'react';
import { useI18n } from '@/app/i18n/client';
import { Button } from './button';
import { ErrorState } from './states';

/** What the footer reads of an infinite query (TanStack Query's `useInfiniteQuery` result). */
export interface NextPages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  error: unknown;
  fetchNextPage: () => unknown;
}

export function LoadMoreFooter({
  pages,
  end,
  errorTestId,
  className = 'mt-4 flex justify-center',
  endClassName = 'text-xs text-muted',
  compact = false,
}: {
  pages: NextPages;
  /** Shown once every page is read. */
  end: ReactNode;
  /** The failed next page's alert (without it, a failed page leaves the button to try again). */
  errorTestId?: string;
  className?: string;
  endClassName?: string;
  /** A small ghost button (panels and side lists). */
  compact?: boolean;
}) {
  const { t } = useI18n();
  return (
    <div className={className}>
      {errorTestId && pages.isFetchNextPageError ? (
        <ErrorState error={pages.error} onRetry={() => void pages.fetchNextPage()} testId={errorTestId} />
      ) : pages.hasNextPage ? (
        <Button size={compact ? 'sm' : 'md'} variant={compact ? 'ghost' : 'secondary'} onClick={() => void pages.fetchNextPage()} loading={pages.isFetchingNextPage}>
          {pages.isFetchingNextPage ? t.common.loadingMore : t.common.loadMore}
        </Button>
      ) : (
        <p className={endClassName}>{end}</p>
      )}
    </div>
  );
}
