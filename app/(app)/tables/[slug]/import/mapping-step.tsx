'use client';

/**
 * The import's mapping step: each column of the file and the table column it goes into (or skipped),
 * insert or upsert, and the first lines as they will land. Edits go up as events; the dialog keeps the state.
 */
import type { Dictionary } from '@/app/i18n';
import { Alert } from '@/app/ui/alert';
import { cn } from '@/app/ui/cn';
import { FieldError, Select } from '@/app/ui/field';
import { ownValue } from '@/server/core/own-property';
import type { ImportPreview, Table } from '../../_lib/api';
import type { ImportMode } from './import-steps';

export function MappingStep({
  table,
  preview,
  mapping,
  mode,
  mappingError,
  importError,
  onMap,
  onMode,
  d,
}: {
  table: Table;
  preview: ImportPreview;
  mapping: Record<string, string | null>;
  mode: ImportMode;
  /** Why the mapping cannot be imported, shown under it. */
  mappingError: string | null;
  /** The service's refusal of the whole import (not of some lines), shown above. */
  importError: string | null;
  onMap: (header: string, column: string | null) => void;
  onMode: (mode: ImportMode) => void;
  d: Dictionary['tables']['importDialog'];
}) {
  const keyColumn = table.columns.find((column) => column.isKey);
  return (
    <>
      {importError ? (
        <Alert tone="danger" testId="import-error">
          {importError}
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
                    onMap(header, event.target.value || null);
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
              onChange={() => onMode(value)}
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
  );
}
