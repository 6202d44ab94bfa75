/**
 * The shared tables a template needs (issue 19 §2): what its card shows (each table's name and its
 * columns with their types) and what installing does with them. For each table the member chooses to
 * create it (administrators: tables are the team's) or to use an existing table; an existing table
 * must have every column the template writes, by key, of a type that fits (the template's type or one
 * of `alsoFits`), or installing is refused with 409 `templates.table_mismatch` naming the column.
 * The template's nodes that read or write the table (`nodeIds`) then name the chosen table by id.
 *
 * Only starter templates declare tables (in code, next to their graphs): the Template resource shows
 * them from the starter catalogue by slug, so no stored copy can drift from the graph it describes.
 */
import { type Column, columnTypes } from '../tables';

export type TableColumnType = (typeof columnTypes)[number];

export interface TemplateTableColumn {
  key: string;
  label: string;
  type: TableColumnType;
  isKey?: boolean;
  /** Other column types the template's values also fit (a text column takes any value). */
  alsoFits?: TableColumnType[];
  /** The template works without it (it only reads the key, say). */
  optional?: boolean;
}

export interface TemplateTable {
  /** The template's name for the table (also the slug it had before installs chose a table). */
  slug: string;
  name: string;
  description: string;
  columns: TemplateTableColumn[];
  /** The template's nodes whose `tableId` names this table. */
  nodeIds: string[];
}

export type TableMismatch =
  | { column: string; reason: 'missing'; expected: TableColumnType[] }
  | { column: string; reason: 'wrong_type'; expected: TableColumnType[]; actual: TableColumnType }
  | { column: string; reason: 'not_key'; expected: TableColumnType[] };

const fits = (column: TemplateTableColumn): TableColumnType[] => [column.type, ...(column.alsoFits ?? [])];

/** The first column of the template's table that the existing table does not provide as needed, or null. */
export function tableMismatch(wanted: TemplateTable, columns: readonly Pick<Column, 'key' | 'type' | 'isKey'>[]): TableMismatch | null {
  const byKey = new Map(columns.map((column) => [column.key, column]));
  for (const column of wanted.columns) {
    const expected = fits(column);
    const found = byKey.get(column.key);
    if (!found) {
      if (column.optional) continue;
      return { column: column.key, reason: 'missing', expected };
    }
    if (!expected.includes(found.type as TableColumnType)) return { column: column.key, reason: 'wrong_type', expected, actual: found.type as TableColumnType };
    if (column.isKey && !found.isKey) return { column: column.key, reason: 'not_key', expected };
  }
  return null;
}

const typeWords: Record<TableColumnType, string> = {
  text: 'text',
  number: 'a number',
  boolean: 'yes/no',
  date: 'a date',
  datetime: 'a date and time',
  select: 'a choice',
  email: 'an email address',
};

/** One sentence naming the table, the column and what does not fit (the error's message). */
export function mismatchMessage(tableName: string, wanted: TemplateTable, mismatch: TableMismatch): string {
  const label = wanted.columns.find((column) => column.key === mismatch.column)?.label ?? mismatch.column;
  const expected = mismatch.expected.map((type) => typeWords[type]).join(' or ');
  switch (mismatch.reason) {
    case 'missing':
      return `Table “${tableName}” has no column “${label}” (${mismatch.column}); the template writes ${expected} there.`;
    case 'wrong_type':
      return `Column “${label}” (${mismatch.column}) of table “${tableName}” holds ${typeWords[mismatch.actual]}; the template writes ${expected} there.`;
    case 'not_key':
      return `Column “${label}” (${mismatch.column}) of table “${tableName}” must be the table’s key: the template finds rows by it.`;
  }
}

/** The columns to create the table with (tables domain's column input). */
export function columnsToCreate(wanted: TemplateTable) {
  return wanted.columns.map((column) => ({ key: column.key, label: column.label, type: column.type, isKey: column.isKey === true, required: false, options: [] as string[] }));
}
