'use client';

/** One message of the open thread: a one-line header when collapsed; headers and body when expanded. */
import { useI18n } from '@/app/i18n/client';
import { formatDateTime, formatListDate } from '@/app/lib/format';
import type { MailPrefill, MessageSummary, Person } from '@/app/lib/mail-types';
import { Badge } from '@/app/ui/badge';
import { cn } from '@/app/ui/cn';
import { PaperclipIcon, StarIcon } from '@/app/ui/icons';
import { Avatar } from '../_shell/user-menu';
import type { AnswerMode } from './compose-dialog';
import { AutomationPanel } from './automation-panel';
import { MessageBody } from './message-body';
import { SenderCard } from './sender-card';
import { Button } from '@/app/ui/button';

function personText(person: Person | null | undefined, fallback: string): string {
  if (!person) return fallback;
  return person.name?.trim() ? `${person.name.trim()} <${person.email}>` : person.email;
}

export function MessageItem({
  message,
  expanded,
  onToggle,
  onAnswer,
  onWrite,
}: {
  message: MessageSummary;
  expanded: boolean;
  onToggle: () => void;
  /** Reply, reply all, forward (absent: the mailbox takes no action). */
  onAnswer?: (mode: AnswerMode) => void;
  /** Opens a new message prepared from this one (a list's unsubscribe mail). */
  onWrite?: (prefill: MailPrefill) => void;
}) {
  const { t, locale } = useI18n();
  const w = t.webmail;
  const fromName = message.from?.name?.trim() || message.from?.email || w.unknownSender;
  const unread = !message.flags.seen;
  const labels = message.folderLabels.slice(1);

  return (
    <article
      className={cn('rounded-xl border bg-surface shadow-xs', expanded ? 'border-line' : 'border-line/70')}
      data-testid="message-item"
      data-message-id={message.id}
      aria-label={w.messageFrom(fromName)}
    >
      <button
        type="button"
        onClick={onToggle}
        aria-expanded={expanded}
        className="flex w-full items-start gap-3 rounded-xl px-4 py-3 text-left hover:bg-subtle/40"
      >
        <Avatar name={fromName} />
        <span className="min-w-0 flex-1">
          <span className="flex items-baseline gap-2">
            <span className={cn('min-w-0 flex-1 truncate text-sm', unread ? 'font-semibold' : 'font-medium')}>{fromName}</span>
            {message.hasAttachments ? <PaperclipIcon size={13} className="shrink-0 text-muted" /> : null}
            {message.flags.flagged ? <StarIcon size={13} className="shrink-0 fill-amber-400 text-amber-500" /> : null}
            <time dateTime={message.receivedAt} title={formatDateTime(message.receivedAt, locale)} className="shrink-0 text-xs text-muted">
              {expanded ? formatDateTime(message.receivedAt, locale) : formatListDate(message.receivedAt, locale)}
            </time>
          </span>
          {expanded ? (
            <span className="block truncate text-xs text-muted">{personText(message.from, w.unknownSender)}</span>
          ) : (
            <span className="block truncate text-xs text-muted">{message.snippet ?? ''}</span>
          )}
        </span>
      </button>
      {expanded ? (
        <div className="px-4 pb-4">
          {labels.length > 0 ? (
            <ul className="mb-2 flex flex-wrap gap-1" aria-label={w.labels}>
              {labels.map((label) => (
                <li key={label}>
                  <Badge tone="brand">{label}</Badge>
                </li>
              ))}
            </ul>
          ) : null}
          <MessageBody summary={message} onWrite={onWrite} />
          {message.flags.sent ? null : <SenderCard address={message.from?.email ?? null} mailboxId={message.mailboxId} />}
          <AutomationPanel messageId={message.id} />
          {onAnswer ? (
            <div className="mt-3 flex flex-wrap gap-2" data-testid="message-answers">
              {(['reply', 'replyAll', 'forward'] as const).map((mode) => (
                <Button key={mode} size="sm" onClick={() => onAnswer(mode)} data-testid={`answer-${mode}`}>
                  {t.compose[mode]}
                </Button>
              ))}
            </div>
          ) : null}
        </div>
      ) : null}
    </article>
  );
}
