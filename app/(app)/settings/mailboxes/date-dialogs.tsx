'use client';

/**
 * Resync (re-read a past window, silent, within 92 days) and backfill (mirror older mail down to a
 * date, or everything) of one mailbox: a date picker each.
 */
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import type { Mailbox } from '@/app/lib/mail-types';
import { Alert } from '@/app/ui/alert';
import { Dialog, DialogBody, DialogContent, DialogForm, FormDialogFooter } from '@/app/ui/dialog';
import { CheckboxField, TextField } from '@/app/ui/field';
import { useMailboxActions } from './_lib/api';

/** The spec's resync window is 92 days; the picker stops one day short so local midnight stays inside. */
export const resyncMaxDays = 91;

/** yyyy-mm-dd of the local day `daysAgo` days before today. */
export function localDay(daysAgo: number, now = new Date()): string {
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysAgo);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

/** The start of a local day as an ISO instant (what the API takes). */
export function startOfLocalDay(day: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const [year, month, date] = day.split('-').map(Number);
  const value = new Date(year, month - 1, date);
  return Number.isNaN(value.getTime()) ? null : value.toISOString();
}

function ResyncForm({ mailbox, onDone }: { mailbox: Mailbox; onDone: (enqueued: boolean) => void }) {
  const { t } = useI18n();
  const r = t.mailboxes.resync;
  const { resync } = useMailboxActions();
  const min = localDay(resyncMaxDays);
  const max = localDay(0);
  const [day, setDay] = useState(localDay(7));
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const since = startOfLocalDay(day);
    if (!since || day < min || day > max) {
      setError(r.dayInvalid(resyncMaxDays));
      return;
    }
    setError(undefined);
    resync.mutate({ id: mailbox.id, since }, { onSuccess: (data) => onDone(data.enqueued) });
  }

  return (
    <DialogForm onSubmit={submit}>
      <DialogBody className="space-y-4">
        {resync.isError ? (
          <Alert tone="danger" testId="resync-error">
            {describeError(resync.error, t)}
          </Alert>
        ) : null}
        <TextField label={r.since} type="date" min={min} max={max} value={day} required error={error} hint={r.hint(resyncMaxDays)} onChange={(event) => setDay(event.target.value)} />
      </DialogBody>
      <FormDialogFooter pending={resync.isPending} submitLabel={r.submit} pendingLabel={r.submitting} />
    </DialogForm>
  );
}

function BackfillForm({ mailbox, onDone }: { mailbox: Mailbox; onDone: (enqueued: boolean) => void }) {
  const { t } = useI18n();
  const b = t.mailboxes.backfill;
  const { backfill } = useMailboxActions();
  const max = localDay(1);
  const [everything, setEverything] = useState(false);
  const [day, setDay] = useState(localDay(365));
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const since = everything ? null : startOfLocalDay(day);
    if (!everything && (!since || day > max)) {
      setError(b.dayInvalid);
      return;
    }
    setError(undefined);
    backfill.mutate({ id: mailbox.id, since }, { onSuccess: (data) => onDone(data.enqueued) });
  }

  return (
    <DialogForm onSubmit={submit}>
      <DialogBody className="space-y-4">
        {backfill.isError ? (
          <Alert tone="danger" testId="backfill-error">
            {describeError(backfill.error, t)}
          </Alert>
        ) : null}
        <TextField label={b.since} type="date" max={max} value={day} disabled={everything} error={error} onChange={(event) => setDay(event.target.value)} />
        <CheckboxField label={b.everything} hint={b.everythingHint} checked={everything} onChange={(event) => setEverything(event.target.checked)} />
      </DialogBody>
      <FormDialogFooter pending={backfill.isPending} submitLabel={b.submit} pendingLabel={b.submitting} />
    </DialogForm>
  );
}

export function DateActionDialog({
  kind,
  mailbox,
  onClose,
  onDone,
}: {
  kind: 'resync' | 'backfill';
  mailbox: Mailbox | null;
  onClose: () => void;
  onDone: (kind: 'resync' | 'backfill', mailbox: Mailbox, enqueued: boolean) => void;
}) {
  const { t } = useI18n();
  const texts = kind === 'resync' ? t.mailboxes.resync : t.mailboxes.backfill;
  return (
    <Dialog open={mailbox !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent title={mailbox ? texts.title(mailbox.address) : ''} description={texts.description} size="sm">
        {mailbox ? (
          kind === 'resync' ? (
            <ResyncForm mailbox={mailbox} onDone={(enqueued) => onDone(kind, mailbox, enqueued)} />
          ) : (
            <BackfillForm mailbox={mailbox} onDone={(enqueued) => onDone(kind, mailbox, enqueued)} />
          )
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
