import { z } from 'zod';
import { isoDateTime } from '../../core/http/schemas';

export const columnTypes = ['text', 'number', 'boolean', 'date', 'datetime', 'select', 'email'] as const;

const slug = z.string().min(1).max(60).regex(/^[a-z][a-z0-9_-]*$/, 'lower-case letters, digits, - and _, starting with a letter');
const columnKey = z.string().min(1).max(60).regex(/^[a-z][a-z0-9_]*$/, 'lower-case letters, digits and _, starting with a letter');

export const columnSchema = z
  .object({
    key: columnKey,
    label: z.string().min(1).max(120),
    type: z.enum(columnTypes),
    isKey: z.boolean(),
    required: z.boolean(),
    options: z.array(z.string().min(1).max(200)).max(100),
    width: z.number().int().min(80).max(800).nullable(),
    description: z.string().max(400).nullable(),
  })
  .meta({ id: 'Column' });

export type Column = z.infer<typeof columnSchema>;

const storedColumns = z.array(columnSchema);

/** A table's stored `columns` (JSONB) as columns, checked: a malformed structure fails loudly. */
export function storedColumnsOf(stored: unknown): Column[] {
  return storedColumns.parse(stored);
}

export const columnInput = z.object({
  key: columnKey.optional().describe('Derived from the label when absent.'),
  label: z.string().trim().min(1).max(120),
  type: z.enum(columnTypes).default('text'),
  isKey: z.boolean().default(false),
  required: z.boolean().default(false),
  options: z.array(z.string().trim().min(1).max(200)).max(100).default([]),
  description: z.string().max(400).nullable().optional(),
});

export type ColumnInput = z.infer<typeof columnInput>;

export const tableSchema = z
  .object({
    id: z.string(),
    slug,
    name: z.string(),
    description: z.string().nullable(),
    columns: z.array(columnSchema),
    keyUnique: z.boolean(),
    rowCount: z.number().int().min(0),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'Table' });

export const createTableInput = z.object({
  name: z.string().trim().min(1).max(120),
  slug: slug.optional().describe('Derived from the name and made unique when absent.'),
  description: z.string().max(1000).nullable().optional(),
  columns: z.array(columnInput).default([]),
  keyUnique: z.boolean().default(true),
});

export const patchTableInput = z.object({
  id: z.string().min(1).max(100).describe('Table id or slug.'),
  name: z.string().trim().min(1).max(120).optional(),
  slug: slug.optional(),
  description: z.string().max(1000).nullable().optional(),
  keyUnique: z.boolean().optional(),
});

export const tableRefInput = z.object({ id: z.string().min(1).max(100).describe('Table id or slug.') });

export const tableOutput = z.object({ table: tableSchema });

export const limitsOutput = z.object({
  limits: z.object({
    maxTables: z.number().int().positive(),
    maxColumns: z.number().int().positive(),
    maxRows: z.number().int().positive(),
    maxCellChars: z.number().int().positive(),
  }),
});
