'use client';

import { useId, useMemo, useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import type { Dictionary } from '@/app/i18n';
import { formatDateTime } from '@/app/lib/format';
import type { AuditEntry, Member } from '@/app/lib/trpc';
import { Badge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { Input, Label } from '@/app/ui/field';
import { ListIcon } from '@/app/ui/icons';
import { PageHeader } from '@/app/ui/page-header';
import { Spinner } from '@/app/ui/spinner';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { LoadMoreFooter } from '@/app/ui/load-more';
import { useAuditMembers, useAuditPages } from './_lib/api';

const pageSize = 50;

/** Actions recorded so far, offered as suggestions; any other action can still be typed. */
const knownActions = [
  'api_key.created',
  'api_key.revoked',
  'invitation.accepted',
  'invitation.created',
  'invitation.revoked',
  'member.deactivated',
  'member.password_changed',
  'member.reactivated',
  'member.role_changed',
];

function short(id: string): string {
  return id.length > 8 ? `${id.slice(0, 8)}…` : id;
}

function detailValue(value: unknown): string {
  if (Array.isArray(value)) return value.map(detailValue).join(', ');
  if (value && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .filter(([key]) => key !== 'apiKeyId')
    .map(([key, value]) => `${key}: ${detailValue(value)}`)
    .join(' · ');
}

function actorOf(entry: AuditEntry, members: Map<string, Member>, t: Dictionary): { label: string; title?: string } {
  if (entry.actorKind !== 'member' || !entry.actorMemberId) return { label: t.audit.actorKinds[entry.actorKind] };
  const member = members.get(entry.actorMemberId);
  return member ? { label: member.name, title: member.email } : { label: short(entry.actorMemberId), title: entry.actorMemberId };
}

function AuditTable({ entries, members }: { entries: AuditEntry[]; members: Map<string, Member> }) {
  const { t, locale } = useI18n();
  return (
    <Table caption={t.audit.title}>
      <THead>
        <TH>{t.audit.columns.at}</TH>
        <TH>{t.audit.columns.actor}</TH>
        <TH>{t.audit.columns.action}</TH>
        <TH>{t.audit.columns.target}</TH>
        <TH>{t.audit.columns.details}</TH>
        <TH>{t.audit.columns.ip}</TH>
      </THead>
      <TBody>
        {entries.map((entry) => {
          const actor = actorOf(entry, members, t);
          const details = detailsText(entry.details);
          return (
            <TR key={entry.id} data-testid="audit-row">
              <TD className="whitespace-nowrap text-muted">{formatDateTime(entry.at, locale)}</TD>
              <TD>
                <span className="block font-medium whitespace-nowrap" title={actor.title}>
                  {actor.label}
                </span>
                {typeof entry.details.apiKeyId === 'string' ? <span className="block text-xs text-muted">{t.audit.viaApiKey}</span> : null}
              </TD>
              <TD>
                <Badge tone="neutral" className="font-mono text-[11px]">
                  {entry.action}
                </Badge>
              </TD>
              <TD className="whitespace-nowrap text-muted">
                {entry.targetKind}
                {entry.targetId ? (
                  <code className="ml-1.5 font-mono text-xs" title={entry.targetId}>
                    {short(entry.targetId)}
                  </code>
                ) : null}
              </TD>
              <TD className="max-w-64 truncate text-xs text-muted" title={details}>
                {details || '—'}
              </TD>
              <TD className="font-mono text-xs whitespace-nowrap text-muted">{entry.ip ?? '—'}</TD>
            </TR>
          );
        })}
      </TBody>
    </Table>
  );
}

function ActionFilter({ value, onApply }: { value: string; onApply: (action: string) => void }) {
  const { t } = useI18n();
  const [text, setText] = useState(value);
  const id = useId();
  const listId = `${id}-actions`;

  function submit(event: FormEvent) {
    event.preventDefault();
    onApply(text.trim());
  }

  return (
    <form onSubmit={submit} role="search" className="mb-4 flex flex-wrap items-end gap-2">
      <div className="w-full space-y-1.5 sm:w-72">
        <Label htmlFor={id}>{t.audit.filterLabel}</Label>
        <Input id={id} list={listId} value={text} placeholder={t.audit.filterPlaceholder} onChange={(event) => setText(event.target.value)} />
      </div>
      <datalist id={listId}>
        {knownActions.map((action) => (
          <option key={action} value={action} />
        ))}
      </datalist>
      <Button type="submit">{t.audit.apply}</Button>
      {value ? (
        <Button
          variant="ghost"
          onClick={() => {
            setText('');
            onApply('');
          }}
        >
          {t.audit.clear}
        </Button>
      ) : null}
    </form>
  );
}

export function AuditView() {
  const { t } = useI18n();
  const [action, setAction] = useState('');
  const entries = useAuditPages(action, pageSize);
  // Names of actors; the log still shows ids if this list is unavailable.
  const members = useAuditMembers();
  const memberMap = useMemo(() => new Map((members.data?.members ?? []).map((member) => [member.id, member])), [members.data]);
  const rows = entries.data?.pages.flatMap((page) => page.entries) ?? [];

  return (
    <>
      <PageHeader title={t.audit.title} description={t.audit.description} />
      <ActionFilter value={action} onApply={setAction} />
      {entries.isPending ? (
        <LoadingState rows={6} />
      ) : !entries.data ? (
        <ErrorState error={entries.error} onRetry={() => entries.refetch()} testId="audit-error" />
      ) : rows.length === 0 ? (
        action ? (
          <EmptyState icon={<ListIcon size={18} />} title={t.audit.emptyFiltered.title} body={t.audit.emptyFiltered.body(action)} />
        ) : (
          <EmptyState icon={<ListIcon size={18} />} title={t.audit.empty.title} body={t.audit.empty.body} />
        )
      ) : (
        <>
          <AuditTable entries={rows} members={memberMap} />
          <LoadMoreFooter pages={entries} end={t.audit.end} endClassName="text-sm text-muted" />
          {entries.isError ? (
            <div className="mt-4">
              <ErrorState
                error={entries.error}
                onRetry={() => (entries.isFetchNextPageError ? entries.fetchNextPage() : entries.refetch())}
                testId="audit-more-error"
              />
            </div>
          ) : null}
        </>
      )}
      {entries.isFetching && !entries.isPending && !entries.isFetchingNextPage ? (
        <span role="status" className="sr-only">
          <Spinner />
          {t.common.loading}
        </span>
      ) : null}
    </>
  );
}
