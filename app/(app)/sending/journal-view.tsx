'use client';

/**
 * The sending journal: each send attempt with its result, provider message id and error, each
 * rejection with its reason, holds, releases and verdicts on unknown sends, newest first, filtered by
 * mailbox and event; pages by cursor. Follows `outbound.changed` live events (every 30 s without them).
 */
import Link from 'next/link';
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { formatDateTime, formatListDate } from '@/app/lib/format';
import { Badge, StatusBadge, type BadgeTone } from '@/app/ui/badge';
import { Button, buttonClasses } from '@/app/ui/button';
import { Select } from '@/app/ui/field';
import { SendIcon } from '@/app/ui/icons';
import { PageHeader } from '@/app/ui/page-header';
import { HoldsBanner } from './holds-banner';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { LoadMoreFooter } from '@/app/ui/load-more';
import { useJournalPages, useMailboxChoices, useReviewLiveRefresh, type JournalEntry } from '../review/_lib/api';

const events = ['attempt', 'rejected', 'cancelled', 'held', 'released', 'resolved'] as const;

const eventTone: Record<JournalEntry['event'], BadgeTone> = { attempt: 'brand', rejected: 'danger', cancelled: 'neutral', held: 'warning', released: 'success', resolved: 'neutral' };

function outcomeTone(entry: JournalEntry): BadgeTone {
  if (entry.result === 'done') return 'success';
  if (entry.result === 'failed') return 'danger';
  if (entry.result === 'unknown') return 'warning';
  return 'neutral';
}

function EntryRow({ entry }: { entry: JournalEntry }) {
  const { t, locale } = useI18n();
  const s = t.sending;
  const details = [
    entry.providerMessageId ? s.providerId(entry.providerMessageId) : null,
    entry.errorKind ? `${entry.errorKind}${entry.errorMessage ? `: ${entry.errorMessage}` : ''}` : null,
    entry.event === 'rejected' ? (entry.reason ? s.reason(entry.reason) : s.noReason) : entry.reason ? s.reason(entry.reason) : null,
  ].filter(Boolean);
  return (
    <TR data-testid="journal-row" data-event={entry.event}>
      <TD className="whitespace-nowrap text-muted" title={formatDateTime(entry.createdAt, locale)}>
        {formatListDate(entry.createdAt, locale)}
      </TD>
      <TD className="whitespace-nowrap">
        <StatusBadge tone={eventTone[entry.event]}>{entry.event === 'attempt' && entry.attempt ? s.attempt(entry.attempt) : s.events[entry.event]}</StatusBadge>
      </TD>
      <TD className="max-w-96">
        <span className="block truncate font-medium">{entry.subject || t.review.noSubject}</span>
        <span className="block truncate text-xs text-muted">{entry.recipients.join(', ') || t.review.noRecipient}</span>
      </TD>
      <TD className="max-w-96">
        {entry.result ? <Badge tone={outcomeTone(entry)}>{s.results[entry.result] ?? entry.result}</Badge> : null}
        {details.length ? <span className="mt-0.5 block text-xs break-words text-muted">{details.join(' · ')}</span> : null}
      </TD>
    </TR>
  );
}

export function SendingJournalView() {
  const { t } = useI18n();
  const s = t.sending;
  const live = useReviewLiveRefresh();
  const [mailboxId, setMailboxId] = useState('');
  const [event, setEvent] = useState<JournalEntry['event'] | ''>('');
  const pages = useJournalPages({ mailboxId: mailboxId || undefined, event: event || undefined }, live);
  const mailboxes = useMailboxChoices();
  const entries = pages.data?.pages.flatMap((page) => page.entries) ?? [];
  const filtered = Boolean(mailboxId || event);
  return (
    <>
      <PageHeader
        title={s.title}
        description={s.description}
        actions={
          <Link href="/review" className={buttonClasses('secondary', 'sm')}>
            {s.backToReview}
          </Link>
        }
      />
      <div className="mb-4 empty:hidden">
        <HoldsBanner />
      </div>
      <form role="search" aria-label={s.filters.label} className="mb-4 flex flex-wrap items-end gap-2" onSubmit={(e) => e.preventDefault()}>
        <label className="w-56">
          <span className="sr-only">{s.filters.mailbox}</span>
          <Select controlSize="sm" value={mailboxId} onChange={(e) => setMailboxId(e.target.value)} data-testid="journal-mailbox-filter">
            <option value="">{s.filters.anyMailbox}</option>
            {(mailboxes.data?.mailboxes ?? []).map((mailbox) => (
              <option key={mailbox.id} value={mailbox.id}>
                {mailbox.address}
              </option>
            ))}
          </Select>
        </label>
        <label className="w-44">
          <span className="sr-only">{s.filters.event}</span>
          <Select controlSize="sm" value={event} onChange={(e) => setEvent(e.target.value as JournalEntry['event'] | '')} data-testid="journal-event-filter">
            <option value="">{s.filters.anyEvent}</option>
            {events.map((value) => (
              <option key={value} value={value}>
                {s.events[value]}
              </option>
            ))}
          </Select>
        </label>
        {filtered ? (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              setMailboxId('');
              setEvent('');
            }}
          >
            {s.filters.clear}
          </Button>
        ) : null}
      </form>
      {pages.isPending ? (
        <LoadingState />
      ) : !pages.data ? (
        <ErrorState error={pages.error} onRetry={() => pages.refetch()} testId="journal-error" />
      ) : entries.length === 0 ? (
        <EmptyState icon={<SendIcon size={18} />} title={filtered ? s.emptyFiltered.title : s.empty.title} body={filtered ? s.emptyFiltered.body : s.empty.body} />
      ) : (
        <>
          <Table caption={s.title}>
            <THead>
              <TH>{s.columns.when}</TH>
              <TH>{s.columns.event}</TH>
              <TH>{s.columns.message}</TH>
              <TH>{s.columns.outcome}</TH>
            </THead>
            <TBody>
              {entries.map((entry) => (
                <EntryRow key={entry.id} entry={entry} />
              ))}
            </TBody>
          </Table>
          <LoadMoreFooter pages={pages} end={s.end} errorTestId="journal-more-error" />
        </>
      )}
    </>
  );
}
