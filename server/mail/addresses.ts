/**
 * The address grammar every mail part shares: whether text is a plain address, addresses without
 * duplicates, and an address list as a workflow's expression gives it (an array, or comma, semicolon
 * or newline separated text, `Name <a@b.c>` reduced to the address). Pure.
 */

const lower = (email: string) => email.trim().toLowerCase();

/** Addresses in order, without duplicates (case-insensitive) and without the ones in `exclude`. */
export function uniqueAddresses(addresses: string[], exclude: string[] = []): string[] {
  const seen = new Set(exclude.map(lower));
  const kept: string[] = [];
  for (const address of addresses) {
    const key = lower(address);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    kept.push(address.trim());
  }
  return kept;
}

const addressPattern = /^[^\s@<>(),;:"\\[\]]+@[^\s@<>(),;:"\\[\]]+\.[^\s@<>(),;:"\\[\]]+$/;

/** Whether text is a plain e-mail address (local@domain.tld, no display name), at most 320 characters. */
export function isAddress(text: string): boolean {
  return text.length <= 320 && addressPattern.test(text);
}

/**
 * Addresses from an array or comma/semicolon-separated text (what a workflow's expression gives),
 * `Name <a@b.c>` reduced to the address. Answers the addresses and the entries that are not ones.
 */
export function parseAddressList(value: string | string[] | null | undefined): { addresses: string[]; invalid: string[] } {
  const parts = (Array.isArray(value) ? value : value ? [value] : []).flatMap((entry) => String(entry).split(/[,;\n]/));
  const addresses: string[] = [];
  const invalid: string[] = [];
  for (const raw of parts) {
    const text = raw.trim();
    if (text === '') continue;
    const angled = /<([^<>]*)>\s*$/.exec(text);
    const address = (angled ? angled[1] : text).trim();
    if (isAddress(address)) addresses.push(address);
    else invalid.push(text.slice(0, 100));
  }
  return { addresses: uniqueAddresses(addresses), invalid };
}
