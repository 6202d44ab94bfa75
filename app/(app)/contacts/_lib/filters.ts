/**
 * The Contacts page's filters: what the person chose (search text, kind, layer, point of view), the
 * list's query derived from it, and whether anything narrows the list (which empty state shows). Pure.
 */
import type { ContactKind } from '@/server/domains/contacts/normalise';
import { contactBounds } from '@/server/domains/contacts/schemas';
import type { ContactListQuery } from './api';

export interface ContactFilters {
  q: string;
  kind: ContactKind | '';
  layer: 'all' | 'shared' | 'member';
  /** The point of view: one of the member's mailboxes, '' for none. */
  mailboxId: string;
}

export const noContactFilters: ContactFilters = { q: '', kind: '', layer: 'all', mailboxId: '' };

export function queryOfContactFilters(filters: ContactFilters): ContactListQuery {
  const q = filters.q.trim().slice(0, contactBounds.q);
  return {
    layer: filters.layer,
    ...(q ? { q } : {}),
    ...(filters.kind ? { kind: filters.kind } : {}),
    ...(filters.mailboxId ? { mailboxId: filters.mailboxId } : {}),
  };
}

/**
 * Whether the filters may hide entries (then an empty list says "nothing matches", not "no card yet"):
 * search, kind and layer do, and so does a point of view (the member's cards for their other mailboxes
 * do not count from it).
 */
export function isContactListFiltered(filters: ContactFilters): boolean {
  return filters.q.trim() !== '' || filters.kind !== '' || filters.layer !== 'all' || filters.mailboxId !== '';
}
