/**
 * Schemas of the CSV routes: the import preview and the import (JSON bodies carrying the file as
 * text), and the export's query parameters (a download route served outside tRPC).
 */
import { z } from 'zod';
import { ownRecord } from '../../../core/http/own-record';

const tableRef = z.string().min(1).max(100).describe('Table id or slug.');
const csvText = z.string().min(1).describe('The whole CSV file as text (first line: headers). The request body bound (5 MB) applies.');

const problem = z.object({ column: z.string().nullable(), reason: z.string(), message: z.string() });
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
  mapping: ownRecord(z.string(), z.string().nullable()),
  mode: z.enum(['insert', 'upsert']).default('insert'),
  skipInvalid: z.boolean().default(false),
});

export const importOutput = z.object({
  inserted: z.number().int().min(0),
  updated: z.number().int().min(0),
  rejectedCount: z.number().int().min(0),
  rejected: z.array(rejectedLine).describe('At most 100 lines; rejectedCount has them all.'),
});
