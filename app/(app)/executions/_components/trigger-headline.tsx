'use client';

/** What started a run: the triggering email's subject and sender, else the kind of trigger. */
import { useI18n } from '@/app/i18n/client';

export function TriggerHeadline({
  headline,
  triggerType,
}: {
  headline: { subject: string | null; fromName: string | null; fromEmail: string | null } | null;
  triggerType: string | null | undefined;
}) {
  const { t } = useI18n();
  if (headline) {
    const sender = headline.fromName || headline.fromEmail;
    return (
      <span className="block min-w-0">
        <span className="block truncate">{headline.subject || t.executions.noSubject}</span>
        {sender ? <span className="block truncate text-xs text-muted">{t.executions.fromSender(sender)}</span> : null}
      </span>
    );
  }
  return <span className="text-muted">{(triggerType && t.executions.triggerBy[triggerType]) || t.executions.triggerBy.manual}</span>;
}
