'use client';

/**
 * CSV import: choose a file, check the service's preview and suggested column mapping, choose insert
 * or upsert, import. When lines do not fit, nothing is written and they are listed with their reasons;
 * the person can then import only the valid lines.
 */
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type ChangeEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import type { Dictionary } from '@/app/i18n';
import { appErrorOf, describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { cn } from '@/app/ui/cn';
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter } from '@/app/ui/dialog';
import { FieldError, Label, Select } from '@/app/ui/field';
import { UploadIcon } from '@/app/ui/icons';
import { Spinner } from '@/app/ui/spinner';
import { useTableMutations, useTablesCache, type ImportPreview, type ImportResult, type RejectedLine, type Table } from '../_lib/api';
import { ownValue } from '@/server/core/own-property';

/** The service refuses bodies above 5 MB; the file travels inside JSON, so keep a margin. */
const maxFileBytes = 4.5 * 1024 * 1024;
const shownRejected = 50;

type Mode = 'insert' | 'upsert';

/** The service's reasons about the file itself (unreadable, empty, mapping) in the interface language. */
function importErrorText(error: unknown, t: Dictionary): string {
  const info = appErrorOf(error);
  const reason = info?.code === 'request.bad_request' ? info.details.reason : null;
  if (reason === 'csv_unreadable') return t.tables.importDialog.unreadableCsv;
  if (reason === 'csv_empty') return t.tables.importDialog.empty;
  if (reason === 'invalid_mapping') return t.tables.importDialog.invalidMapping;
  return describeError(error, t);
}

function rejectedOf(error: unknown): { lines: RejectedLine[]; count: number } | null {
  const info = appErrorOf(error);
  if (info?.code !== 'tables.import_rejected') return null;
  const lines = Array.isArray(info.details.rejected) ? (info.details.rejected as RejectedLine[]) : [];
  return { lines, count: typeof info.details.count === 'number' ? info.details.count : lines.length };
}

function RejectedList({ rejected, count, table, t }: { rejected: RejectedLine[]; count: number; table: Table; t: Dictionary }) {
  const labelOf = (key: string | null) => (key ? (table.columns.find((column) => column.key === key)?.label ?? key) : null);
  return (
    <>
      <ul className="mt-2 max-h-56 space-y-1 overflow-y-auto rounded-md border border-line bg-surface px-3 py-2 text-[13px] text-fg">
        {rejected.slice(0, shownRejected).map((line) => (
          <li key={line.line} data-testid="import-rejected-line" className="flex gap-2">
            <span className="shrink-0 font-medium tabular-nums">{t.tables.importDialog.line(line.line)}</span>
            <span className="text-muted">
              {line.problems
                .map((problem) => {
                  const reason = (t.tables.problems as Record<string, string>)[problem.reason] ?? problem.message;
                  const label = labelOf(problem.column);
                  return label ? `${label}: ${reason}` : reason;
                })
                .join(' · ')}
            </span>
          </li>
        ))}
      </ul>
      {count > Math.min(rejected.length, shownRejected) ? (
        <p className="mt-1 text-xs">{t.tables.importDialog.moreRejected(count - Math.min(rejected.length, shownRejected))}</p>
      ) : null}
    </>
  );
}

function ImportFlow({ table, onClose }: { table: Table; onClose: () => void }) {
  const { t } = useI18n();
  const d = t.tables.importDialog;
  const fileId = useId();
  const mutations = useTableMutations();
  const cache = useTablesCache();
  const [fileError, setFileError] = useState<string | null>(null);
  const [file, setFile] = useState<{ name: string; csv: string } | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mapping, setMapping] = useState<Record<string, string | null>>({});
  const keyColumn = table.columns.find((column) => column.isKey);
  const [mode, setMode] = useState<Mode>(keyColumn ? 'upsert' : 'insert');
  const [mappingError, setMappingError] = useState<string | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [rejected, setRejected] = useState<{ lines: RejectedLine[]; count: number } | null>(null);

  const previewMutation = useMutation({
    ...mutations.importPreview,
    onSuccess: (answer) => {
      setPreview(answer);
      setMapping(answer.mapping);
    },
  });

  const importMutation = useMutation({
    ...mutations.importCsv,
    onSuccess: async (answer) => {
      setResult(answer);
      setRejected(null);
      await Promise.all([cache.rows(table.id), cache.tables()]);
    },
    onError: (error) => {
      const lines = rejectedOf(error);
      if (lines) setRejected(lines);
    },
  });

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    setFileError(null);
    if (!chosen) return;
    if (chosen.size > maxFileBytes) {
      setFileError(d.tooLarge);
      return;
    }
    let csv: string;
    try {
      csv = await chosen.text();
    } catch {
      setFileError(d.unreadable);
      return;
    }
    if (!csv.trim()) {
      setFileError(d.empty);
      return;
    }
    setFile({ name: chosen.name, csv });
    setResult(null);
    setRejected(null);
    importMutation.reset();
    previewMutation.mutate({ id: table.id, csv });
  }

  function runImport(skipInvalid: boolean) {
    if (!file || !preview) return;
    const targets = Object.values(mapping).filter((value): value is string => Boolean(value));
    if (targets.length === 0) {
      setMappingError(d.nothingMapped);
      return;
    }
    const twice = targets.find((target, index) => targets.indexOf(target) !== index);
    if (twice) {
      setMappingError(d.mappedTwice(table.columns.find((column) => column.key === twice)?.label ?? twice));
      return;
    }
    if (mode === 'upsert' && keyColumn && !targets.includes(keyColumn.key)) {
      setMappingError(d.upsertKeyUnmapped(keyColumn.label));
      return;
    }
    setMappingError(null);
    importMutation.mutate({ id: table.id, csv: file.csv, mapping, mode, skipInvalid });
  }

  const step = result ? 'done' : rejected ? 'rejected' : preview && file ? 'mapping' : 'choose';
  const generalImportError = importMutation.isError && !rejected;
  const validLines = preview && rejected ? preview.lineCount - rejected.count : 0;

  return (
    <>
      <DialogBody className="space-y-5">
        {step === 'choose' ? (
          <div className="space-y-3">
            <Label htmlFor={fileId}>{d.file}</Label>
            <label
              htmlFor={fileId}
              className="flex cursor-pointer flex-col items-center gap-2 rounded-lg border border-dashed border-line-strong bg-subtle/30 px-6 py-10 text-center hover:bg-subtle/60 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand"
            >
              <span className="flex size-10 items-center justify-center rounded-full bg-brand/10 text-brand-fg">
                {previewMutation.isPending ? <Spinner /> : <UploadIcon size={18} />}
              </span>
              <span className="text-sm font-medium">{previewMutation.isPending ? d.reading : d.file}</span>
              <span className="text-xs text-muted">{d.fileHint}</span>
              <input
                id={fileId}
                type="file"
                accept=".csv,text/csv,text/plain"
                className="sr-only"
                data-testid="import-file"
                disabled={previewMutation.isPending}
                onChange={choose}
              />
            </label>
            {fileError ? (
              <Alert tone="danger" testId="import-file-error">
                {fileError}
              </Alert>
            ) : null}
            {previewMutation.isError ? (
              <Alert tone="danger" testId="import-preview-error">
                {importErrorText(previewMutation.error, t)}
              </Alert>
            ) : null}
          </div>
        ) : null}

        {step !== 'choose' && file && preview ? (
          <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-line bg-subtle/40 px-3 py-2 text-sm">
            <span className="min-w-0 truncate font-medium">{d.fileSummary(file.name, preview.lineCount)}</span>
            {step === 'mapping' ? (
              <Button
                size="sm"
                variant="ghost"
                onClick={() => {
                  setFile(null);
                  setPreview(null);
                  previewMutation.reset();
                  importMutation.reset();
                }}
              >
                {d.chooseOther}
              </Button>
            ) : null}
          </div>
        ) : null}

        {step === 'mapping' && preview ? (
          <>
            {generalImportError ? (
              <Alert tone="danger" testId="import-error">
                {importErrorText(importMutation.error, t)}
              </Alert>
            ) : null}
            <section aria-labelledby="import-mapping-heading" className="space-y-2">
              <div>
                <h3 id="import-mapping-heading" className="text-sm font-semibold">
                  {d.mapping}
                </h3>
                <p className="text-xs text-muted">{d.mappingHint}</p>
              </div>
              <div className="overflow-hidden rounded-lg border border-line">
                <div className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)] gap-3 border-b border-line bg-subtle/60 px-3 py-2 text-xs font-medium text-muted">
                  <span>{d.inFile}</span>
                  <span>{d.intoColumn}</span>
                </div>
                <ul className="divide-y divide-line">
                  {preview.headers.map((header, index) => (
                    <li key={`${header}-${index}`} className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)] items-center gap-3 px-3 py-2" data-testid="import-mapping-row">
                      <div className="min-w-0">
                        <p className="truncate text-sm font-medium">{header}</p>
                        <p className="truncate text-xs text-muted">{preview.sample.map((line) => line[index]).find((value) => value) ?? ''}</p>
                      </div>
                      <Select
                        controlSize="sm"
                        aria-label={d.mappingFor(header)}
                        value={ownValue(mapping, header) ?? ''}
                        onChange={(event) => {
                          setMapping((current) => ({ ...current, [header]: event.target.value || null }));
                          setMappingError(null);
                        }}
                      >
                        <option value="">{d.skip}</option>
                        {table.columns.map((column) => (
                          <option key={column.key} value={column.key}>
                            {column.label}
                          </option>
                        ))}
                      </Select>
                    </li>
                  ))}
                </ul>
              </div>
              {mappingError ? (
                <FieldError role="alert">{mappingError}</FieldError>
              ) : null}
            </section>

            <fieldset className="space-y-2">
              <legend className="text-sm font-semibold">{d.mode}</legend>
              {(['insert', 'upsert'] as const).map((value) => (
                <label key={value} className={cn('flex items-start gap-2.5 text-sm', value === 'upsert' && !keyColumn && 'opacity-60')}>
                  <input
                    type="radio"
                    name="import-mode"
                    className="mt-0.5 size-4 accent-[var(--brand)]"
                    value={value}
                    checked={mode === value}
                    disabled={value === 'upsert' && !keyColumn}
                    onChange={() => {
                      setMode(value);
                      setMappingError(null);
                    }}
                  />
                  <span>
                    {value === 'insert' ? d.insert : d.upsert}
                    {value === 'upsert' && !keyColumn ? <span className="block text-xs text-muted">{d.upsertNeedsKey}</span> : null}
                  </span>
                </label>
              ))}
            </fieldset>

            <section aria-labelledby="import-preview-heading" className="space-y-2">
              <h3 id="import-preview-heading" className="text-sm font-semibold">
                {d.preview(preview.sample.length)}
              </h3>
              <div className="max-h-64 overflow-auto rounded-lg border border-line">
                <table className="w-full border-collapse text-left text-xs" data-testid="import-preview">
                  <thead className="sticky top-0 bg-subtle">
                    <tr>
                      {preview.headers.map((header, index) => {
                        const target = ownValue(mapping, header);
                        const label = target ? table.columns.find((column) => column.key === target)?.label : null;
                        return (
                          <th key={`${header}-${index}`} scope="col" className="border-b border-line px-2.5 py-1.5 font-medium whitespace-nowrap">
                            <span className={cn(!label && 'text-muted line-through')}>{header}</span>
                            {label ? <span className="block font-normal text-muted">→ {label}</span> : null}
                          </th>
                        );
                      })}
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-line">
                    {preview.sample.map((line, lineIndex) => (
                      <tr key={lineIndex}>
                        {preview.headers.map((header, index) => (
                          <td key={`${header}-${index}`} className={cn('max-w-48 truncate px-2.5 py-1.5', !ownValue(mapping, header) && 'text-muted')}>
                            {line[index] ?? ''}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          </>
        ) : null}

        {step === 'rejected' && rejected ? (
          <Alert tone="warning" testId="import-result" live="alert" title={d.rejectedTitle(rejected.count)}>
            <p>{d.rejectedBody}</p>
            <RejectedList rejected={rejected.lines} count={rejected.count} table={table} t={t} />
          </Alert>
        ) : null}

        {step === 'done' && result ? (
          <Alert tone="success" testId="import-result" title={d.doneTitle}>
            <p>
              {[d.inserted(result.inserted), result.updated > 0 ? d.updated(result.updated) : null, result.rejectedCount > 0 ? d.skipped(result.rejectedCount) : null]
                .filter(Boolean)
                .join(' · ')}
            </p>
            {result.rejected.length > 0 ? <RejectedList rejected={result.rejected} count={result.rejectedCount} table={table} t={t} /> : null}
          </Alert>
        ) : null}
      </DialogBody>
      <DialogFooter>
        {step === 'done' ? (
          <Button variant="primary" onClick={onClose}>
            {t.common.done}
          </Button>
        ) : step === 'rejected' ? (
          <>
            <Button
              disabled={importMutation.isPending}
              onClick={() => {
                setRejected(null);
                importMutation.reset();
              }}
            >
              {d.back}
            </Button>
            <Button
              variant="primary"
              loading={importMutation.isPending}
              disabled={validLines <= 0}
              onClick={() => runImport(true)}
            >
              {importMutation.isPending ? d.submitting : d.importValid(validLines)}
            </Button>
          </>
        ) : (
          <>
            <DialogClose asChild>
              <Button disabled={importMutation.isPending}>{t.common.cancel}</Button>
            </DialogClose>
            {step === 'mapping' ? (
              <Button variant="primary" loading={importMutation.isPending} onClick={() => runImport(false)}>
                {importMutation.isPending ? d.submitting : d.submit}
              </Button>
            ) : null}
          </>
        )}
      </DialogFooter>
    </>
  );
}

export function ImportDialog({ table, open, onOpenChange }: { table: Table; open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useI18n();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="xl" title={t.tables.importDialog.title} description={t.tables.importDialog.description}>
        {open ? <ImportFlow table={table} onClose={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}
