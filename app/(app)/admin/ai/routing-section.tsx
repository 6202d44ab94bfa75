'use client';

/**
 * Admin → AI models → routing: per purpose a connection and a model (a select when the connection
 * restricts its models, else free text with suggestions), and what serves the purpose now with its
 * source (this choice, the instance default, the configuration order).
 *
 * Saving sends only the purposes changed here (the route keeps an absent purpose's choice): another administrator's
 * change to another purpose, saved meanwhile, is not put back to what this page read.
 */
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { appErrorOf, describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { FieldError, Input, Select } from '@/app/ui/field';
import { SectionHeader } from '@/app/ui/page-header';
import { ErrorState, LoadingState } from '@/app/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { useAiConnections, useAiRouting, useConnectionModels, usePutAiRouting } from './_lib/api';

export const llmPurposeList = ['classify', 'compose', 'extract', 'general', 'analyzer', 'assistant'] as const;
type Purpose = (typeof llmPurposeList)[number];
type Choice = { connectionId: string; model: string };
type Routing = Record<Purpose, Choice | null>;
type Effective = Record<Purpose, { connectionId: string; provider: string; model: string; source: string } | null>;

function ModelPicker({ purpose, connectionId, value, label, onChange }: { purpose: Purpose; connectionId: string; value: string; label: string; onChange: (model: string) => void }) {
  const models = useConnectionModels(connectionId);
  const listId = `ai-models-${purpose}`;
  if (models.isPending) {
    // Whether it is a list or free text is known once the connection's models are read.
    return (
      <Select controlSize="sm" aria-label={label} value={value} disabled data-testid="ai-routing-model" onChange={() => undefined}>
        <option value={value}>{value}</option>
      </Select>
    );
  }
  if (models.data?.restricted) {
    return (
      <Select controlSize="sm" aria-label={label} value={value} data-testid="ai-routing-model" onChange={(event) => onChange(event.target.value)}>
        <option value="" />
        {models.data.models.map((model) => (
          <option key={model} value={model}>
            {model}
          </option>
        ))}
      </Select>
    );
  }
  return (
    <>
      <Input controlSize="sm" aria-label={label} list={listId} maxLength={128} value={value} data-testid="ai-routing-model" onChange={(event) => onChange(event.target.value)} />
      <datalist id={listId}>
        {(models.data?.models ?? []).map((model) => (
          <option key={model} value={model} />
        ))}
      </datalist>
    </>
  );
}

function RoutingForm({ initial, effective }: { initial: Routing; effective: Effective }) {
  const { t } = useI18n();
  const r = t.aiAdmin.routing;
  const connections = useAiConnections();
  const save = usePutAiRouting();
  // The purposes changed on this page since the last save; the others show the routing as last read.
  const [edits, setEdits] = useState<Partial<Routing>>({});
  const [rowErrors, setRowErrors] = useState<Partial<Record<Purpose, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const labels = new Map((connections.data?.connections ?? []).map((connection) => [connection.id, connection.label]));
  const choiceOf = (purpose: Purpose): Choice | null => (purpose in edits ? (edits[purpose] ?? null) : initial[purpose]);

  function set(purpose: Purpose, choice: Choice | null) {
    setEdits((current) => ({ ...current, [purpose]: choice }));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const edited = llmPurposeList.filter((purpose) => purpose in edits);
    const missing: Partial<Record<Purpose, string>> = {};
    for (const purpose of edited) if (edits[purpose] && !edits[purpose].model.trim()) missing[purpose] = r.modelRequired;
    setRowErrors(missing);
    setFormError(null);
    if (Object.keys(missing).length > 0) return;
    const body = Object.fromEntries(edited.map((purpose) => [purpose, edits[purpose] ? { connectionId: edits[purpose].connectionId, model: edits[purpose].model.trim() } : null])) as Partial<Routing>;
    save.mutate(
      { routing: body },
      {
        // The answer is the whole routing (it becomes `initial`): nothing is left to send.
        onSuccess: () => setEdits({}),
        onError: (error) => {
          const purpose = appErrorOf(error)?.details.purpose;
          if (typeof purpose === 'string' && (llmPurposeList as readonly string[]).includes(purpose)) setRowErrors({ [purpose]: describeError(error, t) });
          else setFormError(describeError(error, t));
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      {formError ? <Alert tone="danger" testId="ai-routing-error">{formError}</Alert> : save.isSuccess ? <Alert tone="success" testId="ai-routing-saved">{r.saved}</Alert> : null}
      <Table caption={r.title}>
        <THead>
          <TH>{r.purpose}</TH>
          <TH>{r.connection}</TH>
          <TH>{r.model}</TH>
          <TH>{r.effective}</TH>
        </THead>
        <TBody>
          {llmPurposeList.map((purpose) => {
            const choice = choiceOf(purpose);
            const now = effective[purpose];
            return (
              <TR key={purpose} data-testid="ai-routing-row" data-purpose={purpose}>
                <TD className="font-medium">{t.aiAdmin.purposes[purpose]}</TD>
                <TD>
                  <Select
                    controlSize="sm"
                    aria-label={`${r.connection} — ${t.aiAdmin.purposes[purpose]}`}
                    value={choice?.connectionId ?? ''}
                    data-testid="ai-routing-connection"
                    onChange={(event) => set(purpose, event.target.value ? { connectionId: event.target.value, model: '' } : null)}
                  >
                    <option value="">{r.none}</option>
                    {(connections.data?.connections ?? []).map((connection) => (
                      <option key={connection.id} value={connection.id}>
                        {connection.label}
                      </option>
                    ))}
                  </Select>
                </TD>
                <TD>
                  {choice ? (
                    <ModelPicker purpose={purpose} connectionId={choice.connectionId} value={choice.model} label={`${r.model} — ${t.aiAdmin.purposes[purpose]}`} onChange={(model) => set(purpose, { ...choice, model })} />
                  ) : null}
                  {rowErrors[purpose] ? <FieldError className="mt-1">{rowErrors[purpose]}</FieldError> : null}
                </TD>
                <TD className="text-xs" data-testid="ai-routing-effective">
                  {now ? (
                    <>
                      <span className="font-medium">{labels.get(now.connectionId) ?? t.aiAdmin.providers[now.provider]}</span> · <span className="font-mono">{now.model}</span>{' '}
                      <span className="text-muted">({r.sources[now.source] ?? now.source})</span>
                    </>
                  ) : (
                    <span className="text-muted">{r.nobody}</span>
                  )}
                </TD>
              </TR>
            );
          })}
        </TBody>
      </Table>
      <Button type="submit" variant="primary" loading={save.isPending} data-testid="ai-routing-save">
        {save.isPending ? r.saving : r.save}
      </Button>
    </form>
  );
}

export function RoutingSection() {
  const { t } = useI18n();
  const r = t.aiAdmin.routing;
  const routing = useAiRouting();
  return (
    <section aria-labelledby="ai-routing">
      <SectionHeader id="ai-routing" title={r.title} description={r.description} />
      {routing.isPending ? (
        <LoadingState rows={3} />
      ) : routing.isError ? (
        <ErrorState error={routing.error} onRetry={() => routing.refetch()} />
      ) : (
        <RoutingForm initial={routing.data.routing} effective={routing.data.effective} />
      )}
    </section>
  );
}
