/**
 * The action that takes a thread action back, for the actions the webmail offers to undo from a toast:
 * archiving (undone by moving the archived messages back to the inbox). Null: nothing to offer.
 */
import type { ThreadAction } from '@/app/lib/mail-types';

export function undoOf(request: { action?: ThreadAction }): { action: ThreadAction } | null {
  return request.action === 'archive' ? { action: 'unarchive' } : null;
}

/** How long the toast offers Undo. */
export const undoToastMs = 8_000;
