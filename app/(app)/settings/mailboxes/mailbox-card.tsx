'use client';

/** One connected mailbox: status, figures, progress, last error and its actions. */
import { useEffect, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { formatDate, formatDateTime } from '@/app/lib/format';
import type { Mailbox, MailboxStatus } from '@/app/lib/mail-types';
import { Alert } from '@/app/ui/alert';
import { StatusBadge, type BadgeTone } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { Card } from '@/app/ui/card';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/app/ui/dropdown-menu';
import { ArchiveIcon, ClockIcon, InboxIcon, LinkIcon, MoreIcon, RefreshIcon, TrashIcon } from '@/app/ui/icons';
import { mailErrorKindText } from '../../_shell/notifications/notification-text';
import { MailboxDefaultsButton } from '../../contacts/_components/mailbox-defaults-dialog';
import { MailboxProgress } from './mailbox-progress';
import { useMailboxActions } from './_lib/api';

const statusTones: Record<MailboxStatus, BadgeTone> = { active: 'success', error: 'danger', disconnected: 'neutral' };

/** How long a requested sync shows as running when no report arrives (the runner may be down). */
const syncShownForMs = 120_000;

export type MailboxDialog = 'resync' | 'backfill' | 'disconnect' | 'delete' | 'reconnect';

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="truncate text-sm font-medium" title={value}>
        {value}
      </dd>
    </div>
  );
}

export function MailboxCard({ mailbox, onOpen }: { mailbox: Mailbox; onOpen: (dialog: MailboxDialog, mailbox: Mailbox) => void }) {
  const { t, locale } = useI18n();
  const m = t.mailboxes;
  const { sync } = useMailboxActions();
  const [syncRequestedAt, setSyncRequestedAt] = useState<number | null>(null);
  const reported = syncRequestedAt !== null && mailbox.lastDeltaAt !== null && Date.parse(mailbox.lastDeltaAt) >= syncRequestedAt - 1000;
  const syncing = syncRequestedAt !== null && !reported && mailbox.status === 'active';

  useEffect(() => {
    if (syncRequestedAt === null) return;
    const timer = setTimeout(() => setSyncRequestedAt(null), syncShownForMs);
    return () => clearTimeout(timer);
  }, [syncRequestedAt]);

  const active = mailbox.status === 'active';
  const when = (iso: string | null | undefined) => (iso ? formatDateTime(iso, locale) : t.common.never);

  return (
    <Card className="p-5" data-testid="mailbox-card" aria-labelledby={`mailbox-${mailbox.id}`}>
      <div className="flex flex-wrap items-start gap-3">
        <div className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-brand/10 text-brand-fg">
          <InboxIcon size={18} />
        </div>
        <div className="min-w-0 flex-1">
          <h2 id={`mailbox-${mailbox.id}`} className="truncate text-[15px] font-semibold" title={mailbox.address}>
            {mailbox.address}
          </h2>
          <p className="text-xs text-muted">
            {m.providers[mailbox.provider]} · {m.connectedOn(formatDate(mailbox.connectedAt, locale))}
            {mailbox.syncMode === 'processing_only' ? ` · ${m.processingOnly}` : ''}
          </p>
        </div>
        <StatusBadge tone={statusTones[mailbox.status]}>{m.status[mailbox.status]}</StatusBadge>
      </div>

      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3">
        <Figure label={m.figures.messages} value={m.figures.messageCount(mailbox.messageCount)} />
        <Figure label={m.figures.lastDelta} value={when(mailbox.lastDeltaAt)} />
        <Figure label={m.figures.lastSuccess} value={when(mailbox.lastSuccessfulSyncAt)} />
      </dl>

      <div className="mt-4 empty:hidden">
        <MailboxProgress mailbox={mailbox} syncing={syncing} />
      </div>

      {mailbox.lastError && mailbox.status === 'error' ? (
        <Alert tone="danger" live="none" testId="mailbox-last-error" className="mt-4" title={mailErrorKindText(mailbox.lastError.kind, t)}>
          {[mailbox.lastError.message, mailbox.lastError.at ? m.errorAt(formatDateTime(mailbox.lastError.at, locale)) : null].filter(Boolean).join(' · ')}
        </Alert>
      ) : null}
      {mailbox.status === 'disconnected' ? (
        <p className="mt-4 text-sm text-muted">{m.disconnectedHint}</p>
      ) : null}

      {sync.isError ? (
        <Alert tone="danger" testId="mailbox-sync-error" className="mt-4">
          {describeError(sync.error, t)}
        </Alert>
      ) : sync.data && !sync.data.enqueued ? (
        <p role="status" className="mt-3 text-xs text-muted">
          {m.syncAlreadyQueued}
        </p>
      ) : null}

      <div className="mt-4 flex flex-wrap items-center gap-2 border-t border-line pt-4">
        {active || mailbox.status === 'error' ? (
          <>
            <Button
              size="sm"
              disabled={!active}
              loading={sync.isPending}
              onClick={() => {
                setSyncRequestedAt(Date.now());
                sync.mutate({ id: mailbox.id });
              }}
            >
              <RefreshIcon />
              {m.actions.sync}
            </Button>
            <Button size="sm" variant="ghost" disabled={!active} onClick={() => onOpen('resync', mailbox)}>
              <ClockIcon />
              {m.actions.resync}
            </Button>
            <Button size="sm" variant="ghost" disabled={!active} onClick={() => onOpen('backfill', mailbox)}>
              <ArchiveIcon />
              {m.actions.backfill}
            </Button>
          </>
        ) : null}
        {mailbox.status !== 'active' ? (
          <Button size="sm" variant={mailbox.status === 'disconnected' ? 'primary' : 'secondary'} onClick={() => onOpen('reconnect', mailbox)}>
            <LinkIcon />
            {m.actions.reconnect}
          </Button>
        ) : null}
        <MailboxDefaultsButton mailbox={mailbox} />
        <div className="ml-auto">
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button size="icon" variant="ghost" aria-label={m.actions.more(mailbox.address)}>
                <MoreIcon />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              {mailbox.status !== 'disconnected' ? (
                <DropdownMenuItem onSelect={() => onOpen('disconnect', mailbox)}>
                  <LinkIcon />
                  {m.actions.disconnect}
                </DropdownMenuItem>
              ) : null}
              <DropdownMenuItem className="text-red-700 dark:text-red-400" onSelect={() => onOpen('delete', mailbox)}>
                <TrashIcon />
                {m.actions.delete}
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
      </div>
    </Card>
  );
}
