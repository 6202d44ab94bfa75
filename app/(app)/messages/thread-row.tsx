'use client';

/** One conversation in the thread list: who, subject, preview, date, unread and flag marks. */
import { memo } from 'react';
import { useI18n } from '@/app/i18n/client';
import { formatDateTime, formatListDate } from '@/app/lib/format';
import type { Thread } from '@/app/lib/mail-types';
import { cn } from '@/app/ui/cn';
import { PaperclipIcon, StarIcon } from '@/app/ui/icons';
import { aiClassificationOf } from './_lib/classification';

export function participantsText(thread: Thread, you: string): string {
  const names = thread.participants.map((person) => person.name?.trim() || person.email.split('@')[0] || person.email);
  const shown = names.length > 0 ? names.join(', ') : you;
  return thread.participantCount > names.length ? `${shown} +${thread.participantCount - names.length}` : shown;
}

export const ThreadRow = memo(function ThreadRow({ thread, selected, onOpen }: { thread: Thread; selected: boolean; onOpen: (id: string) => void }) {
  const { t, locale } = useI18n();
  const unread = thread.unreadCount > 0;
  const classified = aiClassificationOf(thread.classification);
  return (
    <li>
      <button
        type="button"
        onClick={() => onOpen(thread.id)}
        aria-current={selected ? 'true' : undefined}
        data-testid="thread-row"
        data-thread-id={thread.id}
        data-unread={unread || undefined}
        className={cn(
          'relative flex w-full flex-col gap-0.5 border-b border-line px-4 py-2.5 text-left transition-colors focus-visible:z-10',
          selected ? 'bg-brand/10' : 'hover:bg-subtle/60',
        )}
      >
        {unread ? <span aria-hidden="true" className="absolute top-4 left-1.5 size-1.5 rounded-full bg-brand" /> : null}
        <span className="flex items-baseline gap-2">
          <span className={cn('min-w-0 flex-1 truncate text-sm', unread ? 'font-semibold' : 'text-fg/90')}>
            {participantsText(thread, t.common.you)}
            {thread.messageCount > 1 ? <span className="ml-1.5 text-xs font-normal text-muted">{thread.messageCount}</span> : null}
          </span>
          <time dateTime={thread.lastMessageAt} title={formatDateTime(thread.lastMessageAt, locale)} className={cn('shrink-0 text-xs', unread ? 'font-semibold text-fg' : 'text-muted')}>
            {formatListDate(thread.lastMessageAt, locale)}
          </time>
        </span>
        <span className="flex items-center gap-1.5">
          <span className={cn('min-w-0 flex-1 truncate text-[13px]', unread ? 'font-medium' : 'text-fg/85')}>{thread.subject || t.webmail.noSubject}</span>
          {classified ? (
            <span className="max-w-32 shrink-0 truncate rounded bg-brand/10 px-1.5 text-[11px] text-brand" title={t.webmail.aiClassification(classified.label)} data-testid="thread-classification">
              {classified.label}
            </span>
          ) : null}
          {thread.hasAttachments ? <PaperclipIcon size={13} className="shrink-0 text-muted" role="img" aria-hidden={false} aria-label={t.webmail.hasAttachments} /> : null}
          {thread.flags.flagged ? <StarIcon size={13} className="shrink-0 fill-amber-400 text-amber-500" role="img" aria-hidden={false} aria-label={t.webmail.flagged} /> : null}
        </span>
        {thread.snippet ? <span className="truncate text-xs text-muted">{thread.snippet}</span> : null}
        <span className="sr-only">{unread ? t.webmail.unreadCount(thread.unreadCount) : ''}</span>
      </button>
    </li>
  );
});
