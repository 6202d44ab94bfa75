'use client';

/**
 * CSV import: choose a file, check the service's preview and suggested column mapping, choose insert
 * or upsert, import. When lines do not fit, nothing is written and they are listed with their reasons;
 * the person can then import only the valid lines. The steps and their rules live in `import-steps.ts`;
 * this file wires them to the service and renders the step.
 */
import { useMutation } from '@tanstack/react-query';
import { useId, useReducer, useState, type ChangeEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import type { Dictionary } from '@/app/i18n';
import { appErrorOf, describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter } from '@/app/ui/dialog';
import { Label } from '@/app/ui/field';
import { UploadIcon } from '@/app/ui/icons';
import { Spinner } from '@/app/ui/spinner';
import { useTableMutations, useTablesCache, type RejectedLine, type Table } from '../../_lib/api';
import { importReducer, importStepOf, initialImportState, mappingProblem, validLineCount } from './import-steps';
import { MappingStep } from './mapping-step';
import { RejectedList } from './rejected-list';

/** The service refuses bodies above 5 MB; the file travels inside JSON, so keep a margin. */
const maxFileBytes = 4.5 * 1024 * 1024;

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

function ImportFlow({ table, onClose }: { table: Table; onClose: () => void }) {
  const { t } = useI18n();
  const d = t.tables.importDialog;
  const fileId = useId();
  const mutations = useTableMutations();
  const cache = useTablesCache();
  const [state, dispatch] = useReducer(importReducer, table, initialImportState);
  const { file, preview, mapping, mode, rejected, result } = state;
  const [fileError, setFileError] = useState<string | null>(null);
  const [mappingError, setMappingError] = useState<string | null>(null);

  const previewMutation = useMutation({
    ...mutations.importPreview,
    onSuccess: (answer) => dispatch({ type: 'previewed', preview: answer }),
  });

  const importMutation = useMutation({
    ...mutations.importCsv,
    onSuccess: async (answer) => {
      dispatch({ type: 'imported', result: answer });
      await Promise.all([cache.rows(table.id), cache.tables()]);
    },
    onError: (error) => {
      const lines = rejectedOf(error);
      if (lines) dispatch({ type: 'refused', rejected: lines });
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
    dispatch({ type: 'fileChosen', file: { name: chosen.name, csv } });
    importMutation.reset();
    previewMutation.mutate({ id: table.id, csv });
  }

  function runImport(skipInvalid: boolean) {
    if (!file || !preview) return;
    const problem = mappingProblem(state, table, d);
    setMappingError(problem);
    if (problem) return;
    importMutation.mutate({ id: table.id, csv: file.csv, mapping, mode, skipInvalid });
  }

  const step = importStepOf(state);
  const generalImportError = importMutation.isError && !rejected;
  const validLines = validLineCount(state);

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
                  dispatch({ type: 'chooseOther' });
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
          <MappingStep
            table={table}
            preview={preview}
            mapping={mapping}
            mode={mode}
            mappingError={mappingError}
            importError={generalImportError ? importErrorText(importMutation.error, t) : null}
            onMap={(header, column) => {
              dispatch({ type: 'mapped', header, column });
              setMappingError(null);
            }}
            onMode={(value) => {
              dispatch({ type: 'modeChosen', mode: value });
              setMappingError(null);
            }}
            d={d}
          />
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
                dispatch({ type: 'backToMapping' });
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
