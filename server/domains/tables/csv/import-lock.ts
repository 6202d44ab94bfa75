/**
 * One import at a time per table: a second import of a table whose import is still running answers
 * 409 `tables.import_in_progress` at once, instead of parsing another file of up to 5 MiB and then
 * waiting for the table's lock.
 *
 * Within this process, a set of the tables being imported, taken before the file is read. Across
 * processes (several web processes on one database), a transaction advisory lock tried at the start
 * of the import's write transaction: the parse may then run twice, the write never does.
 */
import type { Tx } from '../../../core/db';
import { appError, type AppError } from '../../../core/errors/app-error';
import { tryClaimImport } from '../repo';

const importing = new Set<string>();

function inProgress(tableId: string): AppError {
  return appError('tables.import_in_progress', { details: { tableId } });
}

/** Runs `work` as this process's only import of the table. */
export async function withImportSlot<T>(tableId: string, work: () => Promise<T>): Promise<T> {
  if (importing.has(tableId)) throw inProgress(tableId);
  importing.add(tableId);
  try {
    return await work();
  } finally {
    importing.delete(tableId);
  }
}

/** In the import's write transaction: the database-wide claim on the table's import (released at commit or rollback). */
export async function claimImport(tx: Tx, tableId: string): Promise<void> {
  if (!(await tryClaimImport(tx, tableId))) throw inProgress(tableId);
}
