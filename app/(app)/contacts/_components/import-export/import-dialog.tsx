'use client';

/**
 * Importing an address book: choose where (my cards, my cards for a mailbox, the organisation's for administrators)
 * and a vCard or CSV file; the service's preview says what each line becomes (new, update, unchanged, error with its
 * reasons); then import every line, or only the valid ones. Nothing is written before the import, and an import is
 * all or nothing on the server.
 */
import { useId, useState, type ChangeEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { appErrorOf, describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Badge, type BadgeTone } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter } from '@/app/ui/dialog';
import { Label } from '@/app/ui/field';
import { UploadIcon } from '@/app/ui/icons';
import { Spinner } from '@/app/ui/spinner';
import type { ImportExportTexts } from './_i18n/en-import-export';
import { useImportMutations, type ImportFormat, type ImportPreview, type ImportPreviewLine, type LineProblem, type RejectedLine, type Target } from './api';
import { fileRefusalText, formatOf, maxImportBytes, rejectedOf, writtenCount } from './steps';
import { TargetSelect } from './target-select';
import { useImportExportTexts } from './texts';

/** Lines shown in the preview table (the counts have them all). */
const shownLines = 200;

const actionTones: Record<ImportPreviewLine['action'], BadgeTone> = { create: 'success', update: 'brand', unchanged: 'neutral', error: 'danger' };

interface ChosenFile {
  name: string;
  text: string;
  format: ImportFormat;
}

async function readText(file: File): Promise<string> {
  if (typeof file.text === 'function') return file.text();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsText(file);
  });
}

const problemsText = (problems: LineProblem[]) => problems.map((problem) => problem.message).join(' · ');

function PreviewTable({ preview, d }: { preview: ImportPreview; d: ImportExportTexts['import'] }) {
  const lines = preview.lines.slice(0, shownLines);
  return (
    <>
      <div className="flex flex-wrap gap-2" data-testid="import-counts">
        {(['create', 'update', 'unchanged', 'error'] as const).map((action) => (
          <Badge key={action} tone={actionTones[action]} data-testid={`import-count-${action}`}>
            {d.counts[action]}: {preview.counts[action]}
          </Badge>
        ))}
      </div>
      <div className="max-h-72 overflow-auto rounded-md border border-line">
        <table className="w-full text-left text-[13px]">
          <thead className="sticky top-0 bg-subtle text-xs text-muted">
            <tr>
              <th scope="col" className="px-3 py-1.5 font-medium">
                {d.columns.line}
              </th>
              <th scope="col" className="px-3 py-1.5 font-medium">
                {d.columns.entry}
              </th>
              <th scope="col" className="px-3 py-1.5 font-medium">
                {d.columns.action}
              </th>
              <th scope="col" className="px-3 py-1.5 font-medium">
                {d.columns.details}
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line, index) => (
              <tr key={`${line.line}-${index}`} className="border-t border-line align-top" data-testid="import-line" data-action={line.action}>
                <td className="px-3 py-1.5 tabular-nums">{line.line}</td>
                <td className="max-w-56 truncate px-3 py-1.5 font-mono text-xs">{line.value ?? d.noValue}</td>
                <td className="px-3 py-1.5">
                  <Badge tone={actionTones[line.action]}>{d.actions[line.action]}</Badge>
                </td>
                <td className="px-3 py-1.5 text-muted" data-testid={line.action === 'error' ? 'import-line-problems' : undefined}>
                  {line.action === 'error'
                    ? problemsText(line.problems)
                    : Object.entries(line.fields)
                        .map(([name, value]) => `${name}: ${value ?? '∅'}`)
                        .join(' · ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {preview.lines.length > shownLines ? <p className="text-xs text-muted">{d.moreLines(preview.lines.length - shownLines)}</p> : null}
    </>
  );
}

function RejectedLines({ rejected, d }: { rejected: RejectedLine[]; d: ImportExportTexts['import'] }) {
  return (
    <ul className="mt-2 max-h-56 space-y-1 overflow-y-auto rounded-md border border-line bg-surface px-3 py-2 text-[13px] text-fg">
      {rejected.map((line) => (
        <li key={line.line} data-testid="import-rejected-line" className="flex gap-2">
          <span className="shrink-0 font-medium tabular-nums">{d.line(line.line)}</span>
          <span className="text-muted">{problemsText(line.problems)}</span>
        </li>
      ))}
    </ul>
  );
}

function ImportFlow({ canWriteShared, onClose }: { canWriteShared: boolean; onClose: () => void }) {
  const { t } = useI18n();
  const texts = useImportExportTexts();
  const d = texts.import;
  const fileId = useId();
  const { preview, commit } = useImportMutations();
  const [target, setTarget] = useState<Target>({ layer: 'member' });
  const [file, setFile] = useState<ChosenFile | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);

  function runPreview(chosen: ChosenFile, where: Target) {
    commit.reset();
    preview.mutate({ format: chosen.format, layer: where.layer, mailboxId: where.mailboxId, file: chosen.text });
  }

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const picked = event.target.files?.[0];
    event.target.value = '';
    setFileError(null);
    if (!picked) return;
    if (picked.size > maxImportBytes) {
      setFileError(d.tooLarge);
      return;
    }
    let text: string;
    try {
      text = await readText(picked);
    } catch {
      setFileError(d.unreadable);
      return;
    }
    if (!text.trim()) {
      setFileError(d.empty);
      return;
    }
    const chosen = { name: picked.name, text, format: formatOf(picked.name, text) };
    setFile(chosen);
    runPreview(chosen, target);
  }

  function changeTarget(next: Target) {
    setTarget(next);
    if (file) runPreview(file, next);
  }

  function runImport(skipInvalid: boolean) {
    if (!file) return;
    commit.mutate({ format: file.format, layer: target.layer, mailboxId: target.mailboxId, file: file.text, skipInvalid });
  }

  const answer = preview.data;
  const errorInfo = preview.isError ? appErrorOf(preview.error) : null;
  const previewError = preview.isError ? (fileRefusalText(errorInfo, d) ?? describeError(preview.error, t)) : null;
  const commitInfo = commit.isError ? appErrorOf(commit.error) : null;
  const rejected = rejectedOf(commitInfo);
  const commitError = commit.isError && !rejected ? (fileRefusalText(commitInfo, d) ?? describeError(commit.error, t)) : null;
  const result = commit.data;
  const errors = answer?.counts.error ?? 0;
  const toWrite = answer ? writtenCount(answer) : 0;

  return (
    <>
      <DialogBody className="space-y-4">
        {result ? (
          <Alert tone="success" testId="import-result" title={d.doneTitle}>
            <p>{d.done(result.created, result.updated, result.unchanged, result.rejectedCount)}</p>
          </Alert>
        ) : (
          <>
            <TargetSelect target={target} onChange={changeTarget} canWriteShared={canWriteShared} disabled={preview.isPending || commit.isPending} texts={texts} testId="import-target" />
            {file ? (
              <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-line bg-subtle/40 px-3 py-2 text-sm">
                <span className="min-w-0 truncate font-medium" data-testid="import-file-summary">
                  {answer ? d.summary(file.name, answer.lines.length) : file.name}
                </span>
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={commit.isPending}
                  onClick={() => {
                    setFile(null);
                    preview.reset();
                    commit.reset();
                  }}
                >
                  {d.chooseOther}
                </Button>
              </div>
            ) : (
              <div className="space-y-2">
                <Label htmlFor={fileId}>{d.file}</Label>
                <label
                  htmlFor={fileId}
                  className="flex cursor-pointer flex-col items-center gap-2 rounded-lg border border-dashed border-line-strong bg-subtle/30 px-6 py-8 text-center hover:bg-subtle/60 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand"
                >
                  <span className="flex size-10 items-center justify-center rounded-full bg-brand/10 text-brand-fg">
                    {preview.isPending ? <Spinner /> : <UploadIcon size={18} />}
                  </span>
                  <span className="text-sm font-medium">{preview.isPending ? d.reading : d.file}</span>
                  <span className="text-xs text-muted">{d.fileHint}</span>
                  <input
                    id={fileId}
                    type="file"
                    accept=".vcf,.vcard,text/vcard,text/x-vcard,.csv,text/csv,text/plain"
                    className="sr-only"
                    data-testid="import-file"
                    disabled={preview.isPending}
                    onChange={choose}
                  />
                </label>
              </div>
            )}
            {fileError ? (
              <Alert tone="danger" testId="import-file-error">
                {fileError}
              </Alert>
            ) : null}
            {previewError ? (
              <Alert tone="danger" testId="import-preview-error">
                {previewError}
              </Alert>
            ) : null}
            {file && preview.isPending ? <Spinner /> : null}
            {file && answer && !preview.isPending ? <PreviewTable preview={answer} d={d} /> : null}
            {answer && errors > 0 ? (
              <Alert tone="warning" testId="import-errors-note">
                {d.errorsNote(errors)}
              </Alert>
            ) : null}
            {answer && errors === 0 && toWrite === 0 ? (
              <Alert tone="info" testId="import-nothing">
                {d.nothingToDo}
              </Alert>
            ) : null}
            {rejected ? (
              <Alert tone="warning" testId="import-rejected" live="alert" title={d.rejectedTitle(rejected.count)}>
                <RejectedLines rejected={rejected.lines} d={d} />
              </Alert>
            ) : null}
            {commitError ? (
              <Alert tone="danger" testId="import-commit-error">
                {commitError}
              </Alert>
            ) : null}
          </>
        )}
      </DialogBody>
      <DialogFooter>
        {result ? (
          <Button variant="primary" onClick={onClose}>
            {texts.close}
          </Button>
        ) : (
          <>
            <DialogClose asChild>
              <Button disabled={commit.isPending}>{texts.cancel}</Button>
            </DialogClose>
            {answer && !preview.isPending && toWrite > 0 ? (
              <Button variant="primary" loading={commit.isPending} onClick={() => runImport(errors > 0)} data-testid="import-submit">
                {commit.isPending ? d.submitting : errors > 0 ? d.submitValid(toWrite) : d.submit(toWrite)}
              </Button>
            ) : null}
          </>
        )}
      </DialogFooter>
    </>
  );
}

export function ContactsImportDialog({ open, onOpenChange, canWriteShared }: { open: boolean; onOpenChange: (open: boolean) => void; canWriteShared: boolean }) {
  const texts = useImportExportTexts();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="xl" title={texts.import.title} description={texts.import.description}>
        {open ? <ImportFlow canWriteShared={canWriteShared} onClose={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}
