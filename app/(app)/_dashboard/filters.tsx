'use client';

/** Period, scope, member, mailbox and workflow of the dashboard: each change rewrites the address. */
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { Input, Select } from '@/app/ui/field';
import { useWorkflowList } from '../workflows/_lib/api';
import { useFilterLists } from './_lib/api';
import { customProblem, periods, type DashboardView, type Period } from './search';

function Labelled({ label, className, children }: { label: string; className?: string; children: React.ReactNode }) {
  return (
    <label className={className}>
      <span className="mb-1 block text-xs font-medium text-muted">{label}</span>
      {children}
    </label>
  );
}

export function DashboardFilters({ view, isAdmin, onChange, tz }: { view: DashboardView; isAdmin: boolean; onChange: (next: DashboardView) => void; tz: string }) {
  const { t } = useI18n();
  const texts = t.dashboard.filters;
  const workflows = useWorkflowList();
  const { mailboxes, members } = useFilterLists(isAdmin && view.scope === 'org');
  // The custom days are kept here until both are valid, so a half-typed range does not rewrite the address.
  const [draft, setDraft] = useState({ from: view.from, to: view.to });
  const problem = view.period === 'custom' ? customProblem({ ...view, ...draft }) : null;

  function changeDays(next: { from: string; to: string }) {
    setDraft(next);
    if (!customProblem({ ...view, ...next })) onChange({ ...view, ...next });
  }

  return (
    <form role="search" aria-label={texts.label} className="mb-6 flex flex-wrap items-end gap-3" onSubmit={(event) => event.preventDefault()} data-testid="dashboard-filters">
      <Labelled label={texts.period} className="w-44">
        <Select controlSize="sm" value={view.period} onChange={(event) => onChange({ ...view, period: event.target.value as Period })} data-testid="dashboard-period">
          {periods.map((period) => (
            <option key={period} value={period}>
              {texts.periods[period]}
            </option>
          ))}
        </Select>
      </Labelled>
      {view.period === 'custom' ? (
        <>
          <Labelled label={texts.from} className="w-40">
            <Input controlSize="sm" type="date" value={draft.from} max={draft.to || undefined} onChange={(event) => changeDays({ ...draft, from: event.target.value })} aria-invalid={problem ? true : undefined} data-testid="dashboard-from" />
          </Labelled>
          <Labelled label={texts.to} className="w-40">
            <Input controlSize="sm" type="date" value={draft.to} min={draft.from || undefined} onChange={(event) => changeDays({ ...draft, to: event.target.value })} aria-invalid={problem ? true : undefined} data-testid="dashboard-to" />
          </Labelled>
        </>
      ) : null}
      {isAdmin ? (
        <Labelled label={texts.scope} className="w-48">
          <Select controlSize="sm" value={view.scope} onChange={(event) => onChange({ ...view, scope: event.target.value === 'org' ? 'org' : 'me', memberId: '' })} data-testid="dashboard-scope">
            <option value="me">{texts.scopes.me}</option>
            <option value="org">{texts.scopes.org}</option>
          </Select>
        </Labelled>
      ) : null}
      {isAdmin && view.scope === 'org' ? (
        <Labelled label={texts.member} className="w-48">
          <Select controlSize="sm" value={view.memberId} onChange={(event) => onChange({ ...view, memberId: event.target.value })} data-testid="dashboard-member">
            <option value="">{texts.anyMember}</option>
            {(members.data?.members ?? []).map((member) => (
              <option key={member.id} value={member.id}>
                {member.name}
              </option>
            ))}
          </Select>
        </Labelled>
      ) : null}
      <Labelled label={texts.mailbox} className="w-52">
        <Select controlSize="sm" value={view.mailboxId} onChange={(event) => onChange({ ...view, mailboxId: event.target.value })} data-testid="dashboard-mailbox">
          <option value="">{texts.anyMailbox}</option>
          {(mailboxes.data?.mailboxes ?? []).map((mailbox) => (
            <option key={mailbox.id} value={mailbox.id}>
              {mailbox.address}
            </option>
          ))}
        </Select>
      </Labelled>
      <Labelled label={texts.workflow} className="w-52">
        <Select controlSize="sm" value={view.workflowId} onChange={(event) => onChange({ ...view, workflowId: event.target.value })} data-testid="dashboard-workflow">
          <option value="">{texts.anyWorkflow}</option>
          {(workflows.data?.workflows ?? []).map((workflow) => (
            <option key={workflow.id} value={workflow.id}>
              {workflow.name}
            </option>
          ))}
        </Select>
      </Labelled>
      <p className="pb-1.5 text-xs text-muted" data-testid="dashboard-tz">
        {texts.timeZone(tz)}
      </p>
      {problem ? (
        <p role="alert" className="w-full text-xs text-red-700 dark:text-red-400" data-testid="dashboard-period-problem">
          {texts.customProblems[problem]}
        </p>
      ) : null}
    </form>
  );
}
