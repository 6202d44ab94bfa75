/**
 * A refused cell as people read it: the column named, the value quoted (bounded) and why it does not fit, the same
 * sentence whoever wrote the value (a person, the API, a workflow step). Wording only: which values fit is ./cells.ts.
 */
import { quotedValue } from '../../../core/quoted-value';
import type { Column } from '../schemas';

export interface CellProblem {
  column: string;
  reason: 'unknown_column' | 'required' | 'wrong_type' | 'ambiguous_number' | 'too_long' | 'invalid_email' | 'invalid_date' | 'invalid_datetime' | 'not_an_option';
  /** A sentence naming the column, the value (bounded) and why it does not fit. */
  message: string;
  /** The value refused, bounded to `maxQuotedValue` characters (absent for a missing required value). */
  value?: string;
}

type ProblemColumn = Pick<Column, 'key' | 'type' | 'options'> & { label?: string };

/** The column as a message names it: `Column “Amount” (amount, number)`. */
export function columnName(column: ProblemColumn): string {
  const label = column.label ? quotedValue(column.label) : column.key;
  return label === column.key ? `Column “${label}” (${column.type})` : `Column “${label}” (${column.key}, ${column.type})`;
}

const typeWords: Record<Column['type'], string> = {
  text: 'text',
  number: 'a number',
  boolean: 'true or false',
  date: 'a date',
  datetime: 'a date and time',
  select: 'one of the options',
  email: 'an email address',
};

/** Why the quoted value does not fit, as the end of a sentence. */
function whyNot(column: ProblemColumn, reason: CellProblem['reason'], quoted: string, readings?: [number, number]): string {
  switch (reason) {
    case 'wrong_type':
      return `“${quoted}” is not ${typeWords[column.type]}`;
    case 'ambiguous_number': {
      const both = readings ? ` (${readings[0]} or ${readings[1]})` : '';
      return `“${quoted}” is ambiguous${both}: write it without a thousands separator, or with both separators (1,234.50 or 1.234,50)`;
    }
    case 'too_long':
      return `“${quoted}” is longer than a cell holds`;
    case 'invalid_email':
      return `“${quoted}” is not an email address`;
    case 'invalid_date':
      return `“${quoted}” is not a date written YYYY-MM-DD`;
    case 'invalid_datetime':
      return `“${quoted}” is not a date and time in ISO 8601 with a time zone (2026-03-01T10:00:00Z)`;
    case 'not_an_option': {
      const shown = column.options.slice(0, 5).map((option) => quotedValue(option)).join(', ');
      return `“${quoted}” is not one of its options (${shown}${column.options.length > 5 ? ', …' : ''})`;
    }
    default:
      return `“${quoted}” does not fit`;
  }
}

/**
 * A problem as people read it, the same sentence whether a person, the API or a workflow step (live
 * or in a test run) wrote the value: `Column “Amount” (amount, number): “EUR 87.40x” is not a number.`
 * The value is quoted bounded (`maxQuotedValue`); it is the writer's own data.
 */
export function cellProblem(
  column: ProblemColumn | string,
  reason: CellProblem['reason'],
  value?: unknown,
  readings?: [number, number],
): CellProblem {
  const quoted = value === undefined || value === null || value === '' ? undefined : quotedValue(value);
  const withValue = quoted === undefined ? {} : { value: quoted };
  if (typeof column === 'string' || reason === 'unknown_column') {
    const key = typeof column === 'string' ? column : column.key;
    return { column: key, reason, message: `The table has no column “${quotedValue(key)}”.`, ...withValue };
  }
  if (reason === 'required' || quoted === undefined) {
    return { column: column.key, reason, message: `${columnName(column)} is required: it needs a value.` };
  }
  return { column: column.key, reason, message: `${columnName(column)}: ${whyNot(column, reason, quoted, readings)}.`, ...withValue };
}
