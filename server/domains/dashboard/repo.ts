/**
 * The dashboard's one way to the database: its figures are hand-built statements (./ai-sql.ts, ./mail-sql.ts,
 * ./executions-sql.ts write them, with the rules they count by); this file sends them. The rollups' reconcilers
 * send theirs through ./repo-rollups.ts.
 */
import { db } from '../../core/db';
import type { SqlStatement } from './sql';

/** The rows of one of the figures' statements, on the pool (statements of one figure are sent side by side). */
export function readFigures<Row>(statement: SqlStatement): Promise<Row[]> {
  return db().$queryRawUnsafe<Row[]>(statement.text, ...statement.values);
}
