'use client';

/**
 * One provider's OAuth application: whether it is registered, the callback URL to copy into the
 * provider's console, the scopes each capability asks for, and the registration form (client id
 * checked against the provider's pattern, secret always re-entered: it is never shown back).
 */
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { formatDateTime } from '@/app/lib/format';
import { oauthCapabilities, type OAuthAppState, type OAuthProvider } from '@/app/lib/mail-types';
import { Alert } from '@/app/ui/alert';
import { Badge, StatusBadge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { Card } from '@/app/ui/card';
import { CopyField } from '@/app/ui/copy-field';
import { SelectField, TextField } from '@/app/ui/field';
import { ErrorState, LoadingState } from '@/app/ui/states';
import { useOAuthApp, useSaveOAuthApp } from './_lib/api';

/** The provider's own pattern; an unreadable one never blocks the form (the service checks anyway). */
function matchesPattern(value: string, pattern: string): boolean {
  try {
    return new RegExp(pattern).test(value);
  } catch {
    return true;
  }
}

function Scopes({ app }: { app: OAuthAppState }) {
  const { t } = useI18n();
  const o = t.oauthApps;
  return (
    <dl className="space-y-2" data-testid="oauth-scopes">
      {oauthCapabilities.map((capability) => {
        const scopes = app.scopesByCapability[capability] ?? [];
        return (
          <div key={capability} className="grid gap-1 sm:grid-cols-[8rem_1fr]">
            <dt className="text-sm font-medium">{o.capabilities[capability]}</dt>
            <dd className="flex flex-wrap gap-1">
              {scopes.length === 0 ? (
                <span className="text-sm text-muted">{o.notOffered}</span>
              ) : (
                scopes.map((scope) => (
                  <Badge key={scope} tone="neutral" className="font-mono text-[11px] break-all whitespace-normal">
                    {scope}
                  </Badge>
                ))
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

function RegistrationForm({ app }: { app: OAuthAppState }) {
  const { t } = useI18n();
  const o = t.oauthApps;
  const save = useSaveOAuthApp();
  const [clientId, setClientId] = useState(app.clientId ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [status, setStatus] = useState<'active' | 'disabled'>(app.status ?? 'active');
  const [errors, setErrors] = useState<{ clientId?: string; clientSecret?: string }>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const id = clientId.trim();
    const found = {
      clientId: !id ? o.clientIdRequired : !matchesPattern(id, app.clientIdPattern) ? o.clientIdInvalid(app.clientIdHint) : undefined,
      clientSecret: clientSecret ? undefined : o.secretRequired,
    };
    setErrors(found);
    if (found.clientId || found.clientSecret) return;
    save.mutate({ provider: app.provider, clientId: id, clientSecret, status }, { onSuccess: () => setClientSecret('') });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      {save.isError ? (
        <Alert tone="danger" testId="oauth-app-error">
          {describeError(save.error, t)}
        </Alert>
      ) : save.isSuccess ? (
        <Alert tone="success" testId="oauth-app-saved">
          {o.saved}
        </Alert>
      ) : null}
      <TextField label={o.clientId} hint={o.clientIdHint(app.clientIdHint)} value={clientId} maxLength={512} autoComplete="off" spellCheck={false} error={errors.clientId} onChange={(event) => setClientId(event.target.value)} />
      <TextField
        label={o.clientSecret}
        type="password"
        hint={app.hasSecret && app.clientSecretHint ? o.secretReplaceHint(app.clientSecretHint) : o.secretHint}
        value={clientSecret}
        maxLength={512}
        autoComplete="new-password"
        error={errors.clientSecret}
        onChange={(event) => setClientSecret(event.target.value)}
      />
      <SelectField label={o.status} value={status} onChange={(event) => setStatus(event.target.value === 'disabled' ? 'disabled' : 'active')}>
        <option value="active">{o.statuses.active}</option>
        <option value="disabled">{o.statuses.disabled}</option>
      </SelectField>
      <Button type="submit" variant="primary" loading={save.isPending}>
        {save.isPending ? o.saving : app.configured ? o.update : o.register}
      </Button>
    </form>
  );
}

export function OAuthAppCard({ provider }: { provider: OAuthProvider }) {
  const { t, locale } = useI18n();
  const o = t.oauthApps;
  const app = useOAuthApp(provider);
  const title = t.oauthProviderNames[provider];

  return (
    <Card className="p-5" data-testid="oauth-app-card" aria-labelledby={`oauth-${provider}`}>
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <h2 id={`oauth-${provider}`} className="text-base font-semibold">
          {title}
        </h2>
        {app.data ? (
          app.data.configured ? (
            <StatusBadge tone={app.data.status === 'disabled' ? 'warning' : 'success'}>{o.statuses[app.data.status ?? 'active']}</StatusBadge>
          ) : (
            <StatusBadge tone="neutral">{o.notConfigured}</StatusBadge>
          )
        ) : null}
        {app.data?.updatedAt ? <span className="text-xs text-muted">{o.updatedAt(formatDateTime(app.data.updatedAt, locale))}</span> : null}
      </div>
      {app.isPending ? (
        <LoadingState rows={3} />
      ) : app.isError ? (
        <ErrorState error={app.error} onRetry={() => app.refetch()} testId="oauth-app-load-error" />
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          <div className="space-y-4">
            <CopyField label={o.redirectUri} value={app.data.redirectUri} testId={`redirect-uri-${provider}`} />
            {app.data.configured && app.data.clientId ? (
              <p className="text-sm">
                <span className="text-muted">{o.currentClientId}</span> <code className="font-mono text-xs break-all">{app.data.clientId}</code>
              </p>
            ) : null}
            <div>
              <h3 className="mb-2 text-sm font-semibold">{o.scopesTitle}</h3>
              <Scopes app={app.data} />
            </div>
          </div>
          <RegistrationForm app={app.data} />
        </div>
      )}
    </Card>
  );
}
