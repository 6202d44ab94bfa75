/**
 * Opaque keyset cursors for "newest first" lists: the cursor names the last item seen by its time and
 * id, so items inserted meanwhile never shift a page. An unreadable cursor decodes to null.
 *
 * A cursor is client input: it decodes only to what encodeCursor writes (an ISO time with a four-digit
 * year and a uuid, the ids of every table here), so a forged one never reaches the database as a value
 * it refuses (a non-uuid id, a year PostgreSQL cannot store), which would be a 500.
 */
import { z } from 'zod';
import { isoDateTimeInput } from './schemas';

export interface CursorPosition {
  at: Date;
  id: string;
}

const cursorShape = z.object({ t: isoDateTimeInput, i: z.uuid() });

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify({ t: position.at.toISOString(), i: position.id })).toString('base64url');
}

export function decodeCursor(cursor: string | null | undefined): CursorPosition | null {
  if (!cursor) return null;
  try {
    const parsed = cursorShape.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    if (!parsed.success) return null;
    const at = new Date(parsed.data.t);
    return Number.isNaN(at.getTime()) ? null : { at, id: parsed.data.i };
  } catch {
    return null;
  }
}

/** Prisma `where` fragment selecting items strictly after the cursor in (at desc, id desc) order. */
export function afterCursor<F extends string>(field: F, position: CursorPosition | null) {
  if (!position) return {};
  return {
    OR: [{ [field]: { lt: position.at } }, { [field]: position.at, id: { lt: position.id } }],
  } as Record<string, unknown>;
}

/** Fetch `limit + 1` rows, then call this: it trims the extra row and computes `nextCursor`. */
export function pageOf<T extends { id: string }>(rows: T[], limit: number, timeOf: (row: T) => Date) {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  const nextCursor = rows.length > limit && last ? encodeCursor({ at: timeOf(last), id: last.id }) : null;
  return { items, nextCursor };
}

/** Query `limit` for a cursor list: default and maximum from the spec; above the maximum is a 400. */
export function limitParam(defaultLimit: number, maximum: number) {
  return z.coerce.number().int().min(1).max(maximum).default(defaultLimit);
}
