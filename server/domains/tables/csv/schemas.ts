/**
 * Schemas of the CSV routes: the import preview and the import (JSON bodies carrying the file as
 * text), and the export's query parameters (a download route served outside tRPC).
 */
import { z } from 'zod';
import { ownRecord } from '../../../core/http/own-record';
import { listRowsInput } from '../rows/schemas';

const tableRef = z.string().min(1).max(100).describe('Table id or slug.');
const csvText = z.string().min(1).describe('The whole CSV file as text (first line: headers). The request body bound (5 MB) applies.');

const problem = z.object({
  column: z.string().nullable(),
  reason: z.string(),
  message: z.string().describe('A sentence naming the column, the value and why it does not fit.'),
  value: z.string().max(40).optional().describe('The value refused, at most 40 characters (absent for a missing value).'),
});
const rejectedLine = z.object({ line: z.number().int(), problems: z.array(problem) }).meta({ id: 'RejectedLine' });

export const previewImportInput = z.object({ id: tableRef, csv: csvText });

export const previewImportOutput = z.object({
  headers: z.array(z.string()),
  sample: z.array(z.array(z.string())),
  lineCount: z.number().int().min(0),
  mapping: z.record(z.string(), z.string().nullable()),
});

export const importInput = z.object({
  id: tableRef,
  csv: csvText,
  mapping: ownRecord(z.string(), z.string().nullable(), { maxKeys: 1000 }).describe('Header → column key (null skips the header); at most 1000 headers.'),
  mode: z.enum(['insert', 'upsert']).default('insert'),
  skipInvalid: z.boolean().default(false),
});

export const importOutput = z.object({
  inserted: z.number().int().min(0),
  updated: z.number().int().min(0),
  rejectedCount: z.number().int().min(0),
  rejected: z.array(rejectedLine).describe('At most 100 lines; rejectedCount has them all.'),
});

/**
 * Query parameters of `GET /api/v1/tables/{id}/export.csv` (the path's `id` is not among them): the
 * rows query's view, checked by the same schema, and `raw`. Unknown parameters are a 400.
 */
export const exportQueryInput = listRowsInput
  .pick({ q: true, filter: true, match: true, sort: true, dir: true })
  .extend({
    // An exact `true|false` rather than z.stringbool(): the document then lists the two values.
    raw: z
      .enum(['true', 'false'])
      .default('false')
      .transform((value) => value === 'true')
      .describe(
        'By default a value (or a column label) starting with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `\'` so a spreadsheet shows it instead of running it as a formula; number cells are left as they are. `raw=true` exports the stored text unchanged, for programs.',
      ),
  })
  .strict();

export type ExportQuery = z.infer<typeof exportQueryInput>;
