/**
 * Filter conditions: which operators fit each column type, the builder's drafts (text the person
 * types) and the conditions the rows query takes.
 */
import type { Dictionary, Locale } from '@/app/i18n';
import type { CellValue, Column, ColumnType, FilterCondition, FilterOp } from './api';
import { displayCell, localInputToIso, parseNumber } from './cells';

/** The service's bound on conditions per query. */
export const maxConditions = 20;

export const operatorsByType: Record<ColumnType, FilterOp[]> = {
  text: ['contains', 'eq', 'neq', 'starts_with', 'in', 'empty', 'not_empty'],
  email: ['contains', 'eq', 'neq', 'starts_with', 'in', 'empty', 'not_empty'],
  number: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'empty', 'not_empty'],
  date: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'empty', 'not_empty'],
  // Exact instants are rarely typed: a date-time is compared by range.
  datetime: ['gt', 'gte', 'lt', 'lte', 'between', 'eq', 'neq', 'empty', 'not_empty'],
  boolean: ['eq', 'empty', 'not_empty'],
  select: ['eq', 'neq', 'in', 'empty', 'not_empty'],
};

export type ValueShape = 'none' | 'one' | 'two' | 'many';

export function valueShape(op: FilterOp): ValueShape {
  if (op === 'empty' || op === 'not_empty') return 'none';
  if (op === 'between') return 'two';
  if (op === 'in') return 'many';
  return 'one';
}

/** A condition as the builder edits it: values as typed. */
export interface DraftCondition {
  id: number;
  column: string;
  op: FilterOp;
  value: string;
  value2: string;
  /** Chosen options (select, `in`) or the comma-separated text (other types, `in`). */
  values: string[];
  valuesText: string;
}

let nextDraftId = 1;

export function newDraft(column: Column): DraftCondition {
  return {
    id: nextDraftId++,
    column: column.key,
    op: operatorsByType[column.type][0],
    value: column.type === 'boolean' ? 'true' : column.type === 'select' ? (column.options[0] ?? '') : '',
    value2: '',
    values: [],
    valuesText: '',
  };
}

function valueText(column: Column | undefined, value: CellValue | undefined): string {
  if (value === undefined) return '';
  if (column?.type === 'datetime' && typeof value === 'string') {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) {
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
    }
  }
  return String(value);
}

/** An applied condition back into the builder. */
export function draftOf(condition: FilterCondition, columns: Column[]): DraftCondition {
  const column = columns.find((c) => c.key === condition.column);
  const shape = valueShape(condition.op);
  const values = condition.values ?? [];
  return {
    id: nextDraftId++,
    column: condition.column,
    op: condition.op,
    value: shape === 'two' ? valueText(column, values[0]) : valueText(column, condition.value),
    value2: shape === 'two' ? valueText(column, values[1]) : '',
    values: values.map(String),
    valuesText: values.map(String).join(', '),
  };
}

export type DraftError = 'value' | 'number' | 'date' | 'options';

function parseOne(type: ColumnType, text: string): { value: CellValue } | { error: DraftError } {
  const trimmed = text.trim();
  if (!trimmed) return { error: 'value' };
  switch (type) {
    case 'number': {
      const number = parseNumber(trimmed);
      return number === null ? { error: 'number' } : { value: number };
    }
    case 'boolean':
      return { value: trimmed === 'true' };
    case 'datetime': {
      const iso = localInputToIso(trimmed);
      return iso ? { value: iso } : { error: 'date' };
    }
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(trimmed) ? { value: trimmed } : { error: 'date' };
    default:
      return { value: trimmed };
  }
}

/** The condition a draft stands for, or what is missing. */
export function conditionOf(draft: DraftCondition, columns: Column[]): { condition: FilterCondition } | { error: DraftError } {
  const column = columns.find((c) => c.key === draft.column);
  if (!column) return { error: 'value' };
  const shape = valueShape(draft.op);
  if (shape === 'none') return { condition: { column: column.key, op: draft.op } };
  if (shape === 'one') {
    const parsed = parseOne(column.type, draft.value);
    return 'error' in parsed ? parsed : { condition: { column: column.key, op: draft.op, value: parsed.value } };
  }
  if (shape === 'two') {
    const low = parseOne(column.type, draft.value);
    if ('error' in low) return low;
    const high = parseOne(column.type, draft.value2);
    if ('error' in high) return high;
    return { condition: { column: column.key, op: draft.op, values: [low.value, high.value] } };
  }
  const texts = column.type === 'select' ? draft.values : draft.valuesText.split(',').map((part) => part.trim()).filter(Boolean);
  if (texts.length === 0) return { error: column.type === 'select' ? 'options' : 'value' };
  const values: CellValue[] = [];
  for (const text of texts) {
    const parsed = parseOne(column.type, text);
    if ('error' in parsed) return parsed;
    values.push(parsed.value);
  }
  return { condition: { column: column.key, op: draft.op, values } };
}

/** The label of an operator for a column type (dates read "before/after"). */
export function operatorLabel(op: FilterOp, type: ColumnType | undefined, t: Dictionary): string {
  if ((type === 'date' || type === 'datetime') && op in t.tables.filter.dateOps) {
    return t.tables.filter.dateOps[op as keyof Dictionary['tables']['filter']['dateOps']];
  }
  return t.tables.filter.ops[op];
}

/** "Status is one of Open, Waiting" — a condition in words, for the chips above the grid. */
export function describeCondition(condition: FilterCondition, columns: Column[], locale: Locale, t: Dictionary): string {
  const column = columns.find((c) => c.key === condition.column);
  const label = column?.label ?? condition.column;
  const op = operatorLabel(condition.op, column?.type, t);
  const show = (value: CellValue) => (column ? displayCell(column, value, locale, t) : String(value));
  const shape = valueShape(condition.op);
  if (shape === 'none') return `${label} ${op}`;
  if (shape === 'two') {
    const [low, high] = condition.values ?? [];
    return `${label} ${op} ${low === undefined ? '' : show(low)} ${t.tables.filter.and} ${high === undefined ? '' : show(high)}`;
  }
  if (shape === 'many') return `${label} ${op} ${(condition.values ?? []).map(show).join(', ')}`;
  return `${label} ${op} ${condition.value === undefined ? '' : show(condition.value)}`;
}

/** The conditions still meaningful after a structure change (a removed column drops its conditions). */
export function conditionsForColumns(conditions: FilterCondition[], columns: Column[]): FilterCondition[] {
  return conditions.filter((condition) => {
    const column = columns.find((c) => c.key === condition.column);
    return column !== undefined && operatorsByType[column.type].includes(condition.op);
  });
}
