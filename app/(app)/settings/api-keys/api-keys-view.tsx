'use client';

import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import type { Dictionary } from '@/app/i18n';
import { describeError } from '@/app/lib/errors';
import { formatDate, formatDateTime } from '@/app/lib/format';
import type { ApiKey } from '@/app/lib/trpc';
import { Alert } from '@/app/ui/alert';
import { Badge, StatusBadge, type BadgeTone } from '@/app/ui/badge';
import { Button, buttonClasses } from '@/app/ui/button';
import { cn } from '@/app/ui/cn';
import { ConfirmDialog } from '@/app/ui/dialog';
import { BookIcon, KeyIcon, PlusIcon } from '@/app/ui/icons';
import { PageHeader } from '@/app/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import type { ScopeDomain } from '@/server/core/auth/scopes';
import { useApiKeys, useRevokeApiKey } from './_lib/api';
import { CreateKeyDialog } from './create-key-dialog';

type KeyStatus = 'valid' | 'expired' | 'revoked';

function statusOf(key: ApiKey, now = Date.now()): KeyStatus {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && Date.parse(key.expiresAt) <= now) return 'expired';
  return 'valid';
}

const statusTones: Record<KeyStatus, BadgeTone> = { valid: 'success', expired: 'warning', revoked: 'neutral' };

function scopeTitle(scope: string, t: Dictionary): string {
  const [domain, level] = scope.split(':') as [ScopeDomain, 'read' | 'write'];
  return `${t.scopes.domains[domain] ?? domain} — ${level === 'write' ? t.scopes.write : t.scopes.read}`;
}

/** Up to this many badges; beyond, two badges and a "+N" summary (all listed in its tooltip). */
const visibleScopes = 3;

function ScopeBadges({ scopes }: { scopes: string[] }) {
  const { t } = useI18n();
  const cut = scopes.length > visibleScopes ? visibleScopes - 1 : visibleScopes;
  const shown = scopes.slice(0, cut);
  const hidden = scopes.slice(cut);
  return (
    <ul className="flex max-w-64 min-w-48 flex-wrap gap-1">
      {shown.map((scope) => (
        <li key={scope}>
          <Badge tone={scope.endsWith(':write') ? 'brand' : 'neutral'} className="font-mono text-[11px]" title={scopeTitle(scope, t)}>
            {scope}
          </Badge>
        </li>
      ))}
      {hidden.length > 0 ? (
        <li>
          <Badge tone="neutral" title={hidden.join(', ')} aria-label={t.apiKeys.moreScopesLabel(hidden.length) + ': ' + hidden.join(', ')}>
            {t.apiKeys.moreScopes(hidden.length)}
          </Badge>
        </li>
      ) : null}
    </ul>
  );
}

function RevokeKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  const { t } = useI18n();
  const revoke = useRevokeApiKey(onClose);
  return (
    <ConfirmDialog
      open={apiKey !== null}
      onOpenChange={(open) => {
        if (!open) {
          revoke.reset();
          onClose();
        }
      }}
      title={apiKey ? t.apiKeys.revokeTitle(apiKey.name) : ''}
      description={t.apiKeys.revokeBody}
      confirmLabel={revoke.isPending ? t.apiKeys.revoking : t.apiKeys.revokeConfirm}
      pending={revoke.isPending}
      error={
        revoke.isError ? (
          <Alert tone="danger" testId="revoke-key-error">
            {describeError(revoke.error, t)}
          </Alert>
        ) : null
      }
      onConfirm={() => apiKey && revoke.mutate({ id: apiKey.id })}
    />
  );
}

function KeysTable({ keys, onRevoke }: { keys: ApiKey[]; onRevoke: (key: ApiKey) => void }) {
  const { t, locale } = useI18n();
  const now = Date.now();
  return (
    <Table caption={t.apiKeys.title}>
      <THead>
        <TH>
          {t.apiKeys.columns.name}
          <span className="font-normal text-muted/80"> · {t.apiKeys.columns.prefix}</span>
        </TH>
        <TH>{t.apiKeys.columns.scopes}</TH>
        <TH>{t.apiKeys.columns.created}</TH>
        <TH>{t.apiKeys.columns.lastUsed}</TH>
        <TH>{t.apiKeys.columns.expires}</TH>
        <TH>{t.apiKeys.columns.status}</TH>
        <TH className="text-right">
          <span className="sr-only">{t.apiKeys.columns.actions}</span>
        </TH>
      </THead>
      <TBody>
        {keys.map((key) => {
          const status = statusOf(key, now);
          return (
            <TR key={key.id} data-testid="api-key-row" className={cn(status === 'revoked' && 'text-muted')}>
              <TD className="max-w-56">
                <span className="block truncate font-medium" title={key.name}>
                  {key.name}
                </span>
                <code className="font-mono text-xs text-muted">{key.prefix}…</code>
              </TD>
              <TD>
                <ScopeBadges scopes={key.scopes} />
              </TD>
              <TD className="whitespace-nowrap text-muted" title={formatDateTime(key.createdAt, locale)}>
                {formatDate(key.createdAt, locale)}
              </TD>
              <TD className="whitespace-nowrap text-muted">{key.lastUsedAt ? formatDateTime(key.lastUsedAt, locale) : t.common.never}</TD>
              <TD className="whitespace-nowrap text-muted">{key.expiresAt ? formatDate(key.expiresAt, locale) : t.common.never}</TD>
              <TD>
                <span title={key.revokedAt ? t.apiKeys.revokedOn(formatDateTime(key.revokedAt, locale)) : undefined}>
                  <StatusBadge tone={statusTones[status]}>{t.apiKeys.status[status]}</StatusBadge>
                </span>
              </TD>
              <TD className="text-right">
                {status === 'revoked' ? null : (
                  <Button size="sm" variant="dangerGhost" aria-label={t.apiKeys.revokeLabel(key.name)} onClick={() => onRevoke(key)}>
                    {t.apiKeys.revoke}
                  </Button>
                )}
              </TD>
            </TR>
          );
        })}
      </TBody>
    </Table>
  );
}

export function ApiKeysView() {
  const { t, locale } = useI18n();
  const keys = useApiKeys();
  const [createOpen, setCreateOpen] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  // The reference is a page of its own served by the API (not a route of this app): a plain link, in the
  // reader's language, where a key created here can be tried.
  const actions = (
    <>
      <a href={`/api/reference?lang=${locale}`} className={buttonClasses('secondary')} title={t.apiKeys.referenceHint}>
        <BookIcon />
        {t.apiKeys.reference}
      </a>
      <Button variant="primary" onClick={() => setCreateOpen(true)}>
        <PlusIcon />
        {t.apiKeys.create}
      </Button>
    </>
  );

  return (
    <>
      <PageHeader title={t.apiKeys.title} description={t.apiKeys.description} actions={actions} />
      {keys.isPending ? (
        <LoadingState />
      ) : keys.isError ? (
        <ErrorState error={keys.error} onRetry={() => keys.refetch()} />
      ) : keys.data.keys.length === 0 ? (
        <EmptyState icon={<KeyIcon size={18} />} title={t.apiKeys.empty.title} body={t.apiKeys.empty.body} />
      ) : (
        <KeysTable keys={keys.data.keys} onRevoke={setRevoking} />
      )}
      <CreateKeyDialog open={createOpen} onOpenChange={setCreateOpen} />
      <RevokeKeyDialog apiKey={revoking} onClose={() => setRevoking(null)} />
    </>
  );
}
