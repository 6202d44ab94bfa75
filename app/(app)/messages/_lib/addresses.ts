/** Address fields of the compose form: comma/semicolon-separated text to a list, with the entries that are not addresses. */
const addressPattern = /^[^\s@<>(),;:"\\[\]]+@[^\s@<>(),;:"\\[\]]+\.[^\s@<>(),;:"\\[\]]+$/;

export function splitAddresses(text: string): { addresses: string[]; invalid: string[] } {
  const addresses: string[] = [];
  const invalid: string[] = [];
  for (const raw of text.split(/[,;\n]/)) {
    const entry = raw.trim();
    if (!entry) continue;
    const angled = /<([^<>]*)>\s*$/.exec(entry);
    const address = (angled ? angled[1] : entry).trim();
    if (address.length <= 320 && addressPattern.test(address)) {
      if (!addresses.some((seen) => seen.toLowerCase() === address.toLowerCase())) addresses.push(address);
    } else invalid.push(entry);
  }
  return { addresses, invalid };
}
