/** The instance's ceilings for shared tables (environment, see `.env.example`). */
import { config } from '../../core/config';

export interface TableLimits {
  maxTables: number;
  maxColumns: number;
  maxRows: number;
  maxCellChars: number;
}

export function tableLimits(): TableLimits {
  const c = config();
  return { maxTables: c.TABLES_MAX_TABLES, maxColumns: c.TABLES_MAX_COLUMNS, maxRows: c.TABLES_MAX_ROWS, maxCellChars: c.TABLES_MAX_CELL_CHARS };
}
