'use client';

/** Settings → Connections: secrets lent to workflows, the member's then the organisation's. */
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { formatDateTime } from '@/app/lib/format';
import { callbackNotice } from '@/app/lib/oauth-callback';
import type { Connection } from '@/app/lib/mail-types';
import { realProviderName } from '@/app/lib/provider-names';
import { Alert } from '@/app/ui/alert';
import { Badge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { ConfirmDialog } from '@/app/ui/dialog';
import { PlugIcon, PlusIcon } from '@/app/ui/icons';
import { PageHeader, SectionHeader } from '@/app/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { useMe } from '../../_shell/_lib/api';
import { AiKeysSection } from './ai-keys-section';
import { ConnectionDialog } from './connection-dialog';
import { aiKeyType, useConnectionActions, useConnections, useMemberKeysSettings, useOAuthGrants } from './_lib/api';

/** Types whose secret only their own flow writes (IMAP mailboxes, OAuth grants): listed, deletable, not editable. */
const managedTypes = new Set(['imap', 'mail_provider_a_oauth', 'mail_provider_b_oauth']);

function ConnectionTable({
  caption,
  items,
  canManage,
  onEdit,
  onDelete,
}: {
  caption: string;
  items: Connection[];
  canManage: (connection: Connection) => boolean;
  onEdit: (connection: Connection) => void;
  onDelete: (connection: Connection) => void;
}) {
  const { t, locale } = useI18n();
  const c = t.connections;
  return (
    <Table caption={caption}>
      <THead>
        <TH>{c.columns.name}</TH>
        <TH>{c.columns.type}</TH>
        <TH>{c.columns.secret}</TH>
        <TH>{c.columns.updated}</TH>
        <TH className="text-right">
          <span className="sr-only">{c.columns.actions}</span>
        </TH>
      </THead>
      <TBody>
        {items.map((connection) => (
          <TR key={connection.id} data-testid="connection-row">
            <TD className="max-w-64">
              <span className="block truncate font-medium" title={connection.name}>
                {connection.name}
              </span>
              {connection.capabilities && connection.capabilities.length > 0 ? (
                <span className="text-xs text-muted">{connection.capabilities.join(', ')}</span>
              ) : null}
              {connection.type === 'http_generic' ? (
                <span className="block truncate text-xs text-muted" data-testid="connection-hosts">
                  {connection.allowedHosts && connection.allowedHosts.length > 0
                    ? c.sentTo(connection.allowedHosts.join(', '))
                    : connection.scope === 'org'
                      ? c.hostsMissing
                      : c.hostsUnbound}
                </span>
              ) : null}
            </TD>
            <TD>
              <Badge tone="neutral" className="font-mono text-[11px]">
                {connection.type === 'http_generic' ? c.httpType : (realProviderName(connection.type) ?? connection.type)}
              </Badge>
              {connection.kind ? <span className="ml-2 text-xs text-muted">{c.kinds[connection.kind]}</span> : null}
            </TD>
            <TD className="font-mono text-xs text-muted">{connection.hint ? `••••${connection.hint}` : '••••'}</TD>
            <TD className="whitespace-nowrap text-muted">{formatDateTime(connection.updatedAt, locale)}</TD>
            <TD className="text-right whitespace-nowrap">
              {canManage(connection) ? (
                <>
                  {managedTypes.has(connection.type) ? null : (
                    <Button size="sm" variant="ghost" aria-label={c.editLabel(connection.name)} onClick={() => onEdit(connection)}>
                      {c.edit}
                    </Button>
                  )}
                  <Button size="sm" variant="dangerGhost" aria-label={c.deleteLabel(connection.name)} onClick={() => onDelete(connection)}>
                    {c.delete}
                  </Button>
                </>
              ) : (
                <span className="text-xs text-muted">{c.readOnly}</span>
              )}
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}

function DeleteDialog({ connection, onClose }: { connection: Connection | null; onClose: () => void }) {
  const { t } = useI18n();
  const { remove } = useConnectionActions();
  return (
    <ConfirmDialog
      open={connection !== null}
      onOpenChange={(open) => {
        if (!open) {
          remove.reset();
          onClose();
        }
      }}
      title={connection ? t.connections.deleteTitle(connection.name) : ''}
      description={t.connections.deleteBody}
      confirmLabel={remove.isPending ? t.connections.deleting : t.connections.deleteConfirm}
      pending={remove.isPending}
      error={remove.isError ? <Alert tone="danger" testId="delete-connection-error">{describeError(remove.error, t)}</Alert> : null}
      onConfirm={() => connection && remove.mutate({ id: connection.id }, { onSuccess: onClose })}
    />
  );
}

export function ConnectionsView() {
  const { t } = useI18n();
  const c = t.connections;
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const me = useMe();
  const isAdmin = me.data?.role === 'admin';
  const connections = useConnections();
  const grants = useOAuthGrants();
  const [editing, setEditing] = useState<Connection | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [deleting, setDeleting] = useState<Connection | null>(null);
  const notice = callbackNotice(params, t, c.oauthConnected);

  const memberKeys = useMemberKeysSettings();
  const keysAllowed = memberKeys.data?.allowed === true;

  const canManage = (connection: Connection) => connection.scope === 'member' || isAdmin;
  // With members' AI keys allowed, those keys have their own section below.
  const mine = connections.data?.filter((item) => item.scope === 'member' && !(keysAllowed && item.type === aiKeyType)) ?? [];
  const org = connections.data?.filter((item) => item.scope === 'org') ?? [];
  const table = (caption: string, items: Connection[]) => (
    <ConnectionTable
      caption={caption}
      items={items}
      canManage={canManage}
      onEdit={(connection) => {
        setEditing(connection);
        setDialogOpen(true);
      }}
      onDelete={setDeleting}
    />
  );

  return (
    <>
      <PageHeader
        title={c.title}
        description={c.description}
        actions={
          <Button
            variant="primary"
            onClick={() => {
              setEditing(null);
              setDialogOpen(true);
            }}
          >
            <PlusIcon />
            {c.create}
          </Button>
        }
      />
      {notice ? (
        <Alert tone={notice.tone === 'danger' ? 'danger' : 'success'} testId="connections-notice" className="mb-6" action={<Button size="sm" variant="ghost" onClick={() => router.replace(pathname)}>{t.common.close}</Button>}>
          {notice.text}
        </Alert>
      ) : null}
      {connections.isPending ? (
        <LoadingState rows={3} />
      ) : connections.isError ? (
        <ErrorState error={connections.error} onRetry={() => connections.refetch()} testId="connections-error" />
      ) : (
        <div className="space-y-8">
          <section aria-labelledby="mine-heading">
            <SectionHeader id="mine-heading" title={c.mine} description={c.mineDescription} />
            {mine.length === 0 ? <EmptyState icon={<PlugIcon size={18} />} title={c.emptyMine.title} body={c.emptyMine.body} /> : table(c.mine, mine)}
          </section>
          {memberKeys.data && keysAllowed ? <AiKeysSection settings={memberKeys.data} /> : null}
          <section aria-labelledby="org-heading">
            <SectionHeader id="org-heading" title={c.org} description={isAdmin ? c.orgDescriptionAdmin : c.orgDescription} />
            {org.length === 0 ? <EmptyState icon={<PlugIcon size={18} />} title={c.emptyOrg.title} body={isAdmin ? c.emptyOrg.bodyAdmin : c.emptyOrg.body} /> : table(c.org, org)}
          </section>
          {grants.length > 0 ? (
            <section aria-labelledby="grants-heading">
              <SectionHeader id="grants-heading" title={c.grants} description={c.grantsDescription} />
              {table(c.grants, grants)}
            </section>
          ) : null}
        </div>
      )}
      <ConnectionDialog open={dialogOpen} existing={editing} isAdmin={isAdmin} onOpenChange={setDialogOpen} />
      <DeleteDialog connection={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}
