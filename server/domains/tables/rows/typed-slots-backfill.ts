/**
 * Gives typed slots to tables whose rows were written before slots existed (`typed_slots` NULL,
 * queried through JSONB meanwhile): assigns the map and writes every row's slot values, in the
 * transaction of the table's structure lock. Run by the runner at start (and before any structural
 * change of such a table, so a change never has to reason about a table without slots).
 */
import type { Tx } from '../../../core/db';
import { db } from '../../../core/db';
import { log } from '../../../core/log';
import { lockTableRowForSlots, tablesWithoutSlots, updateTable } from '../repo';
import { rewriteRows } from './row-rewrite';
import { storedColumnsOf, type Column } from '../schemas';
import { assignSlots, storedTypedSlots, type TypedSlots } from './typed-slots';

/** The table's slots, assigned (and every row's values written) first when it has none. Caller holds the table FOR UPDATE. */
export async function ensureTypedSlots(tx: Tx, table: { id: string; keyUnique: boolean }, columns: Column[], current: TypedSlots | null): Promise<TypedSlots> {
  if (current) return current;
  const slots = assignSlots(columns, new Map());
  await rewriteRows(tx, table, { columns, slots }, (cells) => ({ cells }));
  await updateTable(tx, table.id, { typedSlots: storedTypedSlots(slots) });
  return slots;
}

/** Every table still without slots, one transaction each. Returns how many were given slots. */
export async function backfillTypedSlots(): Promise<number> {
  const pending = await tablesWithoutSlots();
  let done = 0;
  for (const { id } of pending) {
    const given = await db().$transaction(
      async (tx) => {
        const table = await lockTableRowForSlots(tx, id);
        if (!table || table.typed_slots !== null) return false;
        await ensureTypedSlots(tx, { id: table.id, keyUnique: table.key_unique }, storedColumnsOf(table.columns), null);
        return true;
      },
      { timeout: 300_000, maxWait: 10_000 },
    );
    if (given) done += 1;
  }
  if (done > 0) log.info({ tables: done }, 'typed slots given to tables written before they existed');
  return done;
}
