/** A stored row (as `rowColumnsSql`/`returningSql` select it) → the `Row` resource. */
import { iso } from '../../../core/http/schemas';
import type { Cells } from './cells';
import type { Row } from './schemas';

/** A row as selected by `rowColumnsSql` (query.ts) / `returningSql` (repo.ts). */
export interface StoredRow {
  id: string;
  cells: Cells;
  created_at: Date;
  updated_at: Date;
  created_by_member: string | null;
  created_by_execution: string | null;
  updated_by_member: string | null;
  updated_by_execution: string | null;
}

function writerOf(memberId: string | null, executionId: string | null): Row['createdBy'] {
  if (executionId) return { kind: 'execution', id: executionId };
  if (memberId) return { kind: 'member', id: memberId };
  return null;
}

export function presentRow(row: StoredRow): Row {
  return {
    id: row.id,
    cells: row.cells as Row['cells'],
    createdAt: iso(new Date(row.created_at)),
    updatedAt: iso(new Date(row.updated_at)),
    createdBy: writerOf(row.created_by_member, row.created_by_execution),
    updatedBy: writerOf(row.updated_by_member, row.updated_by_execution),
  };
}
