/** The address book's part of the webmail's recipient suggestions (compose, issue 22): see repo-suggest.ts. */
import { findSuggestedEntries } from './repo-suggest';

/** Entries the member sees whose address or shared display name contains `q` (nothing for an empty `q`). */
export async function suggestFromAddressBook(memberId: string, q: string, limit: number): Promise<{ address: string; displayName: string | null }[]> {
  const text = q.trim().toLowerCase();
  if (text === '') return [];
  const rows = await findSuggestedEntries(memberId, text, limit);
  return rows.map((row) => ({ address: row.value, displayName: row.displayName }));
}
