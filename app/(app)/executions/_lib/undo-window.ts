/**
 * The window of the workflow's "Undo runs…" (issue 24 §4): two `datetime-local` fields in the reader's
 * time zone, the last 24 hours by default, turned into the bulk undo's `[from, to)` instants. The
 * server refuses a window over 30 days (400): it is caught here first, in words.
 */

/** The bulk undo's widest window (server/domains/executions/undo/schemas.ts `bulkUndoMaxDays`). */
export const maxUndoWindowDays = 30;

const pad = (value: number) => String(value).padStart(2, '0');

/** An instant as a `datetime-local` value (the reader's time zone, to the minute). */
export function localInputValue(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The last 24 hours, ending at the next minute so a run created this minute is inside. */
export function defaultUndoWindow(now = new Date()): { from: string; to: string } {
  const end = new Date(now.getTime() + 60_000);
  return { from: localInputValue(new Date(now.getTime() - 24 * 3_600_000)), to: localInputValue(end) };
}

/** The fields as instants, or null when one is empty or unreadable, the end is not after the start, or the window is too wide. */
export function undoWindowOf(fields: { from: string; to: string }): { from: string; to: string } | null {
  const from = Date.parse(fields.from);
  const to = Date.parse(fields.to);
  if (Number.isNaN(from) || Number.isNaN(to) || to <= from || to - from > maxUndoWindowDays * 86_400_000) return null;
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}
