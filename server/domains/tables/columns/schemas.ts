/** Inputs of the column routes; the Column resource and column inputs are the table's (../schemas.ts). */
import { z } from 'zod';
import { columnInput, columnTypes } from '../schemas';

const tableRef = z.string().min(1).max(100).describe('Table id or slug.');
const columnKey = z.string().min(1).max(60);

export const addColumnInput = z.object({ id: tableRef, column: columnInput, position: z.number().int().min(0).optional() });

export const updateColumnInput = z.object({
  id: tableRef,
  key: columnKey,
  label: z.string().trim().min(1).max(120).optional(),
  type: z.enum(columnTypes).optional(),
  isKey: z.boolean().optional(),
  required: z.boolean().optional(),
  options: z.array(z.string().trim().min(1).max(200)).max(100).optional(),
  description: z.string().max(400).nullable().optional(),
  width: z.number().int().min(80).max(800).nullable().optional(),
});

export const reorderColumnsInput = z.object({ id: tableRef, keys: z.array(columnKey).min(1).max(500) });

export const columnRefInput = z.object({ id: tableRef, key: columnKey });
