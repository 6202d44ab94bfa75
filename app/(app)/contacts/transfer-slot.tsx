'use client';

/**
 * The seam for import and export (issue 22, lane "import/export"): the Contacts page's toolbar renders
 * this component beside "New card". It renders nothing today; the import/export lane puts its buttons
 * here (self-contained dialogs of its own), and calls `onImported` after an import so the list is read
 * again. `isAdmin` says whether the shared layer may be chosen as the target; `layer` and `mailboxId`
 * are the page's current filter and point of view, a sensible default for an export.
 */
export interface ContactsTransferSlotProps {
  isAdmin: boolean;
  layer: 'all' | 'shared' | 'member';
  mailboxId: string;
  onImported: () => void;
}

export function ContactsTransferSlot(_props: ContactsTransferSlotProps) {
  return null;
}
