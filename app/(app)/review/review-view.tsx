'use client';

/**
 * The morning review: the member's queue grouped by mailbox (newest first within each), a reading
 * pane for the chosen item, and the decisions (send, send selected, reject with a reason, snooze,
 * settle an unknown send). Keyboard: j/k move, s send, r reject, b snooze until tomorrow morning,
 * x select, ? the list. The queue follows `outbound.changed` live events (every 30 s without them).
 */
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { formatListDate } from '@/app/lib/format';
import { Alert } from '@/app/ui/alert';
import { Badge } from '@/app/ui/badge';
import { Button, buttonClasses } from '@/app/ui/button';
import { ConfirmDialog } from '@/app/ui/dialog';
import { Checkbox, Label, Select, Textarea } from '@/app/ui/field';
import { KeyboardIcon, ReviewIcon, SendIcon } from '@/app/ui/icons';
import { PageHeader } from '@/app/ui/page-header';
import { HoldsBanner } from '../sending/holds-banner';
import { Popover, PopoverContent, PopoverTrigger } from '@/app/ui/popover';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { cn } from '@/app/ui/cn';
import {
  newClientToken,
  snoozeUntil,
  useMailboxChoices,
  useReviewLiveRefresh,
  useReviewMutations,
  useReviewPages,
  type ReviewItem,
  type ReviewQueue,
} from './_lib/api';
import { reviewShortcuts, useReviewShortcuts, type ReviewCommand } from './_lib/shortcuts';
import { isOpen, ReadingPane, reviewTone, type Corrections } from './reading-pane';

function ShortcutsHelp({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useI18n();
  const s = t.review.shortcuts;
  return (
    <div className="relative">
      <Popover open={open} onOpenChange={onOpenChange}>
        <PopoverTrigger asChild>
          <Button size="icon" variant="ghost" aria-label={s.title} title={s.title} data-testid="review-shortcuts-button">
            <KeyboardIcon />
          </Button>
        </PopoverTrigger>
        <PopoverContent title={s.title} align="end" className="w-80">
          <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2 p-4 pt-3 text-sm" data-testid="review-shortcuts">
            {reviewShortcuts.map(({ key, command }) => (
              <div key={command} className="contents">
                <dt>
                  <kbd className="min-w-6 rounded border border-line-strong bg-subtle px-1.5 py-0.5 text-center font-mono text-xs">{key}</kbd>
                </dt>
                <dd>{s.commands[command]}</dd>
              </div>
            ))}
          </dl>
          <p className="px-4 pb-4 text-xs text-muted">{s.note}</p>
        </PopoverContent>
      </Popover>
    </div>
  );
}

/** Items grouped by mailbox, groups in the order of their newest item. */
function groupByMailbox(items: ReviewItem[]): { mailboxId: string; address: string; items: ReviewItem[] }[] {
  const groups = new Map<string, { mailboxId: string; address: string; items: ReviewItem[] }>();
  for (const item of items) {
    const group = groups.get(item.mailboxId) ?? { mailboxId: item.mailboxId, address: item.mailboxAddress, items: [] };
    group.items.push(item);
    groups.set(item.mailboxId, group);
  }
  return [...groups.values()];
}

export function ReviewView() {
  const { t, locale } = useI18n();
  const r = t.review;
  const live = useReviewLiveRefresh();
  const [queue, setQueue] = useState<ReviewQueue>('pending');
  const [mailboxId, setMailboxId] = useState('');
  const pages = useReviewPages({ mailboxId: mailboxId || undefined, status: queue }, live);
  const mailboxes = useMailboxChoices();
  const mutations = useReviewMutations();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [helpOpen, setHelpOpen] = useState(false);
  const [rejecting, setRejecting] = useState<ReviewItem | null>(null);
  const [reason, setReason] = useState('');
  const [notice, setNotice] = useState<{ tone: 'success' | 'danger'; text: string } | null>(null);

  const items = useMemo(() => pages.data?.pages.flatMap((page) => page.items) ?? [], [pages.data]);
  const groups = useMemo(() => groupByMailbox(items), [items]);
  const ordered = useMemo(() => groups.flatMap((group) => group.items), [groups]);
  const pendingCount = pages.data?.pages[0]?.pendingCount ?? 0;
  const selected = ordered.find((item) => item.id === selectedId) ?? ordered[0] ?? null;
  const busy = mutations.send.isPending || mutations.reject.isPending || mutations.snooze.isPending || mutations.resolve.isPending;
  const checkedOpen = ordered.filter((item) => checked.has(item.id) && isOpen(item));

  /** After a decision the next item (in list order) is shown. */
  function advanceFrom(item: ReviewItem) {
    const index = ordered.findIndex((candidate) => candidate.id === item.id);
    const next = ordered[index + 1] ?? ordered[index - 1] ?? null;
    setSelectedId(next && next.id !== item.id ? next.id : null);
  }

  function fail(error: unknown) {
    setNotice({ tone: 'danger', text: describeError(error, t) });
  }

  function send(item: ReviewItem, corrections?: Corrections) {
    if (!isOpen(item) || busy) return;
    mutations.send.mutate(
      { id: item.id, clientToken: newClientToken(), ...corrections },
      {
        onSuccess: () => {
          setNotice({ tone: 'success', text: r.sent });
          if (queue !== 'all') advanceFrom(item);
        },
        onError: fail,
      },
    );
  }

  function snooze(item: ReviewItem, choice: 'hours3' | 'tomorrow' | 'week') {
    if (!isOpen(item) || busy) return;
    mutations.snooze.mutate(
      { id: item.id, until: snoozeUntil(choice) },
      {
        onSuccess: () => {
          setNotice({ tone: 'success', text: r.snoozed });
          if (queue === 'pending') advanceFrom(item);
        },
        onError: fail,
      },
    );
  }

  function resolve(item: ReviewItem, verdict: 'sent' | 'resend') {
    mutations.resolve.mutate({ id: item.id, verdict }, { onSuccess: () => setNotice({ tone: 'success', text: r.resolved }), onError: fail });
  }

  function sendSelected() {
    const ids = checkedOpen.map((item) => item.id).slice(0, 50);
    if (ids.length === 0) return;
    mutations.sendMany.mutate(
      { ids, clientToken: newClientToken() },
      {
        onSuccess: (answer) => {
          setChecked(new Set());
          const skipped = answer.skipped.map((entry) => `${ordered.find((item) => item.id === entry.id)?.subject || entry.id}: ${r.skipReasons[entry.reason]}`);
          setNotice({ tone: 'success', text: [r.batchDone(answer.sent.length, answer.skipped.length), ...skipped].join(' ') });
        },
        onError: fail,
      },
    );
  }

  function toggle(id: string) {
    setChecked((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  useReviewShortcuts((command: ReviewCommand) => {
    if (command === 'help') return setHelpOpen((value) => !value);
    if (!selected) return;
    const index = ordered.findIndex((item) => item.id === selected.id);
    if (command === 'next') return setSelectedId((ordered[index + 1] ?? selected).id);
    if (command === 'previous') return setSelectedId((ordered[index - 1] ?? selected).id);
    if (command === 'toggle') return toggle(selected.id);
    if (command === 'send') return send(selected);
    if (command === 'snooze') return snooze(selected, 'tomorrow');
    if (command === 'reject' && isOpen(selected)) {
      setReason('');
      setRejecting(selected);
    }
  }, !rejecting);

  const filtered = Boolean(mailboxId);
  return (
    <>
      <PageHeader
        title={r.title}
        description={r.description}
        actions={
          <div className="flex items-center gap-2">
            {live ? (
              <Badge tone="success" className="self-center" data-testid="review-live">
                <span aria-hidden="true" className="size-1.5 animate-pulse rounded-full bg-current" />
                {r.live}
              </Badge>
            ) : null}
            <Link href="/sending" className={buttonClasses('secondary', 'sm')} data-testid="review-journal-link">
              {r.journalLink}
            </Link>
            <ShortcutsHelp open={helpOpen} onOpenChange={setHelpOpen} />
          </div>
        }
      />
      <div className="mb-4 empty:hidden">
        <HoldsBanner />
      </div>
      <div className="mb-4 flex flex-wrap items-end gap-2">
        <div role="group" aria-label={r.queueLabel} className="flex gap-1 rounded-md border border-line p-0.5">
          {(['pending', 'snoozed', 'unknown', 'all'] as const).map((value) => (
            <button
              key={value}
              type="button"
              aria-pressed={queue === value}
              data-testid={`review-queue-${value}`}
              className={cn('rounded px-2.5 py-1 text-[13px]', queue === value ? 'bg-subtle font-medium' : 'text-muted hover:text-fg')}
              onClick={() => {
                setQueue(value);
                setSelectedId(null);
                setChecked(new Set());
              }}
            >
              {r.queues[value]}
            </button>
          ))}
        </div>
        <label className="w-56">
          <span className="sr-only">{r.mailboxFilter}</span>
          <Select controlSize="sm" value={mailboxId} onChange={(event) => setMailboxId(event.target.value)} data-testid="review-mailbox-filter">
            <option value="">{r.anyMailbox}</option>
            {(mailboxes.data?.mailboxes ?? []).map((mailbox) => (
              <option key={mailbox.id} value={mailbox.id}>
                {mailbox.address}
              </option>
            ))}
          </Select>
        </label>
        <p className="text-sm text-muted" data-testid="review-pending-count">
          {r.pending(pendingCount)}
        </p>
        <div className="ml-auto">
          <Button size="sm" variant="primary" disabled={checkedOpen.length === 0} loading={mutations.sendMany.isPending} onClick={sendSelected} data-testid="review-send-selected">
            <SendIcon />
            {r.sendSelected(checkedOpen.length)}
          </Button>
        </div>
      </div>
      {notice ? (
        <Alert tone={notice.tone} testId="review-notice" className="mb-4" action={<Button size="sm" variant="ghost" onClick={() => setNotice(null)}>{t.common.close}</Button>}>
          {notice.text}
        </Alert>
      ) : null}
      {pages.isPending ? (
        <LoadingState />
      ) : !pages.data ? (
        <ErrorState error={pages.error} onRetry={() => pages.refetch()} testId="review-error" />
      ) : ordered.length === 0 ? (
        <EmptyState
          icon={<ReviewIcon size={18} />}
          title={(queue === 'snoozed' ? r.emptySnoozed : queue === 'unknown' ? r.emptyUnknown : r.empty).title}
          body={filtered ? t.sending.emptyFiltered.body : (queue === 'snoozed' ? r.emptySnoozed : queue === 'unknown' ? r.emptyUnknown : r.empty).body}
        />
      ) : (
        <div className="grid gap-4 lg:grid-cols-[minmax(18rem,26rem)_1fr]">
          <nav aria-label={r.title} className="min-w-0 space-y-4" data-testid="review-queue">
            {groups.map((group) => (
              <section key={group.mailboxId} aria-label={group.address}>
                <h2 className="mb-1.5 truncate text-xs font-semibold tracking-wide text-muted uppercase">{group.address}</h2>
                <ul className="divide-y divide-line rounded-lg border border-line">
                  {group.items.map((item) => {
                    const active = selected?.id === item.id;
                    return (
                      <li key={item.id} data-testid="review-row" data-status={item.reviewStatus} className={cn('flex items-start gap-2 px-2.5 py-2', active && 'bg-subtle')}>
                        <Checkbox
                          className="mt-1"
                          checked={checked.has(item.id)}
                          disabled={!isOpen(item)}
                          aria-label={r.select(item.subject || r.noSubject)}
                          onChange={() => toggle(item.id)}
                        />
                        <button type="button" className="min-w-0 flex-1 text-left" aria-current={active || undefined} onClick={() => setSelectedId(item.id)}>
                          <span className="flex items-center gap-2">
                            <span className="min-w-0 flex-1 truncate text-sm font-medium">{item.subject || r.noSubject}</span>
                            <span className="shrink-0 text-xs text-muted">{formatListDate(item.createdAt, locale)}</span>
                          </span>
                          <span className="flex items-center gap-2 text-xs text-muted">
                            <span className="min-w-0 flex-1 truncate">{item.recipients.join(', ') || r.noRecipient}</span>
                            {item.reviewStatus !== 'pending' ? <Badge tone={reviewTone[item.reviewStatus]}>{r.reviewStatus[item.reviewStatus]}</Badge> : null}
                            {item.sendStatus === 'unknown' ? <Badge tone="warning">{r.sendStatus.unknown}</Badge> : null}
                          </span>
                          {item.workflowName ? <span className="block truncate text-xs text-muted">{r.workflow(item.workflowName)}</span> : null}
                        </button>
                      </li>
                    );
                  })}
                </ul>
              </section>
            ))}
            {pages.hasNextPage ? (
              <div className="flex justify-center">
                <Button size="sm" onClick={() => pages.fetchNextPage()} loading={pages.isFetchingNextPage}>
                  {pages.isFetchingNextPage ? t.common.loadingMore : t.common.loadMore}
                </Button>
              </div>
            ) : null}
          </nav>
          <div className="min-w-0 rounded-lg border border-line p-4">
            {selected ? (
              <ReadingPane
                key={selected.id}
                item={selected}
                busy={busy}
                onSend={(corrections) => send(selected, corrections)}
                onReject={() => {
                  setReason('');
                  setRejecting(selected);
                }}
                onSnooze={(choice) => snooze(selected, choice)}
                onResolve={(verdict) => resolve(selected, verdict)}
              />
            ) : (
              <p className="py-8 text-center text-sm text-muted">{r.pickOne}</p>
            )}
          </div>
        </div>
      )}
      <ConfirmDialog
        open={Boolean(rejecting)}
        onOpenChange={(open) => {
          if (!open) {
            setRejecting(null);
            mutations.reject.reset();
          }
        }}
        title={r.reject.title}
        description={r.reject.description}
        confirmLabel={r.reject.confirm}
        pending={mutations.reject.isPending}
        error={mutations.reject.error ? <p className="text-sm text-red-700 dark:text-red-400">{describeError(mutations.reject.error, t)}</p> : null}
        onConfirm={() => {
          const item = rejecting;
          if (!item) return;
          mutations.reject.mutate(
            { id: item.id, ...(reason.trim() ? { reason: reason.trim() } : {}) },
            {
              onSuccess: () => {
                setRejecting(null);
                setNotice({ tone: 'success', text: r.rejected });
                if (queue !== 'all') advanceFrom(item);
              },
            },
          );
        }}
      >
        <div className="pt-2">
          <Label htmlFor="review-reject-reason" className="mb-1">
            {r.reject.reason}
          </Label>
          <Textarea id="review-reject-reason" rows={3} maxLength={1000} placeholder={r.reject.reasonPlaceholder} value={reason} onChange={(event) => setReason(event.target.value)} data-testid="review-reject-reason" />
        </div>
      </ConfirmDialog>
    </>
  );
}
