'use client';

/**
 * The address book (issue 22): every entry the member sees with a card (the organisation's, their own,
 * their mailbox cards), newest change first, read by cursor. Search, kind and layer filters and the
 * point of view (one of the member's mailboxes: its cards count, and the resolution is the one mail
 * written from it gets). A row opens the entry: its resolution with the trace and a card editor per
 * layer. The toolbar holds import and export (`_components/import-export/`). "/" focuses the search.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { formatDateTime, formatListDate } from '@/app/lib/format';
import { Badge, StatusBadge, type BadgeTone } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { Input, Select } from '@/app/ui/field';
import { PlusIcon, SearchIcon, UsersIcon } from '@/app/ui/icons';
import { LoadMoreFooter } from '@/app/ui/load-more';
import { PageHeader } from '@/app/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import type { ContactStatus } from '@/server/domains/contacts/resolve';
import { useMe } from '../_shell/_lib/api';
import { useMailboxes } from '../settings/mailboxes/_lib/api';
import { useContactPages, type ContactEntry } from './_lib/api';
import { isContactListFiltered, noContactFilters, queryOfContactFilters, type ContactFilters } from './_lib/filters';
import { EntryDialog, type EntryOpening } from './entry-dialog';
import { NewCardDialog } from './new-card-dialog';
import { ContactsImportExport } from './_components/import-export/contacts-import-export';

const statusTones: Record<ContactStatus, BadgeTone> = { customer: 'success', prospect: 'neutral', supplier: 'neutral', partner: 'brand', vip: 'warning', blocked: 'danger' };

/** The newest change of the entry's cards the member sees. */
function lastUpdate(entry: ContactEntry): string {
  const times = [entry.shared?.updatedAt, entry.member?.updatedAt, ...entry.memberByMailbox.map((card) => card.updatedAt)].filter((time): time is string => Boolean(time));
  return times.sort().at(-1) ?? '';
}

function EntryRow({ entry, onOpen }: { entry: ContactEntry; onOpen: () => void }) {
  const { t, locale } = useI18n();
  const c = t.contacts;
  const { resolved } = entry;
  const writing = [resolved.formality ? c.formalities[resolved.formality] : null, resolved.tone ? c.tones[resolved.tone] : null, resolved.language].filter(Boolean).join(' · ');
  const updated = lastUpdate(entry);
  return (
    <TR data-testid="contact-row" data-value={entry.value}>
      <TD className="max-w-80">
        <button type="button" onClick={onOpen} aria-label={c.openLabel(entry.value)} className="block min-w-0 text-left hover:underline focus-visible:outline-2 focus-visible:outline-brand">
          <span className="block truncate font-mono text-[13px]" title={entry.value}>
            {entry.value}
          </span>
          {resolved.displayName ? <span className="block truncate text-xs text-muted">{resolved.displayName}</span> : null}
        </button>
        <span className="sr-only">{c.kinds[entry.kind]}</span>
      </TD>
      <TD className="whitespace-nowrap">
        <Badge tone="neutral" aria-hidden="true" className="mr-2">
          {c.kinds[entry.kind]}
        </Badge>
        {resolved.status ? <StatusBadge tone={statusTones[resolved.status]}>{c.statuses[resolved.status]}</StatusBadge> : null}
      </TD>
      <TD>
        <span className="flex flex-wrap gap-1">
          {entry.shared ? <Badge tone="brand">{c.badges.shared}</Badge> : null}
          {entry.member ? <Badge tone="success">{c.badges.mine}</Badge> : null}
          {entry.memberByMailbox.length > 0 ? <Badge tone="neutral">{c.badges.mailbox(entry.memberByMailbox.length)}</Badge> : null}
        </span>
      </TD>
      <TD className="whitespace-nowrap text-sm">{writing || <span className="text-muted">—</span>}</TD>
      <TD className="whitespace-nowrap text-muted" title={updated ? formatDateTime(updated, locale) : undefined}>
        {updated ? formatListDate(updated, locale) : '—'}
      </TD>
    </TR>
  );
}

function Filters({ filters, onChange, mailboxes }: { filters: ContactFilters; onChange: (next: ContactFilters) => void; mailboxes: { id: string; address: string }[] }) {
  const { t } = useI18n();
  const c = t.contacts;
  const f = c.filters;
  const [text, setText] = useState(filters.q);
  const search = useRef<HTMLInputElement>(null);
  const latest = useRef(filters);
  latest.current = filters;

  // The search applies 300 ms after the last key (Enter applies at once).
  useEffect(() => {
    if (text === latest.current.q) return;
    const timer = setTimeout(() => onChange({ ...latest.current, q: text }), 300);
    return () => clearTimeout(timer);
  }, [text, onChange]);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      const target = event.target as HTMLElement | null;
      if (event.key !== '/' || event.metaKey || event.ctrlKey || event.altKey) return;
      if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
      event.preventDefault();
      search.current?.focus();
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <form
      role="search"
      aria-label={f.label}
      className="mb-4 flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        onChange({ ...filters, q: text });
      }}
    >
      <label className="relative w-72">
        <span className="sr-only">{f.search}</span>
        <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-muted" />
        <Input ref={search} type="search" controlSize="sm" className="pl-8" value={text} placeholder={f.searchPlaceholder} onChange={(event) => setText(event.target.value)} data-testid="contacts-search" />
      </label>
      <label className="w-52">
        <span className="sr-only">{f.kind}</span>
        <Select controlSize="sm" value={filters.kind} onChange={(event) => onChange({ ...filters, kind: event.target.value as ContactFilters['kind'] })} data-testid="contacts-kind">
          <option value="">{f.anyKind}</option>
          <option value="contact">{c.kinds.contact}</option>
          <option value="domain">{c.kinds.domain}</option>
        </Select>
      </label>
      <label className="w-52">
        <span className="sr-only">{f.layer}</span>
        <Select controlSize="sm" value={filters.layer} onChange={(event) => onChange({ ...filters, layer: event.target.value as ContactFilters['layer'] })} data-testid="contacts-layer">
          <option value="all">{c.layers.all}</option>
          <option value="shared">{c.layers.shared}</option>
          <option value="member">{c.layers.member}</option>
        </Select>
      </label>
      {mailboxes.length > 0 ? (
        <label className="w-64">
          <span className="sr-only">{f.mailbox}</span>
          <Select controlSize="sm" value={filters.mailboxId} onChange={(event) => onChange({ ...filters, mailboxId: event.target.value })} data-testid="contacts-mailbox">
            <option value="">{f.noMailbox}</option>
            {mailboxes.map((mailbox) => (
              <option key={mailbox.id} value={mailbox.id}>
                {f.mailboxOption(mailbox.address)}
              </option>
            ))}
          </Select>
        </label>
      ) : null}
      {isContactListFiltered(filters) ? (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            setText('');
            onChange(noContactFilters);
          }}
        >
          {f.clear}
        </Button>
      ) : null}
    </form>
  );
}

export function ContactsView() {
  const { t } = useI18n();
  const c = t.contacts;
  const me = useMe();
  const isAdmin = me.data?.role === 'admin';
  const mailboxes = useMailboxes();
  const mailboxList = useMemo(() => mailboxes.data ?? [], [mailboxes.data]);
  const [filters, setFilters] = useState<ContactFilters>(noContactFilters);
  // A point of view on a mailbox that is gone (removed in another tab) falls back to none.
  const mailboxId = filters.mailboxId && mailboxes.data && !mailboxList.some((mailbox) => mailbox.id === filters.mailboxId) ? '' : filters.mailboxId;
  const effective = { ...filters, mailboxId };
  const pages = useContactPages(queryOfContactFilters(effective));
  const [opening, setOpening] = useState<EntryOpening | null>(null);
  const [creating, setCreating] = useState(false);
  const entries = pages.data?.pages.flatMap((page) => page.items) ?? [];
  const filtered = isContactListFiltered(effective);

  return (
    <>
      <PageHeader
        title={c.title}
        description={c.description}
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <ContactsImportExport canWriteShared={isAdmin} />
            <Button variant="primary" onClick={() => setCreating(true)} data-testid="contacts-new">
              <PlusIcon />
              {c.add}
            </Button>
          </div>
        }
      />
      <Filters filters={effective} onChange={setFilters} mailboxes={mailboxList} />
      {pages.isPending ? (
        <LoadingState />
      ) : !pages.data ? (
        <ErrorState error={pages.error} onRetry={() => pages.refetch()} testId="contacts-error" />
      ) : entries.length === 0 ? (
        <EmptyState
          icon={<UsersIcon size={18} />}
          title={filtered ? c.emptyFiltered.title : c.empty.title}
          body={filtered ? c.emptyFiltered.body : c.empty.body}
          action={
            filtered ? undefined : (
              <Button variant="primary" onClick={() => setCreating(true)}>
                <PlusIcon />
                {c.add}
              </Button>
            )
          }
        />
      ) : (
        <>
          <Table caption={c.title}>
            <THead>
              <TH>{c.columns.entry}</TH>
              <TH>{c.columns.status}</TH>
              <TH>{c.columns.cards}</TH>
              <TH>{c.columns.writing}</TH>
              <TH>{c.columns.updated}</TH>
            </THead>
            <TBody>
              {entries.map((entry) => (
                <EntryRow
                  key={`${entry.kind}:${entry.value}`}
                  entry={entry}
                  onOpen={() => setOpening({ target: { kind: entry.kind, value: entry.value }, mailboxId, tab: mailboxId ? 'mailbox' : 'mine' })}
                />
              ))}
            </TBody>
          </Table>
          <LoadMoreFooter pages={pages} end={c.end} errorTestId="contacts-more-error" />
        </>
      )}
      <NewCardDialog
        open={creating}
        onOpenChange={setCreating}
        mailboxes={mailboxList}
        isAdmin={isAdmin}
        onChosen={(next) => {
          setCreating(false);
          setOpening(next);
        }}
      />
      <EntryDialog opening={opening} onClose={() => setOpening(null)} mailboxes={mailboxList} isAdmin={isAdmin} />
    </>
  );
}
