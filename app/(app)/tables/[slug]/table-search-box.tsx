'use client';

/** The toolbar's search field: searches after a pause in typing, at once on Enter; Escape clears it. */
import { useEffect, useRef, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { CloseIcon, SearchIcon } from '@/app/ui/icons';

const searchDelayMs = 300;

export function SearchBox({ value, onChange }: { value: string; onChange: (q: string) => void }) {
  const { t } = useI18n();
  const [text, setText] = useState(value);
  const last = useRef(value);
  const changed = useRef(onChange);
  changed.current = onChange;

  // The address or a "clear" elsewhere changed the search: show it.
  useEffect(() => {
    if (value !== last.current) {
      last.current = value;
      setText(value);
    }
  }, [value]);

  useEffect(() => {
    if (text === last.current) return;
    const timer = setTimeout(() => {
      last.current = text;
      changed.current(text);
    }, searchDelayMs);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    <div className="relative w-full sm:w-64">
      <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-muted" />
      <input
        type="search"
        role="searchbox"
        aria-label={t.tables.toolbar.search}
        placeholder={t.tables.toolbar.searchPlaceholder}
        data-testid="table-search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            last.current = text;
            onChange(text);
          } else if (event.key === 'Escape' && text) {
            event.preventDefault();
            setText('');
            last.current = '';
            onChange('');
          }
        }}
        className="block h-9 w-full rounded-md border border-line-strong bg-surface pr-8 pl-8 text-sm shadow-xs placeholder:text-muted/70 focus-visible:border-brand focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand/30 [&::-webkit-search-cancel-button]:hidden"
      />
      {text ? (
        <button
          type="button"
          aria-label={t.tables.toolbar.clearSearch}
          className="absolute top-1/2 right-1.5 flex size-6 -translate-y-1/2 items-center justify-center rounded text-muted hover:bg-subtle hover:text-fg"
          onClick={() => {
            setText('');
            last.current = '';
            onChange('');
          }}
        >
          <CloseIcon size={14} />
        </button>
      ) : null}
    </div>
  );
}
