'use client';

/**
 * The tables a template needs, in its install dialog (issue 19 §2): each table with its columns and
 * their types, and the choice to create it (administrators: tables are the team's) or to use an
 * existing table. The server checks an existing table's columns (409 `templates.table_mismatch`);
 * `mismatchText` puts that refusal in the member's words, naming the column.
 */
import { useI18n } from '@/app/i18n/client';
import type { Dictionary } from '@/app/i18n/en';
import { Select } from '@/app/ui/field';
import type { Template } from '../_lib/api';

export type TemplateTable = Template['tables'][number];
export type TableChoice = { slug: string; use: 'create' } | { slug: string; use: 'existing'; tableId: string };
export interface ExistingTable {
  id: string;
  slug: string;
  name: string;
}

/** What the dialog starts with: the team's table of the template's name, else create it (administrators), else the first table. */
export function defaultChoices(tables: readonly TemplateTable[], existing: readonly ExistingTable[], isAdmin: boolean): TableChoice[] {
  return tables.map((table) => {
    const same = existing.find((candidate) => candidate.slug === table.slug);
    if (same) return { slug: table.slug, use: 'existing', tableId: same.id };
    if (isAdmin || existing.length === 0) return { slug: table.slug, use: 'create' };
    return { slug: table.slug, use: 'existing', tableId: existing[0]!.id };
  });
}

export function TableColumns({ table }: { table: TemplateTable }) {
  const { t } = useI18n();
  const typeName = (type: string) => (t.tables.types as Record<string, string>)[type] ?? type;
  return (
    <ul aria-label={t.templates.tableColumns(table.name)} className="space-y-0.5 text-xs">
      {table.columns.map((column) => (
        <li key={column.key} data-testid="template-table-column">
          <span className="font-medium">{column.label}</span>
          <span className="text-muted">
            {' · '}
            {typeName(column.type)}
            {column.alsoFits.length ? ` (${t.templates.alsoFits(column.alsoFits.map((type) => typeName(type).toLowerCase()).join(', '))})` : ''}
            {column.isKey ? `, ${t.templates.columnKey}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function TableChoices({
  tables,
  existing,
  isAdmin,
  value,
  onChange,
}: {
  tables: readonly TemplateTable[];
  existing: readonly ExistingTable[];
  isAdmin: boolean;
  value: TableChoice[];
  onChange: (value: TableChoice[]) => void;
}) {
  const { t } = useI18n();
  const set = (slug: string, choice: TableChoice) => onChange(value.map((current) => (current.slug === slug ? choice : current)));
  return (
    <>
      {tables.map((table) => {
        const choice = value.find((current) => current.slug === table.slug);
        const name = `table-${table.slug}`;
        return (
          <fieldset key={table.slug} className="space-y-2 rounded-md border border-line p-3" data-testid="install-table">
            <legend className="px-1 text-sm font-semibold">{t.templates.tableTitle(table.name)}</legend>
            <TableColumns table={table} />
            <label className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={name}
                disabled={!isAdmin}
                checked={choice?.use === 'create'}
                onChange={() => set(table.slug, { slug: table.slug, use: 'create' })}
              />
              {t.templates.tableCreate(table.name)}
            </label>
            {!isAdmin ? <p className="text-xs text-muted">{t.templates.tableCreateAdminOnly}</p> : null}
            <label className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={name}
                disabled={existing.length === 0}
                checked={choice?.use === 'existing'}
                onChange={() => set(table.slug, { slug: table.slug, use: 'existing', tableId: existing[0]?.id ?? '' })}
              />
              {t.templates.tableExisting}
            </label>
            {choice?.use === 'existing' ? (
              <Select
                aria-label={t.templates.tableExistingSelect}
                value={choice.tableId}
                onChange={(event) => set(table.slug, { slug: table.slug, use: 'existing', tableId: event.target.value })}
              >
                {existing.map((candidate) => (
                  <option key={candidate.id} value={candidate.id}>
                    {candidate.name}
                  </option>
                ))}
              </Select>
            ) : null}
            {!isAdmin && existing.length === 0 ? <p className="text-xs text-muted">{t.templates.tableNoneYet}</p> : null}
          </fieldset>
        );
      })}
    </>
  );
}

const typeWords = (t: Dictionary, types: readonly string[]) => types.map((type) => ((t.tables.types as Record<string, string>)[type] ?? type).toLowerCase()).join(' / ');

/** A `templates.table_mismatch` refusal in the member's words, naming the column; null for another error. */
export function mismatchText(t: Dictionary, tables: readonly TemplateTable[], existing: readonly ExistingTable[], details: Record<string, unknown>): string | null {
  const reason = details.reason;
  if (reason !== 'missing' && reason !== 'wrong_type' && reason !== 'not_key') return null;
  const column = typeof details.column === 'string' ? details.column : '';
  const label = tables.flatMap((table) => table.columns).find((candidate) => candidate.key === column)?.label ?? column;
  const tableName = existing.find((candidate) => candidate.slug === details.table)?.name ?? (typeof details.table === 'string' ? details.table : '');
  const expected = Array.isArray(details.expected) ? typeWords(t, details.expected as string[]) : '';
  const actual = typeof details.actual === 'string' ? typeWords(t, [details.actual]) : '';
  return t.templates.tableMismatch(label, tableName, reason, expected, actual);
}
