'use client';

/** The thread column: search (in this folder or everywhere), filter chips, the list by cursor. */
import { useEffect, useState, type ReactNode } from 'react';
import { useI18n } from '@/app/i18n/client';
import { threadFilters, type Thread, type ThreadFilter } from '@/app/lib/mail-types';
import { useInfiniteScroll } from '@/app/lib/use-infinite-scroll';
import { cn } from '@/app/ui/cn';
import { Checkbox, Input } from '@/app/ui/field';
import { CloseIcon, MailIcon, SearchIcon } from '@/app/ui/icons';
import { Spinner } from '@/app/ui/spinner';
import { ErrorState } from '@/app/ui/states';
import { LoadMoreFooter } from '@/app/ui/load-more';
import { ThreadRow } from './thread-row';

export interface ThreadListState {
  threads: Thread[] | undefined;
  error: unknown;
  isFetchingNextPage: boolean;
  hasNextPage: boolean;
  isFetchNextPageError: boolean;
  isRefreshing: boolean;
  fetchNextPage: () => void;
  refetch: () => void;
}

export function SearchBox({ value, onChange }: { value: string; onChange: (q: string) => void }) {
  const { t } = useI18n();
  const [text, setText] = useState(value);
  // Follow outside changes (folder switch clears the search).
  useEffect(() => setText(value), [value]);
  // Search as the member types, once they pause.
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => onChange(text), 300);
    return () => clearTimeout(timer);
  }, [text, value, onChange]);
  return (
    <form
      role="search"
      className="relative"
      onSubmit={(event) => {
        event.preventDefault();
        onChange(text);
      }}
    >
      <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-muted" />
      <label htmlFor="webmail-search" className="sr-only">
        {t.webmail.search}
      </label>
      <Input
        id="webmail-search"
        // Text, not `search`: the browser's own clear cross would sit beside ours (one clear button, ours).
        type="text"
        role="searchbox"
        inputMode="search"
        enterKeyHint="search"
        autoComplete="off"
        controlSize="sm"
        className="pr-8 pl-8"
        placeholder={t.webmail.searchPlaceholder}
        maxLength={200}
        value={text}
        data-shortcut-search=""
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && text) {
            event.stopPropagation();
            setText('');
            onChange('');
          }
        }}
      />
      {text ? (
        <button
          type="button"
          aria-label={t.webmail.clearSearch}
          className="absolute top-1/2 right-2 -translate-y-1/2 rounded text-muted hover:text-fg"
          onClick={() => {
            setText('');
            onChange('');
          }}
        >
          <CloseIcon size={14} />
        </button>
      ) : null}
    </form>
  );
}

export function ThreadListPane({
  title,
  titleActions,
  header,
  q,
  onSearch,
  filter,
  onFilter,
  searchEverywhere,
  onSearchEverywhere,
  list,
  selectedId,
  onOpen,
}: {
  title: string;
  titleActions?: ReactNode;
  header?: ReactNode;
  q: string;
  onSearch: (q: string) => void;
  filter: ThreadFilter;
  onFilter: (filter: ThreadFilter) => void;
  searchEverywhere: boolean;
  onSearchEverywhere: (value: boolean) => void;
  list: ThreadListState;
  selectedId: string | null;
  onOpen: (id: string) => void;
}) {
  const { t } = useI18n();
  const w = t.webmail;
  const sentinel = useInfiniteScroll<HTMLLIElement>({
    enabled: list.hasNextPage && !list.isFetchingNextPage && !list.isFetchNextPageError,
    onReach: list.fetchNextPage,
  });
  const threads = list.threads;

  return (
    <section aria-label={w.threadList} className="flex min-h-0 flex-col">
      <div className="shrink-0 space-y-2 border-b border-line p-3">
        {header}
        <div className="flex items-center gap-2">
          <h1 className="min-w-0 flex-1 truncate text-base font-semibold">{title}</h1>
          {list.isRefreshing ? (
            <span role="status" className="text-muted">
              <Spinner />
              <span className="sr-only">{t.common.loading}</span>
            </span>
          ) : null}
          {titleActions}
        </div>
        <SearchBox value={q} onChange={onSearch} />
        <label className={cn('flex items-center gap-2 text-xs', q.trim() ? 'text-fg' : 'text-muted')}>
          <Checkbox checked={searchEverywhere} onChange={(event) => onSearchEverywhere(event.target.checked)} />
          {w.searchEverywhere}
        </label>
        <div role="group" aria-label={w.filterLabel} className="flex flex-wrap gap-1">
          {threadFilters.map((value) => (
            <button
              key={value}
              type="button"
              aria-pressed={filter === value}
              onClick={() => onFilter(value)}
              className={cn(
                'h-7 rounded-full border px-2.5 text-xs font-medium transition-colors',
                filter === value ? 'border-brand/40 bg-brand/10 text-brand-fg' : 'border-line-strong text-muted hover:bg-subtle hover:text-fg',
              )}
            >
              {w.filters[value]}
            </button>
          ))}
        </div>
      </div>

      <div className="min-h-0 flex-1 overflow-y-auto" data-testid="thread-list">
        {threads === undefined ? (
          list.error ? (
            <div className="p-3">
              <ErrorState error={list.error} onRetry={list.refetch} testId="threads-error" />
            </div>
          ) : (
            <div role="status" data-testid="threads-loading">
              <span className="sr-only">{t.common.loading}</span>
              {Array.from({ length: 8 }, (_, i) => (
                <div key={i} className="space-y-1.5 border-b border-line px-4 py-3">
                  <div className="h-3 w-1/2 animate-pulse rounded bg-subtle" />
                  <div className="h-3 w-4/5 animate-pulse rounded bg-subtle" />
                </div>
              ))}
            </div>
          )
        ) : threads.length === 0 ? (
          <div className="flex flex-col items-center px-6 py-14 text-center" data-testid="threads-empty">
            <div className="mb-3 flex size-10 items-center justify-center rounded-full bg-brand/10 text-brand-fg">
              <MailIcon size={18} />
            </div>
            <p className="text-sm font-semibold">{q.trim() ? w.emptySearch.title : w.empty.title}</p>
            <p className="mt-1 max-w-xs text-sm text-muted">{q.trim() ? w.emptySearch.body(searchEverywhere) : filter === 'all' ? w.empty.body : w.empty.bodyFiltered}</p>
          </div>
        ) : (
          <>
            <ul aria-label={title}>
              {threads.map((thread) => (
                <ThreadRow key={thread.id} thread={thread} selected={thread.id === selectedId} onOpen={onOpen} />
              ))}
              <li ref={sentinel} aria-hidden="true" className="h-px" />
            </ul>
            <LoadMoreFooter pages={list} end={w.end} errorTestId="threads-more-error" className="flex justify-center p-3" compact />
          </>
        )}
      </div>
    </section>
  );
}
