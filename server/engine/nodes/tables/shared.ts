/** Params shared by the table nodes. Not a node module. */
import { z } from 'zod';
import { ownRecord } from '../../../core/http/own-record';
import type { Cells } from '../../contract/capabilities';

export const tableIdParam = z.string().min(1).max(100).describe('The table (its id).');
export const keyParam = z.string().min(1).max(1_000).describe('The key value of the row (the table’s key column), text or an expression.');
export const cellsParam = ownRecord(
  z.string().min(1).max(128),
  z.union([z.string().max(100_000), z.number(), z.boolean(), z.null()]).describe('A cell value: text, number, boolean or null.'),
  { maxKeys: 200 },
).describe('The cells to write, by column key (at most 200; values or expressions).');

export function asCells(cells: Record<string, string | number | boolean | null>): Cells {
  const out: Cells = {};
  for (const key of Object.keys(cells)) {
    if (Object.hasOwn(cells, key)) Object.defineProperty(out, key, { value: cells[key], enumerable: true, writable: true, configurable: true });
  }
  return out;
}

