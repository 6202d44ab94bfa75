/**
 * Turns column inputs into the stored Column list: keys derived from labels where absent, defaults
 * filled, and the structural rules checked. Pure; throws catalogue errors.
 */
import { appError } from '../../../core/errors/app-error';
import { firstFree, keyFromLabel } from '../naming';
import type { Column, ColumnInput } from '../schemas';

function badColumns(reason: string, details: Record<string, unknown> = {}) {
  return appError('request.bad_request', { message: `Invalid columns: ${reason.replaceAll('_', ' ')}.`, details: { reason, ...details } });
}

export function buildColumns(inputs: ColumnInput[], limits: { maxColumns: number }): Column[] {
  if (inputs.length > limits.maxColumns) {
    throw appError('tables.limit_reached', { details: { limit: 'maxColumns', value: limits.maxColumns } });
  }
  const explicit = inputs.flatMap((input) => (input.key ? [input.key] : []));
  const duplicate = explicit.find((key, index) => explicit.indexOf(key) !== index);
  if (duplicate) throw appError('tables.duplicate_column', { details: { key: duplicate } });

  const taken = new Set(explicit);
  const columns = inputs.map((input): Column => {
    const key = input.key ?? firstFree(keyFromLabel(input.label), taken, '_');
    taken.add(key);
    return {
      key,
      label: input.label,
      type: input.type,
      isKey: input.isKey,
      required: input.required,
      options: input.type === 'select' ? input.options : [],
      width: null,
      description: input.description ?? null,
    };
  });

  if (columns.filter((column) => column.isKey).length > 1) throw badColumns('more_than_one_key_column');
  for (const column of columns) {
    if (column.type === 'select' && column.options.length === 0) throw badColumns('select_without_options', { key: column.key });
    if (new Set(column.options).size !== column.options.length) throw badColumns('duplicate_options', { key: column.key });
  }
  return columns;
}
