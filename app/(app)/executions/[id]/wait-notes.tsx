'use client';

/**
 * A run's waits in words (issue 24 §1): while a step waits, what for and until when, with the
 * conversation a wait for a reply watches; once a wait for a reply ended, whether a reply ended it
 * (who, the subject, a link to the reply) or its deadline did.
 */
import Link from 'next/link';
import { useI18n } from '@/app/i18n/client';
import { formatDateTime } from '@/app/lib/format';
import { Alert } from '@/app/ui/alert';
import type { Step } from '../_lib/api';
import { replyWaitEndOf, waitKindOf, watchedConversationHref } from '../_lib/waits';

/** What a waiting step waits for, until its deadline; nothing for a wait without one (an approval that never expires). */
export function WaitingNote({ step, stepName, triggerData, testId }: { step: Step; stepName?: string; triggerData: Record<string, unknown> | null; testId: string }) {
  const { t, locale } = useI18n();
  const w = t.executions.wait;
  if (step.status !== 'waiting' || !step.waitUntil) return null;
  const deadline = formatDateTime(step.waitUntil, locale);
  const kind = waitKindOf(step.nodeType);
  const text = kind === 'reply' ? w.forReply(deadline) : kind === 'decision' ? w.forDecision(deadline) : w.until(deadline);
  const conversation = watchedConversationHref(step, triggerData);
  return (
    <Alert tone="info" testId={testId} live="none">
      <p data-wait-kind={kind}>
        <span>{text}</span>
        {stepName ? <span className="text-muted"> {w.atStep(stepName)}</span> : null}
      </p>
      {conversation ? (
        <Link href={conversation} className="text-sm font-medium text-brand-fg hover:underline" data-testid="wait-conversation-link">
          {w.openConversation}
        </Link>
      ) : null}
    </Alert>
  );
}

/** How a finished wait for a reply ended: the reply (who, subject, link) or the deadline. */
export function ReplyWaitEnd({ step }: { step: Step }) {
  const { t, locale } = useI18n();
  const w = t.executions.wait;
  const end = replyWaitEndOf(step);
  if (!end) return null;
  if (!end.replied) {
    return (
      <Alert tone="warning" testId="step-reply-end" title={w.timedOutTitle} live="none">
        <p data-outcome="timeout">{end.deadline ? w.timedOut(formatDateTime(end.deadline, locale)) : w.timedOutUndated}</p>
      </Alert>
    );
  }
  const reply = end.reply;
  const who = reply?.fromName && reply.fromEmail ? `${reply.fromName} <${reply.fromEmail}>` : (reply?.fromName ?? reply?.fromEmail ?? '');
  return (
    <Alert tone="success" testId="step-reply-end" title={w.repliedTitle} live="none">
      <div className="space-y-1" data-outcome="replied">
        <p>{who && reply?.receivedAt ? w.repliedBy(who, formatDateTime(reply.receivedAt, locale)) : who ? `${who}.` : w.repliedSomeone}</p>
        {reply ? <p className="break-words">{w.subject(reply.subject ?? t.executions.noSubject)}</p> : null}
        {reply?.href ? (
          <Link href={reply.href} className="text-sm font-medium text-brand-fg hover:underline" data-testid="reply-link">
            {w.openReply}
          </Link>
        ) : null}
      </div>
    </Alert>
  );
}
