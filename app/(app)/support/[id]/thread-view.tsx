'use client';

/**
 * One support thread: its subject, kind, status, assignee (and author, for an administrator), the messages in
 * order (the member's and the team's styled apart, bodies as plain text), "Sending…" on a message not
 * delivered yet (cleared live), and a composer (Ctrl/Cmd+Enter sends) unless the instance is unlinked.
 * Opening the thread marks it read for the reader, and so does a team reply arriving while the page is open
 * and visible. Unknown, malformed or another member's thread: a not-found state with the way back.
 */
import Link from 'next/link';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError, errorCodeOf } from '@/app/lib/errors';
import { formatDateTime } from '@/app/lib/format';
import { Alert } from '@/app/ui/alert';
import { Badge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { cn } from '@/app/ui/cn';
import { TextareaField } from '@/app/ui/field';
import { ArrowLeftIcon, ChatIcon, ClockIcon, SendIcon } from '@/app/ui/icons';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { useMe } from '../../_shell/_lib/api';
import { supportBounds, useReadSupportThread, useSupportOverview, useSupportThread, useSupportWrites, type SupportMessage, type SupportThread } from '../_lib/api';
import { nearLimit, textProblem } from '../_components/length-hint';
import { SupportStatusChip } from '../_components/status-chip';
import { SupportUnlinkedNotice } from '../_components/unlinked-notice';

function BackLink() {
  const { t } = useI18n();
  return (
    <Link href="/support" className="inline-flex items-center gap-1.5 rounded-md text-sm text-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-brand" data-testid="support-back">
      <ArrowLeftIcon />
      {t.support.thread.back}
    </Link>
  );
}

function MessageItem({ message }: { message: SupportMessage }) {
  const { t, locale } = useI18n();
  const s = t.support;
  const team = message.direction === 'team';
  return (
    <li data-testid="support-message" data-direction={message.direction} data-message-id={message.id} className={cn('flex', team ? 'justify-start' : 'justify-end')}>
      <article
        className={cn(
          'max-w-[min(42rem,90%)] rounded-xl border px-4 py-3 shadow-xs',
          team ? 'border-line bg-surface' : 'border-brand/20 bg-brand/8 dark:bg-brand/15',
          message.pending && 'border-dashed',
        )}
      >
        <header className="mb-1.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs">
          <span className="font-medium text-fg">{message.authorName}</span>
          {team ? (
            <Badge tone="brand" className="py-0">
              {s.thread.team}
            </Badge>
          ) : null}
          <time dateTime={message.createdAt} className="text-muted">
            {formatDateTime(message.createdAt, locale)}
          </time>
          {message.pending ? (
            <span data-testid="support-message-pending" title={s.pendingHint} className="inline-flex items-center gap-1 text-muted">
              <ClockIcon size={12} />
              {s.pending}
            </span>
          ) : null}
        </header>
        {/* Plain text: React escapes it; line breaks kept, long words wrapped. */}
        <p className="text-sm leading-6 break-words whitespace-pre-wrap">{message.body}</p>
      </article>
    </li>
  );
}

function Composer({ thread }: { thread: SupportThread }) {
  const { t } = useI18n();
  const s = t.support;
  const { postMessage } = useSupportWrites();
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (postMessage.isPending) return;
    const found = textProblem(draft, supportBounds.body);
    if (found) {
      setProblem(found === 'required' ? s.fields.required : s.fields.tooLong(supportBounds.body));
      return;
    }
    postMessage.mutate({ id: thread.id, body: draft.trim() }, { onSuccess: () => setDraft('') });
  };

  const counter = nearLimit(draft.length, supportBounds.body) ? s.fields.counter(draft.length, supportBounds.body) : null;
  return (
    <form method="post" noValidate onSubmit={submit} className="space-y-2" data-testid="support-composer">
      <TextareaField
        label={s.thread.reply}
        value={draft}
        rows={4}
        maxLength={supportBounds.body}
        placeholder={s.thread.replyPlaceholder}
        hint={counter ?? s.thread.shortcut}
        error={problem ?? undefined}
        onChange={(event) => {
          setDraft(event.target.value);
          setProblem(null);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) submit(event);
        }}
      />
      {postMessage.error ? (
        <Alert tone="danger" testId="support-send-error">
          {describeError(postMessage.error, t)}
        </Alert>
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" variant="primary" loading={postMessage.isPending} disabled={draft.trim() === ''} data-testid="support-send">
          <SendIcon />
          {s.thread.send}
        </Button>
      </div>
    </form>
  );
}

/** Marks the thread read on opening, and again whenever it shows unread while the page is visible. */
function useReadWhileOpen(id: string, unread: boolean | undefined) {
  const read = useReadSupportThread();
  const reading = useRef(false);
  const mutate = read.mutate;
  const markRead = useCallback(() => {
    if (reading.current) return;
    reading.current = true;
    mutate({ id }, { onSettled: () => void (reading.current = false) });
  }, [id, mutate]);

  useEffect(() => {
    markRead();
  }, [markRead]);

  useEffect(() => {
    if (!unread) return;
    if (document.visibilityState === 'visible') {
      markRead();
      return;
    }
    const onVisible = () => {
      if (document.visibilityState === 'visible') markRead();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [unread, markRead]);
}

export function SupportThreadView({ id }: { id: string }) {
  const { t } = useI18n();
  const s = t.support;
  const me = useMe();
  const isAdmin = me.data?.role === 'admin';
  const overview = useSupportOverview();
  const thread = useSupportThread(id);
  useReadWhileOpen(id, thread.data?.unread);
  // The composer shows once the instance is known to be linked (or when the overview cannot be read: the
  // server then says `support.not_linked` itself if it is not).
  const linked = overview.data ? overview.data.linked : overview.isError ? true : undefined;

  // The newest message in view when the thread opens and when one arrives.
  const end = useRef<HTMLDivElement>(null);
  const count = thread.data?.messages.length ?? 0;
  useEffect(() => {
    if (count > 0) end.current?.scrollIntoView?.({ block: 'end' });
  }, [count]);

  if (thread.isPending) {
    return (
      <div className="space-y-4">
        <BackLink />
        <LoadingState rows={3} />
      </div>
    );
  }
  if (!thread.data) {
    const notFound = errorCodeOf(thread.error) === 'support.not_found' || errorCodeOf(thread.error) === 'support.bad_request';
    return (
      <div className="space-y-4">
        <BackLink />
        {notFound ? (
          <div data-testid="support-not-found">
            <EmptyState
              icon={<ChatIcon size={18} />}
              title={s.thread.notFound.title}
              body={s.thread.notFound.body}
              action={
                <Link href="/support" className="text-sm font-medium text-brand-fg hover:underline">
                  {s.thread.back}
                </Link>
              }
            />
          </div>
        ) : (
          <ErrorState error={thread.error} onRetry={() => thread.refetch()} testId="support-thread-error" />
        )}
      </div>
    );
  }

  const data = thread.data;
  return (
    <div className="space-y-6">
      <BackLink />
      <header className="space-y-2">
        <h1 className="text-xl font-semibold tracking-tight break-words">{data.subject}</h1>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 text-sm text-muted">
          <Badge tone="neutral">{s.kinds[data.kind]}</Badge>
          <SupportStatusChip status={data.status} />
          <span data-testid="support-assignee">{data.assigneeName ? s.assignee(data.assigneeName) : s.unassigned}</span>
          {isAdmin ? <span data-testid="support-author">{s.thread.startedBy(data.authorName)}</span> : null}
          {data.pending ? (
            <Badge tone="neutral" data-testid="support-pending" title={s.pendingHint}>
              <ClockIcon size={12} />
              {s.pending}
            </Badge>
          ) : null}
        </div>
      </header>

      <section aria-label={s.thread.messagesLabel}>
        {data.messages.length === 0 ? (
          <p className="text-sm text-muted">{s.thread.noMessages}</p>
        ) : (
          <ol className="space-y-3" data-testid="support-messages">
            {data.messages.map((message) => (
              <MessageItem key={message.id} message={message} />
            ))}
          </ol>
        )}
        <div ref={end} />
      </section>

      {linked === true ? <Composer thread={data} /> : linked === false ? <SupportUnlinkedNotice isAdmin={isAdmin} where="thread" /> : null}
    </div>
  );
}
