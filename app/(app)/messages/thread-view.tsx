'use client';

/**
 * The reading pane: the open thread's subject, its actions and its messages in reading order. The
 * last message and the unread ones start expanded; any can be expanded or collapsed.
 */
import { useMemo, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import type { FolderRole, MailPrefill } from '@/app/lib/mail-types';
import { Button } from '@/app/ui/button';
import { Spinner } from '@/app/ui/spinner';
import { ErrorState } from '@/app/ui/states';
import type { AnswerMode } from './compose-dialog';
import { MessageItem } from './message-item';
import { ThreadToolbar, type ActRequest } from './thread-toolbar';
import { useFolders, useThread } from './_lib/api';

export function ThreadView({
  threadId,
  role,
  canAct,
  onAct,
  onAnswer,
  onWrite,
  onBack,
}: {
  threadId: string;
  role: FolderRole | null;
  /** False for a disconnected mailbox: its mail is readable, not actionable. */
  canAct: (mailboxId: string) => boolean;
  onAct: (request: ActRequest) => void;
  /** Opens the compose dialog answering a message (absent: no answers, e.g. a disconnected mailbox). */
  onAnswer?: (mode: AnswerMode, messageId: string, mailboxId: string) => void;
  /** Opens a new message from the thread's mailbox, prepared (a list's unsubscribe mail). */
  onWrite?: (prefill: MailPrefill, mailboxId: string) => void;
  onBack: () => void;
}) {
  const { t } = useI18n();
  const w = t.webmail;
  const detail = useThread(threadId);
  const mailboxFolders = useFolders(detail.data?.thread.mailboxId ?? null);
  const [toggled, setToggled] = useState<Record<string, boolean>>({});

  const messages = detail.data?.messages;
  // Decided once, when the thread is first shown (marking it read must not fold the unread ones);
  // messages arriving later while it is open start expanded.
  const [initial, setInitial] = useState<{ expanded: Set<string>; known: Set<string> } | null>(null);
  if (messages && messages.length > 0 && initial === null) {
    const expanded = new Set(messages.filter((message) => !message.flags.seen).map((message) => message.id));
    expanded.add(messages[messages.length - 1].id);
    setInitial({ expanded, known: new Set(messages.map((message) => message.id)) });
  }
  const isExpanded = (id: string) => toggled[id] ?? (initial ? initial.expanded.has(id) || !initial.known.has(id) : true);
  const labels = useMemo(() => [...new Set((messages ?? []).flatMap((message) => message.folderLabels.slice(1)))], [messages]);

  if (!detail.data) {
    return detail.isError ? (
      <div className="p-6">
        <ErrorState error={detail.error} onRetry={() => detail.refetch()} testId="thread-error" />
        <Button className="mt-3" variant="ghost" onClick={onBack}>
          {w.actions.back}
        </Button>
      </div>
    ) : (
      <p role="status" className="flex items-center gap-2 p-6 text-sm text-muted" data-testid="thread-loading">
        <Spinner />
        {t.common.loading}
      </p>
    );
  }

  const { thread } = detail.data;
  const allExpanded = detail.data.messages.every((message) => isExpanded(message.id));
  return (
    <article aria-labelledby="thread-subject" className="flex min-h-0 flex-1 flex-col" data-testid="thread-view">
      <div className="shrink-0 border-b border-line px-3 py-2">
        <ThreadToolbar
          thread={thread}
          role={role}
          labels={labels}
          mailboxFolders={mailboxFolders.data?.folders ?? []}
          permanentDelete={mailboxFolders.data?.permanentDelete ?? false}
          readOnly={!canAct(thread.mailboxId)}
          onAct={onAct}
          onBack={onBack}
        />
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-4 sm:px-6">
        <div className="mb-4 flex items-start gap-3">
          <h2 id="thread-subject" className="min-w-0 flex-1 text-lg font-semibold tracking-tight break-words">
            {thread.subject || w.noSubject}
          </h2>
          {detail.data.messages.length > 1 ? (
            <Button
              size="sm"
              variant="ghost"
              onClick={() => setToggled(Object.fromEntries(detail.data.messages.map((message) => [message.id, !allExpanded])))}
            >
              {allExpanded ? w.collapseAll : w.expandAll}
            </Button>
          ) : null}
        </div>
        <div className="space-y-3">
          {detail.data.messages.map((message) => (
            <MessageItem
              key={message.id}
              message={message}
              expanded={isExpanded(message.id)}
              onToggle={() => setToggled((current) => ({ ...current, [message.id]: !isExpanded(message.id) }))}
              onAnswer={onAnswer && canAct(thread.mailboxId) ? (mode) => onAnswer(mode, message.id, thread.mailboxId) : undefined}
              onWrite={onWrite && canAct(thread.mailboxId) ? (prefill) => onWrite(prefill, thread.mailboxId) : undefined}
            />
          ))}
        </div>
      </div>
    </article>
  );
}
