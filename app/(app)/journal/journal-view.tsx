'use client';

/**
 * The message journal: each new mail of the member's mailboxes, newest first, with what came of it
 * (workflows started, or why none: no match, an exclusion, a guardrail) and the rule that decided.
 * Filtered by outcome, mailbox and time window, all in the URL (the dashboard's mail figures link here);
 * pages by cursor. The per-message "why" (issue 19) is the webmail's automation panel; this is the list.
 */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useMemo, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { formatDateTime, formatListDate } from '@/app/lib/format';
import { StatusBadge, type BadgeTone } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { Select } from '@/app/ui/field';
import { ListIcon } from '@/app/ui/icons';
import { PageHeader } from '@/app/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { LoadMoreFooter } from '@/app/ui/load-more';
import { WindowChip } from '../executions/_components/window-chip';
import { noWindow } from '../executions/_lib/time-window';
import { conversationHref } from '../messages/_lib/links';
import { useMailboxes } from '../settings/mailboxes/_lib/api';
import { useJournalEntries, type JournalEntry } from './_lib/api';
import {
  isJournalFiltered,
  journalOutcomes,
  noJournalFilters,
  queryOfJournalFilters,
  ruleKeyOf,
  searchOfJournalFilters,
  type JournalFilterState,
  type JournalOutcome,
} from './_lib/filters';

const outcomeTone: Record<JournalOutcome, BadgeTone> = {
  dispatched: 'success',
  unmatched: 'neutral',
  guardrail: 'warning',
  excluded_member: 'brand',
  excluded_org: 'brand',
};

function RuleText({ ruleRef }: { ruleRef: string | null }) {
  const { t } = useI18n();
  const rule = ruleKeyOf(ruleRef);
  if (!rule) return <span className="text-muted">—</span>;
  if ('raw' in rule) return <span className="text-muted">{t.journal.otherRule}</span>;
  return <span title={ruleRef ?? undefined}>{t.journal.rules[rule.key] ?? t.journal.otherRule}</span>;
}


function EntryRow({ entry, mailbox }: { entry: JournalEntry; mailbox: string | null }) {
  const { t, locale } = useI18n();
  const j = t.journal;
  const gone = entry.subject === null && entry.fromEmail === null;
  return (
    <TR data-testid="journal-entry" data-outcome={entry.outcome}>
      <TD className="whitespace-nowrap text-muted" title={formatDateTime(entry.createdAt, locale)}>
        {formatListDate(entry.createdAt, locale)}
      </TD>
      <TD className="max-w-56">
        <span className={mailbox ? 'block truncate' : 'block truncate text-muted italic'}>{mailbox ?? j.removedMailbox}</span>
      </TD>
      <TD className="max-w-96">
        {gone ? (
          <span className="text-muted italic">{j.gone}</span>
        ) : (
          <span className="block min-w-0">
            {entry.threadId ? (
              <Link href={conversationHref(entry.mailboxId, entry.threadId)} className="block truncate font-medium hover:underline" data-testid="journal-message-link">
                {entry.subject || j.noSubject}
              </Link>
            ) : (
              <span className="block truncate font-medium">{entry.subject || j.noSubject}</span>
            )}
            {entry.fromEmail ? <span className="block truncate text-xs text-muted">{j.fromSender(entry.fromEmail)}</span> : null}
          </span>
        )}
      </TD>
      <TD className="whitespace-nowrap">
        <StatusBadge tone={outcomeTone[entry.outcome]}>
          <span data-testid="journal-outcome">{j.outcomes[entry.outcome] ?? entry.outcome}</span>
        </StatusBadge>
      </TD>
      <TD className="whitespace-nowrap text-sm">
        <RuleText ruleRef={entry.ruleRef} />
      </TD>
    </TR>
  );
}

function Filters({ filters, onChange, mailboxes }: { filters: JournalFilterState; onChange: (next: JournalFilterState) => void; mailboxes: { id: string; address: string }[] }) {
  const { t } = useI18n();
  const f = t.journal.filters;
  const unknownMailbox = filters.mailboxId && !mailboxes.some((mailbox) => mailbox.id === filters.mailboxId);
  return (
    <form role="search" aria-label={f.label} className="mb-4 flex flex-wrap items-end gap-2" onSubmit={(event) => event.preventDefault()}>
      <label className="w-56">
        <span className="sr-only">{f.outcome}</span>
        <Select controlSize="sm" value={filters.outcome} onChange={(event) => onChange({ ...filters, outcome: event.target.value as JournalOutcome | '' })} data-testid="journal-outcome-filter">
          <option value="">{f.anyOutcome}</option>
          {journalOutcomes.map((outcome) => (
            <option key={outcome} value={outcome}>
              {t.journal.outcomes[outcome]}
            </option>
          ))}
        </Select>
      </label>
      <label className="w-56">
        <span className="sr-only">{f.mailbox}</span>
        <Select controlSize="sm" value={filters.mailboxId} onChange={(event) => onChange({ ...filters, mailboxId: event.target.value })} data-testid="journal-mailbox-filter">
          <option value="">{f.anyMailbox}</option>
          {mailboxes.map((mailbox) => (
            <option key={mailbox.id} value={mailbox.id}>
              {mailbox.address}
            </option>
          ))}
          {unknownMailbox ? <option value={filters.mailboxId}>{t.journal.removedMailbox}</option> : null}
        </Select>
      </label>
      <WindowChip window={filters} onClear={() => onChange({ ...filters, ...noWindow })} />
      {isJournalFiltered(filters) ? (
        <Button size="sm" variant="ghost" onClick={() => onChange(noJournalFilters)}>
          {f.clear}
        </Button>
      ) : null}
    </form>
  );
}

export function JournalView({ initialFilters }: { initialFilters: JournalFilterState }) {
  const { t } = useI18n();
  const j = t.journal;
  const router = useRouter();
  const [filters, setFilters] = useState(initialFilters);
  // A link to this page from this page (the nav) brings the URL's filters: they replace the current ones.
  const [linked, setLinked] = useState(() => searchOfJournalFilters(initialFilters));
  if (searchOfJournalFilters(initialFilters) !== linked) {
    setLinked(searchOfJournalFilters(initialFilters));
    setFilters(initialFilters);
  }
  const pages = useJournalEntries(queryOfJournalFilters(filters));
  const mailboxes = useMailboxes();
  const addresses = useMemo(() => new Map((mailboxes.data ?? []).map((mailbox) => [mailbox.id, mailbox.address])), [mailboxes.data]);
  const entries = pages.data?.pages.flatMap((page) => page.entries) ?? [];
  const filtered = isJournalFiltered(filters);

  function changeFilters(next: JournalFilterState) {
    setFilters(next);
    router.replace(`/journal${searchOfJournalFilters(next)}`, { scroll: false });
  }

  return (
    <>
      <PageHeader title={j.title} description={j.description} />
      <Filters filters={filters} onChange={changeFilters} mailboxes={mailboxes.data ?? []} />
      {pages.isPending ? (
        <LoadingState />
      ) : !pages.data ? (
        <ErrorState error={pages.error} onRetry={() => pages.refetch()} testId="journal-error" />
      ) : entries.length === 0 ? (
        <EmptyState icon={<ListIcon size={18} />} title={filtered ? j.emptyFiltered.title : j.empty.title} body={filtered ? j.emptyFiltered.body : j.empty.body} />
      ) : (
        <>
          <Table caption={j.title}>
            <THead>
              <TH>{j.columns.date}</TH>
              <TH>{j.columns.mailbox}</TH>
              <TH>{j.columns.message}</TH>
              <TH>{j.columns.outcome}</TH>
              <TH>{j.columns.rule}</TH>
            </THead>
            <TBody>
              {entries.map((entry) => (
                <EntryRow key={entry.id} entry={entry} mailbox={addresses.get(entry.mailboxId) ?? (mailboxes.isPending ? '' : null)} />
              ))}
            </TBody>
          </Table>
          <LoadMoreFooter pages={pages} end={j.end} errorTestId="journal-more-error" />
        </>
      )}
    </>
  );
}
