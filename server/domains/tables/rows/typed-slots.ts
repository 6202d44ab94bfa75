/**
 * Typed slots: each row of `table_rows` carries, next to its JSONB `cells`, a copy of its cells in
 * plain typed columns — `n1`…`n50` (float8) for number columns, `t1`…`t50` (text, collation "C")
 * for every other type — so the rows query filters and sorts on ordinary column values instead of
 * extracting JSONB for each of 100,000 rows (measured: about twice as fast; see query.ts).
 *
 * Which column of a table uses which slot is the table's `typed_slots` map (column key → slot
 * name), assigned here when the structure changes and kept for as long as the column keeps its kind,
 * so adding or reordering columns never rewrites rows. `cells` stays the truth that answers read;
 * a slot holds the value in the form the query compares:
 *
 * - number: the number;
 * - text, email: lower-cased here in JavaScript (filter values are lower-cased by the same function,
 *   so comparisons are case-insensitive for every script, whatever the database's collation);
 * - select, date, date-time, boolean: the stored text (ISO dates and UTC date-times sort
 *   chronologically byte-wise; booleans "false" < "true").
 *
 * An absent cell is NULL. Every row write sets all the slots from the cells (unused ones to NULL),
 * so a slot freed by a removed column never shows stale values. A table whose map is NULL (rows
 * written before slots existed) is queried through JSONB until `backfillTypedSlots` gives it a map;
 * a column beyond the 50 slots of its kind is queried through JSONB too.
 */
import { cellOf, type CellValue, type Cells } from './cells';
import type { Column } from '../schemas';

export const slotsPerKind = 50;

export type SlotKind = 'n' | 't';
/**
 * Column key → slot name ("n3", "t12"). A Map, not an object: column keys are chosen by people,
 * and a key such as `constructor` must not find Object.prototype's member in a plain object.
 */
export type TypedSlots = ReadonlyMap<string, string>;

const range = Array.from({ length: slotsPerKind }, (_, index) => index + 1);
export const numberSlots = range.map((index) => `n${index}`);
export const textSlots = range.map((index) => `t${index}`);
const allSlots = [...numberSlots, ...textSlots];
const slotNames: ReadonlySet<string> = new Set(allSlots);

export function slotKindOf(type: Column['type']): SlotKind {
  return type === 'number' ? 'n' : 't';
}

/** Whether a column's slot holds lower-cased text (its filters lower-case their values alike). */
export function foldsCase(type: Column['type']): boolean {
  return type === 'text' || type === 'email';
}

/** The text a `t` slot holds for a value (and the form a filter value takes to compare with it). */
export function slotText(type: Column['type'], value: string | number | boolean): string {
  const text = String(value);
  return foldsCase(type) ? text.toLowerCase() : text;
}

/**
 * A slot name as it goes into SQL: one of the fixed `n1`…`t50`, or a thrown error (a bug, never
 * user input: the map is checked when read). Every slot name that enters a statement passes here.
 */
export function slotSql(slot: string): string {
  if (!slotNames.has(slot)) throw new Error(`not a typed slot: ${JSON.stringify(slot).slice(0, 40)}`);
  return slot;
}

/** The stored map (JSON object, own properties only), or null for a table whose rows have no slot values yet. */
export function parseTypedSlots(stored: unknown): TypedSlots | null {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return null;
  const entries = Object.entries(stored);
  if (!entries.every(([, slot]) => typeof slot === 'string' && slotNames.has(slot))) return null;
  return new Map(entries as [string, string][]);
}

/** The map as the JSON object `data_tables.typed_slots` stores (Object.fromEntries defines own properties, even `__proto__`). */
export function storedTypedSlots(slots: TypedSlots): Record<string, string> {
  return Object.fromEntries(slots);
}

/**
 * The map for a new structure: columns that keep their kind keep their slot, others take the lowest
 * free slot of their kind (none left: the column has no slot).
 */
export function assignSlots(columns: Column[], current: TypedSlots): TypedSlots {
  const next = new Map<string, string>();
  const used = new Set<string>();
  for (const column of columns) {
    const slot = current.get(column.key);
    if (slot && slot[0] === slotKindOf(column.type)) {
      next.set(column.key, slot);
      used.add(slot);
    }
  }
  for (const column of columns) {
    if (next.has(column.key)) continue;
    const free = (slotKindOf(column.type) === 'n' ? numberSlots : textSlots).find((slot) => !used.has(slot));
    if (!free) continue;
    next.set(column.key, free);
    used.add(free);
  }
  return next;
}

/** The slot values of one row, as a JSON object of the used slots (absent slots are NULL). */
export function slotValuesOf(columns: Column[], slots: TypedSlots | null, cells: Cells): Record<string, number | string> {
  const values: Record<string, number | string> = {};
  if (!slots) return values;
  for (const column of columns) {
    const slot = slots.get(column.key);
    const value: CellValue | undefined = cellOf(cells, column.key);
    if (!slot || value === null || value === undefined) continue;
    if (slot[0] === 'n') {
      if (typeof value === 'number' && Number.isFinite(value)) values[slotSql(slot)] = value;
    } else {
      values[slotSql(slot)] = slotText(column.type, value);
    }
  }
  return values;
}

/** `n1, …, t50`: the slot columns, in the order of slotExpressionsSql. */
export const slotColumnsSql = allSlots.join(', ');

function slotExpression(slot: string, source: string): string {
  return slot[0] === 'n' ? `(${source}->>'${slot}')::float8` : `${source}->>'${slot}'`;
}

/** Each slot's value from a JSON object of slot values (`source`, an SQL expression of type jsonb). */
export function slotExpressionsSql(source: string): string {
  return allSlots.map((slot) => slotExpression(slot, source)).join(', ');
}

/** `n1 = …, …, t50 = …` from a JSON object of slot values (for UPDATE … SET). */
export function slotAssignmentsSql(source: string): string {
  return allSlots.map((slot) => `${slot} = ${slotExpression(slot, source)}`).join(', ');
}
