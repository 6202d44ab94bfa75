'use client';

/** Settings → Exclusions: senders whose mail starts no workflow, the member's own then (administrators) the organisation's. */
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { formatDateTime } from '@/app/lib/format';
import { Alert } from '@/app/ui/alert';
import { Badge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { ConfirmDialog } from '@/app/ui/dialog';
import { BanIcon } from '@/app/ui/icons';
import { PageHeader, SectionHeader } from '@/app/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { useMe } from '../../_shell/_lib/api';
import { AddExclusionForm } from './add-exclusion-form';
import { useExclusionActions, useExclusions, type ExclusionScope } from './_lib/api';

interface Exclusion {
  id: string;
  kind: 'address' | 'domain';
  value: string;
  note: string;
  createdAt: string;
}

function ExclusionTable({ caption, items, onDelete }: { caption: string; items: Exclusion[]; onDelete: (exclusion: Exclusion) => void }) {
  const { t, locale } = useI18n();
  const x = t.exclusions;
  return (
    <Table caption={caption}>
      <THead>
        <TH>{x.columns.kind}</TH>
        <TH>{x.columns.value}</TH>
        <TH>{x.columns.note}</TH>
        <TH>{x.columns.added}</TH>
        <TH className="text-right">
          <span className="sr-only">{x.columns.actions}</span>
        </TH>
      </THead>
      <TBody>
        {items.map((exclusion) => (
          <TR key={exclusion.id} data-testid="exclusion-row">
            <TD>
              <Badge tone="neutral">{x.kinds[exclusion.kind]}</Badge>
            </TD>
            <TD className="max-w-72">
              <span className="block truncate font-mono text-[13px]" title={exclusion.value}>
                {exclusion.value}
              </span>
            </TD>
            <TD className="max-w-72">
              <span className="block truncate text-muted" title={exclusion.note || undefined}>
                {exclusion.note}
              </span>
            </TD>
            <TD className="whitespace-nowrap text-muted">{formatDateTime(exclusion.createdAt, locale)}</TD>
            <TD className="text-right whitespace-nowrap">
              <Button size="sm" variant="dangerGhost" aria-label={x.deleteLabel(exclusion.value)} onClick={() => onDelete(exclusion)}>
                {x.delete}
              </Button>
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}

function DeleteDialog({ scope, exclusion, onClose }: { scope: ExclusionScope; exclusion: Exclusion | null; onClose: () => void }) {
  const { t } = useI18n();
  const x = t.exclusions;
  const { remove } = useExclusionActions(scope);
  return (
    <ConfirmDialog
      open={exclusion !== null}
      onOpenChange={(open) => {
        if (!open) {
          remove.reset();
          onClose();
        }
      }}
      title={exclusion ? x.deleteTitle(exclusion.value) : ''}
      description={x.deleteBody}
      confirmLabel={remove.isPending ? x.deleting : x.deleteConfirm}
      pending={remove.isPending}
      error={remove.isError ? <Alert tone="danger" testId="delete-exclusion-error">{describeError(remove.error, t)}</Alert> : null}
      onConfirm={() => exclusion && remove.mutate({ id: exclusion.id }, { onSuccess: onClose })}
    />
  );
}

function ExclusionSection({ scope }: { scope: ExclusionScope }) {
  const { t } = useI18n();
  const x = t.exclusions;
  const list = useExclusions(scope);
  const [deleting, setDeleting] = useState<Exclusion | null>(null);
  const headingId = `exclusions-${scope}-heading`;
  const title = scope === 'org' ? x.org : x.mine;
  const empty = scope === 'org' ? x.emptyOrg : x.emptyMine;
  return (
    <section aria-labelledby={headingId} data-testid={`exclusions-${scope}`}>
      <SectionHeader id={headingId} title={title} description={scope === 'org' ? x.orgDescription : x.mineDescription} />
      {list.isPending ? (
        <LoadingState rows={2} />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => list.refetch()} testId={`exclusions-${scope}-error`} />
      ) : list.data.length === 0 ? (
        <EmptyState icon={<BanIcon size={18} />} title={empty.title} body={empty.body} />
      ) : (
        <ExclusionTable caption={title} items={list.data} onDelete={setDeleting} />
      )}
      <AddExclusionForm scope={scope} />
      <DeleteDialog scope={scope} exclusion={deleting} onClose={() => setDeleting(null)} />
    </section>
  );
}

export function ExclusionsView() {
  const { t } = useI18n();
  const x = t.exclusions;
  const me = useMe();
  const isAdmin = me.data?.role === 'admin';
  return (
    <>
      <PageHeader title={x.title} description={x.description} />
      <Alert tone="info" live="none" className="mb-8" testId="exclusions-explanation">
        {x.explanation}
      </Alert>
      <div className="space-y-10">
        <ExclusionSection scope="member" />
        {isAdmin ? <ExclusionSection scope="org" /> : null}
      </div>
    </>
  );
}
