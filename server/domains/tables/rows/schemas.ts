/**
 * Schemas of the row routes: the Row resource, cell inputs, the rows query (offset pagination, sort,
 * full-text `q`, JSON-encoded `filter`) and batches. The filter's meaning per column type is checked
 * against the table's columns in view.ts; here only its shape.
 */
import { z } from 'zod';
import { ownRecord } from '../../../core/http/own-record';
import { isoDateTime } from '../../../core/http/schemas';

export const rowWriterSchema = z
  .object({ kind: z.enum(['member', 'execution']), id: z.string() })
  .nullable()
  .meta({ id: 'RowWriter', description: 'Who wrote the row: a member (interface or API) or a workflow execution; null when unknown.' });

export const cellValueSchema = z.union([z.string(), z.number(), z.boolean()]);

export const rowSchema = z
  .object({
    id: z.uuid(),
    cells: z.record(z.string(), cellValueSchema).describe('Column key → value; an empty cell is absent.'),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    createdBy: rowWriterSchema,
    updatedBy: rowWriterSchema,
  })
  .meta({ id: 'Row' });

export type Row = z.infer<typeof rowSchema>;

/** Cells in a write: values of the column types; null (or "") empties a cell. */
export const cellsInput = ownRecord(z.string().max(60), z.union([z.string(), z.number(), z.boolean(), z.null()]), { maxKeys: 1000 })
  .describe('Column key → value. Text, email, select, date (YYYY-MM-DD) and datetime (ISO 8601 with a zone) as strings; numbers; booleans; null or "" empties the cell.');

export const tableRef = z.string().min(1).max(100).describe('Table id or slug.');
export const rowRef = z.string().min(1).max(100).describe('Row id.');

export const rowOutput = z.object({ row: rowSchema });

export const rowSorts = ['createdAt', 'updatedAt'] as const;

export const filterOperators = ['eq', 'neq', 'contains', 'starts_with', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'empty', 'not_empty'] as const;
export type FilterOperator = (typeof filterOperators)[number];

export const maxFilterConditions = 20;
export const maxFilterValues = 100;

export const filterConditionSchema = z
  .object({
    column: z.string().min(1).max(60),
    op: z.enum(filterOperators),
    value: cellValueSchema.optional(),
    values: z.array(cellValueSchema).min(1).max(maxFilterValues).optional(),
  })
  .strict();

export type FilterCondition = z.infer<typeof filterConditionSchema>;

export const filterSchema = z.array(filterConditionSchema).max(maxFilterConditions);

export const maxRowsOffset = 100_000;

export const listRowsInput = z.object({
  id: tableRef,
  offset: z.coerce.number().int().min(0).max(maxRowsOffset).default(0).describe('Rows to skip (0-100000).'),
  limit: z.coerce.number().int().min(1).max(500).default(100).describe('Page size (1-500, default 100).'),
  sort: z.string().min(1).max(60).default('createdAt').describe('A column key, or `createdAt` (creation order, the default) or `updatedAt`.'),
  dir: z.enum(['asc', 'desc']).default('asc'),
  q: z.string().max(200).optional().describe('Full-text search over every cell of the row; each word matches as a prefix.'),
  filter: z
    .string()
    .max(100_000)
    .optional()
    .describe(
      'JSON array of at most 20 conditions `{column, op, value?, values?}`. Operators by column type: text/email `eq`, `neq`, `contains`, `starts_with`, `in`, `empty`, `not_empty` (case-insensitive); number/date/datetime `eq`, `neq`, `gt`, `gte`, `lt`, `lte`, `between` (`values` [a, b], inclusive), `in`, `empty`, `not_empty`; boolean `eq`, `empty`, `not_empty`; select `eq`, `neq`, `in`, `empty`, `not_empty`. `createdAt` and `updatedAt` filter like datetime columns.',
    ),
  match: z.enum(['all', 'any']).default('all').describe('`all`: every condition holds; `any`: at least one.'),
});

export type ListRowsInput = z.infer<typeof listRowsInput>;

export const listRowsOutput = z.object({
  rows: z.array(rowSchema),
  total: z.number().int().min(0).describe('Rows matching `q` and `filter`.'),
  totalUnfiltered: z.number().int().min(0),
  offset: z.number().int().min(0),
  limit: z.number().int().min(1),
});

export const batchOperationSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('insert'), cells: cellsInput }),
  z.object({ op: z.literal('update'), id: rowRef, cells: cellsInput }),
  z.object({ op: z.literal('upsert'), cells: cellsInput }),
  z.object({ op: z.literal('delete'), id: rowRef }),
]);

export type BatchOperation = z.infer<typeof batchOperationSchema>;

export const maxBatchOperations = 500;

export const batchInput = z.object({ id: tableRef, operations: z.array(batchOperationSchema).min(1).max(maxBatchOperations) });

export const batchResultSchema = z
  .object({
    op: z.enum(['insert', 'update', 'upsert', 'delete']),
    id: z.uuid(),
    row: rowSchema.optional(),
    created: z.boolean().optional(),
  })
  .meta({ id: 'RowBatchResult' });

export const batchOutput = z.object({ results: z.array(batchResultSchema) });
