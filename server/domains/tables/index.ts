/**
 * The tables domain's public face: what other domains, the HTTP layer and the runner may import from it
 * (ESLint refuses their imports of any other file here). Re-exports only; the code lives in the files named.
 */
export { exportQueryInput } from './csv/schemas';
export { listRowsInput } from './rows/schemas';
export { columnTypes, storedColumnsOf } from './schemas';
export type { Column } from './schemas';
export { openTableExport } from './csv/service';
// The CSV reader and the formula guard, for other domains' CSV files (the address book's import and export).
export { readCsv, TooManyLinesError, type CsvFile } from './csv/read-csv';
export { neutraliseFormula } from './csv/formula';
export { findTableOrThrow } from './repo';
export { createTable } from './service';
export { purgeOldTableWriteEffects } from './housekeeping';
export { backfillTypedSlots } from './rows/typed-slots-backfill';
