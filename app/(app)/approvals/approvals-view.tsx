'use client';

/**
 * The approvals inbox: the member's approvals by status (pending first), each with its run's context
 * (workflow, the email that started it, a link to the run) and, while pending, Approve and Reject.
 * Live: the shell re-reads these lists on each `approval.changed` event (../_shell/_lib/live-api.ts),
 * so a new approval, or one decided from an email link or in another tab, shows without a reload.
 */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { formatDateTime } from '@/app/lib/format';
import { Alert } from '@/app/ui/alert';
import { StatusBadge, type BadgeTone } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { Card } from '@/app/ui/card';
import { ApprovalIcon } from '@/app/ui/icons';
import { PageHeader } from '@/app/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { TabPanel, Tabs, useTabsId } from '@/app/ui/tabs';
import { LoadMoreFooter } from '@/app/ui/load-more';
import { useApprovalPages, useDecideApproval, type Approval } from './_lib/api';
import { approvalStatuses, type ApprovalStatus } from './_lib/status';

type Status = ApprovalStatus;

const statuses: readonly Status[] = approvalStatuses;
const tones: Record<Status, BadgeTone> = { pending: 'warning', approved: 'success', rejected: 'danger', expired: 'neutral' };

/** `justDecided`: decided from this page; it stays shown (with what happened) until the tab changes. */
function ApprovalCard({ approval, justDecided, onDecided }: { approval: Approval; justDecided: boolean; onDecided: (approval: Approval) => void }) {
  const { t, locale } = useI18n();
  const decide = useDecideApproval(onDecided);
  const done = justDecided && (approval.status === 'approved' || approval.status === 'rejected') ? approval.status : null;
  const a = t.approvals;
  const sender = approval.trigger ? approval.trigger.fromName || approval.trigger.fromEmail : null;
  return (
    <Card className="p-4" data-testid="approval-card" data-status={approval.status}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <StatusBadge tone={tones[approval.status]}>{a.status[approval.status]}</StatusBadge>
            <h2 className="text-base font-semibold break-words" data-testid="approval-title">
              {approval.title}
            </h2>
          </div>
          {approval.details ? <p className="text-sm whitespace-pre-wrap text-muted">{approval.details}</p> : null}
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
            <dt className="text-muted">{a.workflow}</dt>
            <dd className="min-w-0 truncate">
              {approval.workflowName}{' '}
              <Link href={`/executions/${approval.executionId}`} className="text-brand-fg underline-offset-2 hover:underline" data-testid="approval-run-link">
                {a.openRun}
              </Link>
            </dd>
            <dt className="text-muted">{t.executions.columns.trigger}</dt>
            <dd className="min-w-0" data-testid="approval-trigger">
              {approval.trigger ? (
                <>
                  <span className="block truncate">{approval.trigger.subject || a.noSubject}</span>
                  {sender ? <span className="block truncate text-xs text-muted">{a.fromSender(sender)}</span> : null}
                </>
              ) : (
                <span className="text-muted">{a.noTrigger}</span>
              )}
            </dd>
          </dl>
          <p className="text-xs text-muted">
            {approval.status === 'pending'
              ? a.expiresAt(formatDateTime(approval.expiresAt, locale))
              : approval.status === 'expired'
                ? a.expiredAt(formatDateTime(approval.decidedAt ?? approval.expiresAt, locale))
                : approval.decidedAt
                  ? a.decidedBy(approval.decidedBy ?? '—', formatDateTime(approval.decidedAt, locale))
                  : null}
          </p>
        </div>
        {approval.status === 'pending' ? (
          <div className="flex shrink-0 gap-2">
            <Button variant="primary" loading={decide.isPending && decide.variables?.decision === 'approve'} disabled={decide.isPending} onClick={() => decide.mutate({ id: approval.id, decision: 'approve' })} data-testid="approval-approve">
              {a.approve}
            </Button>
            <Button variant="danger" loading={decide.isPending && decide.variables?.decision === 'reject'} disabled={decide.isPending} onClick={() => decide.mutate({ id: approval.id, decision: 'reject' })} data-testid="approval-reject">
              {a.reject}
            </Button>
          </div>
        ) : null}
      </div>
      {done ? (
        <Alert tone={done === 'approved' ? 'success' : 'info'} testId="approval-decided" className="mt-3">
          {a.decided[done]}
        </Alert>
      ) : null}
      {decide.isError ? (
        <Alert tone="danger" testId="approval-error" className="mt-3">
          {describeError(decide.error, t)}
        </Alert>
      ) : null}
    </Card>
  );
}

export function ApprovalsView({ initialStatus }: { initialStatus: Status }) {
  const { t } = useI18n();
  const router = useRouter();
  const tabsId = useTabsId();
  const [status, setStatus] = useState<Status>(initialStatus);
  // Approvals decided here, kept on screen after the list re-reads without them.
  const [decided, setDecided] = useState<Record<string, Approval>>({});
  const pages = useApprovalPages(status);
  const fetched = pages.data?.pages.flatMap((page) => page.approvals) ?? [];
  const fetchedIds = new Set(fetched.map((approval) => approval.id));
  const approvals = [...Object.values(decided).filter((approval) => !fetchedIds.has(approval.id)), ...fetched.map((approval) => decided[approval.id] ?? approval)];
  const a = t.approvals;

  function changeStatus(next: Status) {
    setStatus(next);
    setDecided({});
    router.replace(next === 'pending' ? '/approvals' : `/approvals?status=${next}`, { scroll: false });
  }

  return (
    <>
      <PageHeader title={a.title} description={a.description} />
      <Tabs id={tabsId} label={a.filters.label} value={status} onChange={changeStatus} items={statuses.map((value) => ({ value, label: a.status[value] }))} />
      <TabPanel id={tabsId} value={status}>
        {pages.isPending ? (
          <LoadingState />
        ) : !pages.data ? (
          <ErrorState error={pages.error} onRetry={() => pages.refetch()} testId="approvals-error" />
        ) : approvals.length === 0 ? (
          <EmptyState icon={<ApprovalIcon size={18} />} title={status === 'pending' ? a.empty.pending.title : a.empty.other.title} body={status === 'pending' ? a.empty.pending.body : a.empty.other.body} />
        ) : (
          <>
            <ul className="space-y-3" data-testid="approvals-list">
              {approvals.map((approval) => (
                <li key={approval.id}>
                  <ApprovalCard
                    approval={approval}
                    justDecided={Object.hasOwn(decided, approval.id)}
                    onDecided={(answer) => setDecided((current) => ({ ...current, [answer.id]: answer }))}
                  />
                </li>
              ))}
            </ul>
            <LoadMoreFooter pages={pages} end={a.end} errorTestId="approvals-more-error" />
          </>
        )}
      </TabPanel>
    </>
  );
}
