'use client';

/**
 * Settings → Connections → My AI keys: a member's own keys for AI providers (`llm_provider`
 * connections), shown only when the instance allows them (`GET /api/v1/llm-member-keys`). Lists them
 * (label, provider, the key's last four characters only), adds one (provider, label, key, base URL as
 * the provider needs them; server refusals at their field), tests one against its provider, and
 * deletes one. A key is never shown back.
 */
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { appErrorOf, describeError } from '@/app/lib/errors';
import { formatDateTime } from '@/app/lib/format';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { ConfirmDialog, Dialog, DialogBody, DialogContent, DialogForm, FormDialogFooter } from '@/app/ui/dialog';
import { SelectField, TextField } from '@/app/ui/field';
import { SectionHeader } from '@/app/ui/page-header';
import { ErrorState, LoadingState } from '@/app/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { aiKeyType, useAiKeyActions, useAiKeys, type AiKey, type AiKeyTest, type MemberKeysSettings } from './_lib/api';

type ProviderNeeds = MemberKeysSettings['providers'][number];
type FieldErrors = { name?: string; apiKey?: string; baseUrl?: string; form?: string };

function AddKeyDialog({ providers, onDone }: { providers: ProviderNeeds[]; onDone: () => void }) {
  const { t } = useI18n();
  const k = t.aiKeys;
  const { create } = useAiKeyActions();
  const [provider, setProvider] = useState(providers[0]?.provider ?? 'ai_vendor_a');
  const [name, setName] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const needs = providers.find((item) => item.provider === provider) ?? { provider, apiKey: 'required', baseUrl: 'optional' };

  function serverErrors(error: unknown): FieldErrors {
    const info = appErrorOf(error);
    if (info?.code === 'llm.invalid_base_url') {
      const reason = typeof info.details.reason === 'string' ? info.details.reason : '';
      return { baseUrl: k.baseUrlReasons[reason] ?? describeError(error, t) };
    }
    return { form: describeError(error, t) };
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: FieldErrors = {
      name: name.trim() ? undefined : k.nameRequired,
      apiKey: needs.apiKey === 'required' && !apiKey ? k.apiKeyRequired : undefined,
      baseUrl: needs.baseUrl === 'required' && !baseUrl.trim() ? k.baseUrlReasons.required : undefined,
    };
    setErrors(found);
    if (found.name || found.apiKey || found.baseUrl) return;
    const data = { provider, ...(apiKey ? { apiKey } : {}), ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}) };
    create.mutate({ type: aiKeyType, name: name.trim(), scope: 'member', data }, { onSuccess: onDone, onError: (error) => setErrors(serverErrors(error)) });
  }

  return (
    <DialogContent title={k.addTitle} size="lg">
      <DialogForm onSubmit={submit} data-testid="ai-key-form">
        <DialogBody className="space-y-4">
          {errors.form ? (
            <Alert tone="danger" testId="ai-key-error">
              {errors.form}
            </Alert>
          ) : null}
          <SelectField label={k.provider} value={provider} data-testid="ai-key-provider" onChange={(event) => setProvider(event.target.value as typeof provider)}>
            {providers.map((item) => (
              <option key={item.provider} value={item.provider}>
                {t.aiAdmin.providers[item.provider] ?? item.provider}
              </option>
            ))}
          </SelectField>
          <TextField label={k.name} hint={k.nameHint} value={name} maxLength={80} error={errors.name} data-testid="ai-key-name" onChange={(event) => setName(event.target.value)} />
          <TextField
            label={k.apiKey}
            type="password"
            autoComplete="new-password"
            maxLength={512}
            value={apiKey}
            optional={needs.apiKey === 'optional' ? t.common.optional : undefined}
            hint={needs.apiKey === 'optional' ? k.apiKeyOptionalHint : k.apiKeyHint}
            error={errors.apiKey}
            data-testid="ai-key-key"
            onChange={(event) => setApiKey(event.target.value)}
          />
          <TextField
            label={k.baseUrl}
            type="url"
            maxLength={2048}
            value={baseUrl}
            optional={needs.baseUrl === 'optional' ? t.common.optional : undefined}
            hint={needs.baseUrl === 'required' ? k.baseUrlRequiredHint : k.baseUrlHint}
            error={errors.baseUrl}
            data-testid="ai-key-base-url"
            onChange={(event) => setBaseUrl(event.target.value)}
          />
        </DialogBody>
        <FormDialogFooter pending={create.isPending} submitLabel={k.create} pendingLabel={k.creating} />
      </DialogForm>
    </DialogContent>
  );
}

function testText(result: AiKeyTest, k: ReturnType<typeof useI18n>['t']['aiKeys']): string {
  return result.ok ? k.testOk(result.modelCount, result.latencyMs) : k.testFailed(result.message);
}

function KeyRow({ item, onDelete }: { item: AiKey; onDelete: (item: AiKey) => void }) {
  const { t, locale } = useI18n();
  const k = t.aiKeys;
  const { test } = useAiKeyActions();
  return (
    <TR data-testid="ai-key-row" data-name={item.name}>
      <TD className="max-w-64">
        <span className="block truncate font-medium" title={item.name}>
          {item.name}
        </span>
        {test.data ? (
          <span className={test.data.ok ? 'text-xs text-emerald-700 dark:text-emerald-300' : 'text-xs text-red-700 dark:text-red-300'} role="status" data-testid="ai-key-test-result">
            {testText(test.data, k)}
          </span>
        ) : test.isError ? (
          <span className="text-xs text-red-700 dark:text-red-300" role="status" data-testid="ai-key-test-result">
            {describeError(test.error, t)}
          </span>
        ) : null}
      </TD>
      <TD>{item.integration ? (t.aiAdmin.providers[item.integration] ?? item.integration) : '—'}</TD>
      <TD className="font-mono text-xs text-muted" data-testid="ai-key-hint">
        {item.hint ? `••••${item.hint}` : k.noKey}
      </TD>
      <TD className="whitespace-nowrap text-muted">{formatDateTime(item.createdAt, locale)}</TD>
      <TD className="text-right whitespace-nowrap">
        <Button size="sm" variant="ghost" aria-label={k.testLabel(item.name)} loading={test.isPending} onClick={() => test.mutate({ id: item.id })} data-testid="ai-key-test">
          {test.isPending ? k.testing : k.test}
        </Button>
        <Button size="sm" variant="dangerGhost" aria-label={k.deleteLabel(item.name)} onClick={() => onDelete(item)} data-testid="ai-key-delete">
          {k.delete}
        </Button>
      </TD>
    </TR>
  );
}

function DeleteKeyDialog({ item, onClose }: { item: AiKey | null; onClose: () => void }) {
  const { t } = useI18n();
  const k = t.aiKeys;
  const { remove } = useAiKeyActions();
  return (
    <ConfirmDialog
      open={item !== null}
      onOpenChange={(open) => {
        if (!open) {
          remove.reset();
          onClose();
        }
      }}
      title={item ? k.deleteTitle(item.name) : ''}
      description={k.deleteBody}
      confirmLabel={remove.isPending ? k.deleting : k.deleteConfirm}
      pending={remove.isPending}
      error={remove.isError ? <Alert tone="danger" testId="ai-key-delete-error">{describeError(remove.error, t)}</Alert> : null}
      onConfirm={() => item && remove.mutate({ id: item.id }, { onSuccess: onClose })}
    />
  );
}

/** The section; renders nothing unless the instance allows members' own keys. */
export function AiKeysSection({ settings }: { settings: MemberKeysSettings }) {
  const { t } = useI18n();
  const k = t.aiKeys;
  const keys = useAiKeys(settings.allowed);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<AiKey | null>(null);
  if (!settings.allowed) return null;

  return (
    <section aria-labelledby="ai-keys-heading" data-testid="ai-keys">
      <SectionHeader
        id="ai-keys-heading"
        title={k.title}
        description={k.description}
        actions={
          <Button variant="secondary" data-testid="ai-key-add" onClick={() => setAdding(true)}>
            {k.add}
          </Button>
        }
      />
      {keys.isPending ? (
        <LoadingState rows={2} />
      ) : keys.isError ? (
        <ErrorState error={keys.error} onRetry={() => keys.refetch()} testId="ai-keys-error" />
      ) : keys.data.length === 0 ? (
        <p className="rounded-lg border border-dashed border-line px-4 py-6 text-center text-sm text-muted" data-testid="ai-keys-empty">
          {k.empty}
        </p>
      ) : (
        <Table caption={k.title}>
          <THead>
            <TH>{k.columns.name}</TH>
            <TH>{k.columns.provider}</TH>
            <TH>{k.columns.key}</TH>
            <TH>{k.columns.added}</TH>
            <TH className="text-right">
              <span className="sr-only">{k.columns.actions}</span>
            </TH>
          </THead>
          <TBody>
            {keys.data.map((item) => (
              <KeyRow key={item.id} item={item} onDelete={setDeleting} />
            ))}
          </TBody>
        </Table>
      )}
      <Dialog open={adding} onOpenChange={setAdding}>
        {adding ? <AddKeyDialog providers={settings.providers} onDone={() => setAdding(false)} /> : null}
      </Dialog>
      <DeleteKeyDialog item={deleting} onClose={() => setDeleting(null)} />
    </section>
  );
}
