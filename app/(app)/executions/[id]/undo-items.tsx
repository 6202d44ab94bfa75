'use client';

/**
 * The lists of undoing a run (issue 24 §4): each item as the member reads it — what undoing it does,
 * the message's subject, and, for one left as it is or refused, why — and the sends that cannot be
 * undone. Shared by the preview and the result of the run page's undo dialog.
 */
import { useI18n } from '@/app/i18n/client';
import { Badge, type BadgeTone } from '@/app/ui/badge';
import { cn } from '@/app/ui/cn';
import type { UndoPreviewItem, UndoResultItem, UndoSentItem } from '../_lib/api';
import { resultReasonText, skipReasonText, undoActionText } from '../_lib/undo-text';

function Subject({ subject }: { subject: string | null }) {
  const { t } = useI18n();
  if (subject === null) return null;
  return <span className="block truncate text-muted">{subject.trim() ? t.undo.quoted(subject) : t.undo.noSubject}</span>;
}

function Section({ title, testId, children, className }: { title: string; testId: string; children: React.ReactNode; className?: string }) {
  return (
    <section aria-label={title} className={cn('space-y-1.5', className)} data-testid={testId}>
      <h3 className="text-sm font-semibold">{title}</h3>
      <ul className="divide-y divide-line rounded-md border border-line">{children}</ul>
    </section>
  );
}

/** The preview's items: those that will be undone, then those left as they are with their reason. */
export function PreviewItems({ items }: { items: UndoPreviewItem[] }) {
  const { t } = useI18n();
  const willUndo = items.filter((item) => item.status === 'will_undo');
  const skipped = items.filter((item) => item.status === 'skip');
  return (
    <>
      {willUndo.length > 0 ? (
        <Section title={t.undo.willUndoTitle(willUndo.length)} testId="undo-will-undo">
          {willUndo.map((item) => (
            <li key={item.effectKey} className="px-3 py-2 text-sm" data-testid="undo-item" data-status="will_undo">
              <span className="font-medium">{undoActionText(item, t)}</span>
              <Subject subject={item.subject} />
            </li>
          ))}
        </Section>
      ) : null}
      {skipped.length > 0 ? (
        <Section title={t.undo.skipTitle(skipped.length)} testId="undo-skipped">
          {skipped.map((item) => (
            <li key={item.effectKey} className="px-3 py-2 text-sm" data-testid="undo-item" data-status="skip">
              <span className="font-medium">{undoActionText(item, t)}</span>
              <Subject subject={item.subject} />
              <span className="block text-xs text-amber-800 dark:text-amber-300" data-testid="undo-item-reason">
                {skipReasonText(item.reason, t)}
              </span>
            </li>
          ))}
        </Section>
      ) : null}
    </>
  );
}

const resultTones: Record<string, BadgeTone> = { undone: 'success', skipped: 'warning', failed: 'danger' };

/** The undo's answer, item by item: undone, skipped with its reason, failed with the mailbox's refusal. */
export function ResultItems({ items }: { items: UndoResultItem[] }) {
  const { t } = useI18n();
  if (items.length === 0) return null;
  return (
    <ul className="divide-y divide-line rounded-md border border-line" aria-label={t.undo.resultTitle} data-testid="undo-results">
      {items.map((item) => {
        const reason = resultReasonText(item, t);
        return (
          <li key={item.effectKey} className="flex items-start gap-3 px-3 py-2 text-sm" data-testid="undo-result" data-status={item.status}>
            <Badge tone={resultTones[item.status] ?? 'neutral'} className="mt-0.5">
              {t.undo.itemStatus[item.status] ?? item.status}
            </Badge>
            <span className="min-w-0 flex-1">
              <span className="font-medium">{undoActionText(item, t)}</span>
              <Subject subject={item.subject} />
              {reason ? (
                <span className="block text-xs text-muted" data-testid="undo-result-reason">
                  {reason}
                </span>
              ) : null}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** The run's sends: a message that left cannot be called back. */
export function SentItems({ sent }: { sent: UndoSentItem[] }) {
  const { t } = useI18n();
  if (sent.length === 0) return null;
  return (
    <Section title={t.undo.sentTitle(sent.length)} testId="undo-sent">
      {sent.map((item) => {
        const subject = item.subject.trim() || t.undo.noSubject;
        const to = item.to.join(', ');
        const leaving = item.sendStatus !== 'done' && item.sendStatus !== 'unknown';
        return (
          <li key={item.effectKey} className="px-3 py-2 text-sm" data-testid="undo-sent-item">
            {leaving ? t.undo.sending(subject, to) : t.undo.alreadySent(subject, to)}
          </li>
        );
      })}
    </Section>
  );
}
