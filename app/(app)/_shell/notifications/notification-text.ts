/** A notification's sentence in the interface language, from its kind and params (spec: Events). */
import type { Dictionary } from '@/app/i18n';
import type { AppNotification } from '@/app/lib/mail-types';

export interface NotificationText {
  title: string;
  body: string | null;
  /** Where a click leads: the notification's own in-app link, else the kind's page. */
  href: string | null;
}

function text(params: Record<string, unknown>, key: string): string {
  const value = params[key];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

function count(params: Record<string, unknown>, key: string): number {
  const value = params[key];
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0;
}

/** Only paths of this application: a link is never followed to another site. */
export function inAppPath(link: string | null): string | null {
  if (!link || !link.startsWith('/') || link.startsWith('//') || link.startsWith('/\\')) return null;
  return link;
}

export function mailErrorKindText(kind: string, t: Dictionary): string {
  const known = t.mail.errorKinds as Record<string, string | undefined>;
  return known[kind] ?? t.mail.errorKindUnknown(kind);
}

export function notificationText(notification: AppNotification, t: Dictionary): NotificationText {
  const p = notification.params;
  const n = t.notifications.kinds;
  const own = inAppPath(notification.link);
  switch (notification.kind) {
    case 'mailbox.error':
      return { title: n.mailboxError(text(p, 'address')), body: mailErrorKindText(text(p, 'kind'), t), href: own ?? '/settings/mailboxes' };
    case 'mailbox.recovered':
      return { title: n.mailboxRecovered(text(p, 'address')), body: n.mailboxRecoveredBody, href: own ?? '/settings/mailboxes' };
    case 'mailbox.stalled':
      return { title: n.mailboxStalled(text(p, 'address')), body: n.mailboxStalledBody[text(p, 'reason')] ?? n.mailboxStalledOther, href: own ?? '/settings/mailboxes' };
    case 'mailbox.removed': {
      const deleted = text(p, 'mode') === 'deleted';
      return {
        title: deleted ? n.mailboxDeleted(text(p, 'address')) : n.mailboxDisconnected(text(p, 'address')),
        body: n.mailboxRemovedBody(count(p, 'unpublishedWorkflows')),
        href: own ?? '/settings/mailboxes',
      };
    }
    case 'execution.failed':
      return { title: n.executionFailed(text(p, 'workflowName')), body: text(p, 'errorSummary') || null, href: own ?? '/executions' };
    case 'approval.pending': {
      const subject = text(p, 'subject');
      return {
        title: n.approvalPending(text(p, 'workflowName')),
        body: subject ? n.approvalSubject(subject) : null,
        href: own ?? '/approvals',
      };
    }
    case 'workflow.notice': {
      const workflowId = text(p, 'workflowId');
      return {
        title: n.workflowNotice(text(p, 'workflowName'), text(p, 'title')),
        body: text(p, 'body') || null,
        href: own ?? (text(p, 'executionId') ? `/executions/${encodeURIComponent(text(p, 'executionId'))}` : workflowId ? `/workflows/${encodeURIComponent(workflowId)}` : null),
      };
    }
    case 'send.held': {
      const where = text(p, 'workflowName') && text(p, 'reason') !== 'mailbox_hourly_cap' ? text(p, 'workflowName') : text(p, 'mailboxAddress');
      return {
        title: t.sendGuard.notification.title(text(p, 'reason'), where),
        body: t.sendGuard.notification.body(Math.max(1, count(p, 'heldCount')), text(p, 'workflowName') !== ''),
        href: own ?? '/review',
      };
    }
    case 'support.reply': {
      const threadId = text(p, 'threadId');
      return {
        title: n.supportReply(text(p, 'authorName'), text(p, 'subject')),
        body: null,
        href: own ?? (threadId ? `/support/${encodeURIComponent(threadId)}` : '/support'),
      };
    }
    default:
      return { title: n.other, body: null, href: own };
  }
}
