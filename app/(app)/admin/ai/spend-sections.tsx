'use client';

/** Admin → AI models → monthly budgets, the price table and a month's usage. */
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { Input, Select, TextField } from '@/app/ui/field';
import { SectionHeader } from '@/app/ui/page-header';
import { ErrorState, LoadingState } from '@/app/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { aiProviderList, type AiProviderName } from './connections-section';
import { useAiBudgets, useAiPrices, useAiUsage, usePutAiBudgets, usePutAiPrices } from './_lib/api';

function usd(amount: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', maximumFractionDigits: 4 }).format(amount);
}

/** '' → null, a number in range → the number, anything else → undefined (invalid). */
function parseAmount(raw: string, max: number): number | null | undefined {
  const text = raw.trim().replace(',', '.');
  if (text === '') return null;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 && value <= max ? value : undefined;
}

function BudgetsForm({ instance, member, month, spent }: { instance: number | null; member: number | null; month: string; spent: number }) {
  const { t, locale } = useI18n();
  const b = t.aiAdmin.budgets;
  const save = usePutAiBudgets();
  const [instanceText, setInstanceText] = useState(instance === null ? '' : String(instance));
  const [memberText, setMemberText] = useState(member === null ? '' : String(member));
  const [errors, setErrors] = useState<{ instance?: string; member?: string }>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const instanceMonthlyUsd = parseAmount(instanceText, 1_000_000_000);
    const memberMonthlyUsd = parseAmount(memberText, 1_000_000_000);
    const found = { instance: instanceMonthlyUsd === undefined ? b.invalid : undefined, member: memberMonthlyUsd === undefined ? b.invalid : undefined };
    setErrors(found);
    if (instanceMonthlyUsd === undefined || memberMonthlyUsd === undefined) return;
    save.mutate({ instanceMonthlyUsd, memberMonthlyUsd });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-3" data-testid="ai-budgets-form">
      {save.isError ? <Alert tone="danger" testId="ai-budgets-error">{describeError(save.error, t)}</Alert> : save.isSuccess ? <Alert tone="success" testId="ai-budgets-saved">{b.saved}</Alert> : null}
      <p className="text-sm text-muted" data-testid="ai-budgets-spent">
        {b.spent(usd(spent, locale), month)}
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label={b.instance} inputMode="decimal" value={instanceText} error={errors.instance} data-testid="ai-budget-instance" onChange={(event) => setInstanceText(event.target.value)} />
        <TextField label={b.member} inputMode="decimal" value={memberText} error={errors.member} data-testid="ai-budget-member" onChange={(event) => setMemberText(event.target.value)} />
      </div>
      <Button type="submit" variant="primary" loading={save.isPending} data-testid="ai-budgets-save">
        {save.isPending ? b.saving : b.save}
      </Button>
    </form>
  );
}

export function BudgetsSection() {
  const { t } = useI18n();
  const budgets = useAiBudgets();
  return (
    <section aria-labelledby="ai-budgets">
      <SectionHeader id="ai-budgets" title={t.aiAdmin.budgets.title} description={t.aiAdmin.budgets.description} />
      {budgets.isPending ? (
        <LoadingState rows={2} />
      ) : budgets.isError ? (
        <ErrorState error={budgets.error} onRetry={() => budgets.refetch()} />
      ) : (
        <BudgetsForm instance={budgets.data.instanceMonthlyUsd} member={budgets.data.memberMonthlyUsd} month={budgets.data.month} spent={budgets.data.instanceSpentUsd} />
      )}
    </section>
  );
}

interface PriceRow {
  key: number;
  provider: AiProviderName;
  model: string;
  input: string;
  output: string;
  reasoning: string;
}

let nextKey = 0;

function PricesForm({ initial }: { initial: PriceRow[] }) {
  const { t } = useI18n();
  const p = t.aiAdmin.prices;
  const save = usePutAiPrices();
  const [rows, setRows] = useState<PriceRow[]>(initial);
  const [invalid, setInvalid] = useState(false);

  function change(key: number, patch: Partial<PriceRow>) {
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const prices = rows.map((row) => ({
      provider: row.provider,
      model: row.model.trim(),
      inputUsdPerMillion: parseAmount(row.input, 1_000_000),
      outputUsdPerMillion: parseAmount(row.output, 1_000_000),
      reasoningUsdPerMillion: parseAmount(row.reasoning, 1_000_000),
    }));
    const bad = prices.some((price) => !price.model || price.model.length > 128 || price.inputUsdPerMillion == null || price.outputUsdPerMillion == null || price.reasoningUsdPerMillion === undefined);
    setInvalid(bad);
    if (bad) return;
    save.mutate({
      prices: prices.map((price) => ({
        provider: price.provider,
        model: price.model,
        inputUsdPerMillion: price.inputUsdPerMillion ?? 0,
        outputUsdPerMillion: price.outputUsdPerMillion ?? 0,
        reasoningUsdPerMillion: price.reasoningUsdPerMillion ?? null,
      })),
    });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      {invalid ? <Alert tone="danger" testId="ai-prices-invalid">{p.invalid}</Alert> : save.isError ? <Alert tone="danger" testId="ai-prices-error">{describeError(save.error, t)}</Alert> : save.isSuccess ? <Alert tone="success" testId="ai-prices-saved">{p.saved}</Alert> : null}
      {rows.length === 0 ? (
        <p className="text-sm text-muted">{p.empty}</p>
      ) : (
        <Table caption={p.title}>
          <THead>
            <TH>{p.provider}</TH>
            <TH>{p.model}</TH>
            <TH>{p.input}</TH>
            <TH>{p.output}</TH>
            <TH>{p.reasoning}</TH>
            <TH>
              <span className="sr-only">{p.remove}</span>
            </TH>
          </THead>
          <TBody>
            {rows.map((row) => (
              <TR key={row.key} data-testid="ai-price-row">
                <TD>
                  <Select controlSize="sm" aria-label={p.provider} value={row.provider} onChange={(event) => change(row.key, { provider: event.target.value as AiProviderName })}>
                    {aiProviderList.map((name) => (
                      <option key={name} value={name}>
                        {t.aiAdmin.providers[name]}
                      </option>
                    ))}
                  </Select>
                </TD>
                <TD>
                  <Input controlSize="sm" aria-label={p.model} maxLength={128} value={row.model} data-testid="ai-price-model" onChange={(event) => change(row.key, { model: event.target.value })} />
                </TD>
                <TD>
                  <Input controlSize="sm" aria-label={p.input} inputMode="decimal" value={row.input} data-testid="ai-price-input" onChange={(event) => change(row.key, { input: event.target.value })} />
                </TD>
                <TD>
                  <Input controlSize="sm" aria-label={p.output} inputMode="decimal" value={row.output} data-testid="ai-price-output" onChange={(event) => change(row.key, { output: event.target.value })} />
                </TD>
                <TD>
                  <Input controlSize="sm" aria-label={p.reasoning} inputMode="decimal" value={row.reasoning} data-testid="ai-price-reasoning" onChange={(event) => change(row.key, { reasoning: event.target.value })} />
                </TD>
                <TD>
                  <Button size="sm" variant="dangerGhost" onClick={() => setRows((current) => current.filter((other) => other.key !== row.key))}>
                    {p.remove}
                  </Button>
                </TD>
              </TR>
            ))}
          </TBody>
        </Table>
      )}
      <div className="flex gap-2">
        <Button data-testid="ai-price-add" onClick={() => setRows((current) => [...current, { key: nextKey++, provider: 'ai_vendor_a', model: '*', input: '', output: '', reasoning: '' }])}>
          {p.add}
        </Button>
        <Button type="submit" variant="primary" loading={save.isPending} data-testid="ai-prices-save">
          {save.isPending ? p.saving : p.save}
        </Button>
      </div>
    </form>
  );
}

export function PricesSection() {
  const { t } = useI18n();
  const prices = useAiPrices();
  return (
    <section aria-labelledby="ai-prices">
      <SectionHeader id="ai-prices" title={t.aiAdmin.prices.title} description={t.aiAdmin.prices.description} />
      {prices.isPending ? (
        <LoadingState rows={2} />
      ) : prices.isError ? (
        <ErrorState error={prices.error} onRetry={() => prices.refetch()} />
      ) : (
        <PricesForm
          initial={prices.data.prices.map((price) => ({
            key: nextKey++,
            provider: price.provider,
            model: price.model,
            input: String(price.inputUsdPerMillion),
            output: String(price.outputUsdPerMillion),
            reasoning: price.reasoningUsdPerMillion === null ? '' : String(price.reasoningUsdPerMillion),
          }))}
        />
      )}
    </section>
  );
}

interface Figures {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  costUsd: number;
  unpricedCalls: number;
  ownKeysCostUsd: number;
}

function FigureTable({ caption, head, rows, testId }: { caption: string; head: string; rows: { key: string; name: string; figures: Figures }[]; testId: string }) {
  const { t, locale } = useI18n();
  const u = t.aiAdmin.usage;
  const n = (value: number) => value.toLocaleString(locale);
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-semibold">{caption}</h3>
      <Table caption={caption}>
        <THead>
          <TH>{head}</TH>
          <TH className="text-right">{u.calls}</TH>
          <TH className="text-right">{u.inputTokens}</TH>
          <TH className="text-right">{u.outputTokens}</TH>
          <TH className="text-right">{u.reasoningTokens}</TH>
          <TH className="text-right">{u.cost}</TH>
          <TH className="text-right">{u.unpriced}</TH>
          <TH className="text-right">{u.ownKeys}</TH>
        </THead>
        <TBody>
          {rows.map((row) => (
            <TR key={row.key} data-testid={testId}>
              <TD className="font-medium">{row.name}</TD>
              <TD className="text-right tabular-nums">{n(row.figures.calls)}</TD>
              <TD className="text-right tabular-nums">{n(row.figures.inputTokens)}</TD>
              <TD className="text-right tabular-nums">{n(row.figures.outputTokens)}</TD>
              <TD className="text-right tabular-nums">{n(row.figures.reasoningTokens)}</TD>
              <TD className="text-right tabular-nums">{usd(row.figures.costUsd, locale)}</TD>
              <TD className="text-right tabular-nums">{n(row.figures.unpricedCalls)}</TD>
              <TD className="text-right tabular-nums">{usd(row.figures.ownKeysCostUsd, locale)}</TD>
            </TR>
          ))}
        </TBody>
      </Table>
    </div>
  );
}

function currentMonth(): string {
  return new Date().toISOString().slice(0, 7);
}

export function UsageSection() {
  const { t } = useI18n();
  const u = t.aiAdmin.usage;
  const [month, setMonth] = useState(currentMonth);
  const valid = /^2\d{3}-(0[1-9]|1[0-2])$/.test(month);
  const usage = useAiUsage(valid ? month : undefined);
  return (
    <section aria-labelledby="ai-usage">
      <SectionHeader
        id="ai-usage"
        title={u.title}
        actions={<Input type="month" aria-label={u.month} value={month} data-testid="ai-usage-month" onChange={(event) => setMonth(event.target.value || currentMonth())} />}
      />
      {usage.isPending ? (
        <LoadingState rows={3} />
      ) : usage.isError ? (
        <ErrorState error={usage.error} onRetry={() => usage.refetch()} />
      ) : (
        <div className="space-y-6" data-testid="ai-usage">
          <FigureTable caption={u.totals} head={u.month} rows={[{ key: 'totals', name: usage.data.month, figures: usage.data.totals }]} testId="ai-usage-totals" />
          {usage.data.totals.calls === 0 ? (
            <p className="text-sm text-muted">{u.empty}</p>
          ) : (
            <>
              <FigureTable caption={u.byMember} head={u.member} rows={usage.data.byMember.map((row, index) => ({ key: row.memberId ?? `none-${index}`, name: row.name ?? u.deletedMember, figures: row }))} testId="ai-usage-member" />
              <FigureTable caption={u.byPurpose} head={u.purpose} rows={usage.data.byPurpose.map((row) => ({ key: row.purpose, name: t.aiAdmin.purposes[row.purpose] ?? row.purpose, figures: row }))} testId="ai-usage-purpose" />
              <FigureTable caption={u.byModel} head={u.model} rows={usage.data.byModel.map((row) => ({ key: `${row.provider}/${row.model}`, name: `${t.aiAdmin.providers[row.provider] ?? row.provider} · ${row.model}`, figures: row }))} testId="ai-usage-model" />
            </>
          )}
        </div>
      )}
    </section>
  );
}
