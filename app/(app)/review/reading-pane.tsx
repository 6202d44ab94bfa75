'use client';

/**
 * One review item: its headers, the sanitised draft in the messages' sandboxed frame (remote images
 * blocked until asked for), beside the message it answers or forwards when there is one
 * (./original-message.tsx), its attachments, and the decisions: send (as is, or with the inline
 * corrections of recipients, subject and body), reject with a reason, snooze, and the verdict on a
 * send whose outcome is unknown.
 */
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError, errorCodeOf } from '@/app/lib/errors';
import { formatBytes, formatDateTime } from '@/app/lib/format';
import { Alert } from '@/app/ui/alert';
import { Badge, StatusBadge, type BadgeTone } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { Input, Label, Textarea } from '@/app/ui/field';
import { ClockIcon, ImageIcon, PaperclipIcon, SendIcon } from '@/app/ui/icons';
import { Popover, PopoverClose, PopoverContent, PopoverTrigger } from '@/app/ui/popover';
import { Spinner } from '@/app/ui/spinner';
import { ErrorState } from '@/app/ui/states';
import { MessageFrame } from '../messages/message-body';
import { textToHtml } from '../messages/_lib/srcdoc';
import { parseAddresses, useReviewDetail, type ReviewDetail, type ReviewItem } from './_lib/api';
import { OriginalMessage } from './original-message';

export interface Corrections {
  to?: string[];
  cc?: string[];
  bcc?: string[];
  subject?: string;
  bodyText?: string;
}

export const sendTone: Record<ReviewItem['sendStatus'], BadgeTone> = {
  pending: 'neutral',
  held: 'warning',
  running: 'brand',
  done: 'success',
  failed: 'danger',
  cancelled: 'neutral',
  unknown: 'warning',
};

export const reviewTone: Record<ReviewItem['reviewStatus'], BadgeTone> = {
  none: 'neutral',
  pending: 'brand',
  sent: 'success',
  rejected: 'danger',
  snoozed: 'warning',
  gone: 'neutral',
};

export function isOpen(item: ReviewItem): boolean {
  return item.reviewStatus === 'pending' || item.reviewStatus === 'snoozed';
}

function CorrectionsForm({
  item,
  detail,
  pending,
  onCancel,
  onSend,
}: {
  item: ReviewItem;
  detail: ReviewDetail;
  pending: boolean;
  onCancel: () => void;
  onSend: (corrections: Corrections) => void;
}) {
  const { t } = useI18n();
  const r = t.review;
  const to = item.recipients.filter((address) => !detail.cc.includes(address));
  const [fields, setFields] = useState({ to: to.join(', '), cc: detail.cc.join(', '), bcc: detail.bcc.join(', '), subject: item.subject, body: detail.bodyText ?? '' });
  const parsed = { to: parseAddresses(fields.to), cc: parseAddresses(fields.cc), bcc: parseAddresses(fields.bcc) };
  const invalid = [...parsed.to.invalid, ...parsed.cc.invalid, ...parsed.bcc.invalid];
  const none = parsed.to.addresses.length + parsed.cc.addresses.length + parsed.bcc.addresses.length === 0;
  const bodyChanged = fields.body !== (detail.bodyText ?? '');
  return (
    <form
      className="space-y-3"
      data-testid="review-corrections"
      onSubmit={(event) => {
        event.preventDefault();
        if (invalid.length > 0 || none) return;
        onSend({
          to: parsed.to.addresses,
          cc: parsed.cc.addresses,
          bcc: parsed.bcc.addresses,
          subject: fields.subject,
          ...(bodyChanged ? { bodyText: fields.body } : {}),
        });
      }}
    >
      {(['to', 'cc', 'bcc'] as const).map((name) => (
        <div key={name} className="grid grid-cols-[3rem_1fr] items-center gap-2">
          <Label htmlFor={`review-${name}`}>{r.fields[name]}</Label>
          <Input
            id={`review-${name}`}
            controlSize="sm"
            value={fields[name]}
            aria-invalid={parsed[name].invalid.length > 0 || undefined}
            title={r.recipientsHint}
            onChange={(event) => setFields({ ...fields, [name]: event.target.value })}
          />
        </div>
      ))}
      <div className="grid grid-cols-[3rem_1fr] items-center gap-2">
        <Label htmlFor="review-subject">{r.fields.subject}</Label>
        <Input id="review-subject" controlSize="sm" maxLength={500} value={fields.subject} onChange={(event) => setFields({ ...fields, subject: event.target.value.replace(/[\r\n]/g, ' ') })} />
      </div>
      <div>
        <Label htmlFor="review-body" className="mb-1">
          {r.fields.body}
        </Label>
        <Textarea id="review-body" rows={12} maxLength={200_000} value={fields.body} onChange={(event) => setFields({ ...fields, body: event.target.value })} />
        {bodyChanged && detail.bodyHtml ? <p className="mt-1 text-xs text-muted">{r.editingNote}</p> : null}
      </div>
      {invalid.length > 0 ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {r.invalidAddresses(invalid.join(', '))}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="primary" loading={pending} disabled={invalid.length > 0 || none} data-testid="review-send-corrected">
          <SendIcon />
          {pending ? r.sending : r.actions.send}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          {r.stopEditing}
        </Button>
      </div>
    </form>
  );
}

export function SnoozeMenu({ onSnooze, disabled }: { onSnooze: (choice: 'hours3' | 'tomorrow' | 'week') => void; disabled?: boolean }) {
  const { t } = useI18n();
  const r = t.review;
  const [open, setOpen] = useState(false);
  return (
    <div className="relative">
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <Button disabled={disabled} data-testid="review-snooze">
            <ClockIcon />
            {r.actions.snooze}
          </Button>
        </PopoverTrigger>
        <PopoverContent title={r.snooze.title} className="w-56">
          <ul className="p-2">
            {(['hours3', 'tomorrow', 'week'] as const).map((choice) => (
              <li key={choice}>
                <PopoverClose asChild>
                  <button type="button" className="w-full rounded-md px-3 py-2 text-left text-sm hover:bg-subtle" onClick={() => onSnooze(choice)}>
                    {r.snooze.options[choice]}
                  </button>
                </PopoverClose>
              </li>
            ))}
          </ul>
        </PopoverContent>
      </Popover>
    </div>
  );
}

export function ReadingPane({
  item,
  busy,
  onSend,
  onReject,
  onSnooze,
  onResolve,
}: {
  item: ReviewItem;
  busy: boolean;
  onSend: (corrections?: Corrections) => void;
  onReject: () => void;
  onSnooze: (choice: 'hours3' | 'tomorrow' | 'week') => void;
  onResolve: (verdict: 'sent' | 'resend') => void;
}) {
  const { t, locale } = useI18n();
  const r = t.review;
  const [allowImages, setAllowImages] = useState(false);
  const [editing, setEditing] = useState(false);
  const detail = useReviewDetail(item.id, allowImages);
  const blocked = useReviewDetail(allowImages && !detail.data ? item.id : null, false);
  const data = detail.data ?? blocked.data;
  const gone = errorCodeOf(detail.error) === 'review.content_gone';
  const open = isOpen(item);

  const header = (
    <header className="mb-3 space-y-1.5">
      <h2 className="text-lg font-semibold tracking-tight break-words" data-testid="review-subject">
        {item.subject || r.noSubject}
      </h2>
      <p className="text-sm text-muted">
        {r.from(item.mailboxAddress)}
        {item.workflowName ? ` · ${r.workflow(item.workflowName)}` : null} · {formatDateTime(item.createdAt, locale)}
      </p>
      <p className="text-sm" data-testid="review-recipients">
        {r.fields.to}: {item.recipients.length ? item.recipients.join(', ') : r.noRecipient}
        {data?.bcc.length ? ` · ${r.fields.bcc}: ${data.bcc.join(', ')}` : null}
      </p>
      <RecipientCards cards={data?.recipientCards ?? []} />
      <div className="flex flex-wrap gap-1.5">
        <Badge>{r.modes[item.mode]}</Badge>
        <StatusBadge tone={reviewTone[item.reviewStatus]}>
          <span data-testid="review-status">{r.reviewStatus[item.reviewStatus]}</span>
        </StatusBadge>
        {item.reviewStatus !== 'pending' && item.reviewStatus !== 'snoozed' ? <StatusBadge tone={sendTone[item.sendStatus]}>{r.sendStatus[item.sendStatus]}</StatusBadge> : null}
        {item.snoozeUntil ? <Badge tone="warning">{r.snoozedUntil(formatDateTime(item.snoozeUntil, locale))}</Badge> : null}
      </div>
      {item.reviewReason ? <p className="text-sm text-muted">{t.sending.reason(item.reviewReason)}</p> : null}
    </header>
  );

  const actions = open ? (
    <div className="mb-3 flex flex-wrap gap-2" data-testid="review-actions">
      <Button variant="primary" onClick={() => onSend()} loading={busy} disabled={gone || editing} data-testid="review-send">
        <SendIcon />
        {r.actions.send}
      </Button>
      <Button onClick={() => setEditing(true)} disabled={gone || editing || !data}>
        {r.edit}
      </Button>
      <Button variant="dangerGhost" onClick={onReject} disabled={busy} data-testid="review-reject">
        {r.actions.reject}
      </Button>
      <SnoozeMenu onSnooze={onSnooze} disabled={busy || gone} />
    </div>
  ) : null;

  const unknown =
    item.sendStatus === 'unknown' ? (
      <Alert
        tone="warning"
        title={r.unknown.title}
        testId="review-unknown"
        className="mb-3"
        action={
          <div className="flex flex-col gap-1.5">
            <Button size="sm" onClick={() => onResolve('sent')} disabled={busy}>
              {r.actions.sentVerdict}
            </Button>
            <Button size="sm" onClick={() => onResolve('resend')} disabled={busy || gone}>
              {r.actions.resend}
            </Button>
          </div>
        }
      >
        {r.unknown.body}
      </Alert>
    ) : null;

  let body: React.ReactNode;
  if (gone) {
    body = (
      <Alert tone="info" testId="review-gone">
        {r.contentGone}
      </Alert>
    );
  } else if (!data) {
    body = detail.isError ? (
      <ErrorState error={detail.error} onRetry={() => detail.refetch()} testId="review-detail-error" />
    ) : (
      <p role="status" className="flex items-center gap-2 py-6 text-sm text-muted">
        <Spinner />
        {r.loadingItem}
      </p>
    );
  } else if (editing && open) {
    body = (
      <CorrectionsForm
        item={item}
        detail={data}
        pending={busy}
        onCancel={() => setEditing(false)}
        onSend={(corrections) => {
          onSend(corrections);
        }}
      />
    );
  } else {
    const html = data.bodyHtml ?? (data.bodyText != null ? textToHtml(data.bodyText) : null);
    body = (
      <div>
        {data.hasRemoteImages && !allowImages ? (
          <div role="status" className="mb-2 flex items-center gap-2 rounded-md bg-subtle px-3 py-2 text-sm">
            <ImageIcon className="shrink-0 text-muted" />
            <span className="flex-1">{r.remoteImagesBlocked}</span>
            <Button size="sm" variant="ghost" onClick={() => setAllowImages(true)}>
              {r.showImages}
            </Button>
          </div>
        ) : null}
        {html ? <MessageFrame html={html} allowRemoteImages={allowImages && Boolean(detail.data)} title={r.frameTitle(item.subject || r.noSubject)} /> : null}
        {data.attachments.length > 0 ? (
          <div className="mt-3">
            <h3 className="mb-2 flex items-center gap-1.5 text-xs font-medium text-muted">
              <PaperclipIcon size={13} />
              {r.attachments(data.attachments.length)}
            </h3>
            <ul className="flex flex-wrap gap-2">
              {data.attachments.map((attachment, index) => (
                <li key={index} className="flex max-w-72 items-center gap-2 rounded-md border border-line-strong px-2.5 py-1.5 text-sm">
                  <span className="min-w-0 truncate">{attachment.filename}</span>
                  <span className="shrink-0 text-xs text-muted">{formatBytes(attachment.size, locale)}</span>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    );
  }

  // The mail a draft answers, beside the draft on wide screens and above it otherwise (issue 19 §7).
  const related = !gone ? data?.relatedMessage : null;
  const content = related ? (
    <div className="grid gap-4 xl:grid-cols-2">
      <OriginalMessage related={related} />
      <section aria-labelledby={`draft-${item.id}`} data-testid="review-draft">
        <h3 id={`draft-${item.id}`} className="mb-2 text-xs font-medium tracking-wide text-muted uppercase">
          {r.original.draft}
        </h3>
        {body}
      </section>
    </div>
  ) : (
    body
  );

  return (
    <article aria-label={item.subject || r.noSubject} data-testid="review-pane">
      {header}
      {unknown}
      {actions}
      {content}
      {detail.isError && !gone && data ? <p className="mt-2 text-sm text-red-700">{describeError(detail.error, t)}</p> : null}
    </article>
  );
}

const contactStatusTone: Record<string, BadgeTone> = { vip: 'brand', blocked: 'danger', customer: 'success', partner: 'success', supplier: 'neutral', prospect: 'warning' };

/** Who the draft goes to as the address book says (issue 22): names and statuses, for the recipients that have some. */
function RecipientCards({ cards }: { cards: ReviewDetail['recipientCards'] }) {
  const { t } = useI18n();
  const a = t.webmail.addressBook;
  const named = cards.filter((card) => card.displayName || card.status);
  if (named.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-1.5 text-xs" aria-label={a.card} data-testid="review-recipient-cards">
      {named.map((card) => (
        <li key={card.address} className="flex items-center gap-1">
          <span title={card.address}>{card.displayName ?? card.address}</span>
          {card.status ? <Badge tone={contactStatusTone[card.status] ?? 'neutral'}>{a.statuses[card.status] ?? card.status}</Badge> : null}
        </li>
      ))}
    </ul>
  );
}
