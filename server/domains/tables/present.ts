/** A stored table → the `Table` resource. */
import type { DataTable } from '../../generated/prisma/client';
import { iso } from '../../core/http/schemas';
import { storedColumnsOf } from './schemas';

export function presentTable(table: DataTable) {
  return {
    id: table.id,
    slug: table.slug,
    name: table.name,
    description: table.description,
    columns: storedColumnsOf(table.columns),
    keyUnique: table.keyUnique,
    rowCount: table.rowCount,
    createdAt: iso(table.createdAt),
    updatedAt: iso(table.updatedAt),
  };
}
