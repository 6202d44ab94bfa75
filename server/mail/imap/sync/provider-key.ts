/**
 * The server identity of an IMAP message in the mirror: "<folderKey>\n<uidValidity>\n<uid>". A folder
 * path can hold almost anything but a newline never appears in one (IMAP paths are single-line).
 */
export function imapProviderKey(folderKey: string, uidValidity: bigint, uid: bigint | number): string {
  return `${folderKey}\n${uidValidity}\n${uid}`;
}

/** The prefix shared by every message of one folder generation (for prefix scans). */
export function imapFolderPrefix(folderKey: string, uidValidity?: bigint): string {
  return uidValidity === undefined ? `${folderKey}\n` : `${folderKey}\n${uidValidity}\n`;
}

export function parseImapProviderKey(key: string): { folderKey: string; uidValidity: bigint; uid: bigint } | null {
  const last = key.lastIndexOf('\n');
  const middle = key.lastIndexOf('\n', last - 1);
  if (middle <= 0 || last <= middle) return null;
  const validity = key.slice(middle + 1, last);
  const uid = key.slice(last + 1);
  if (!/^\d{1,20}$/.test(validity) || !/^\d{1,20}$/.test(uid)) return null;
  return { folderKey: key.slice(0, middle), uidValidity: BigInt(validity), uid: BigInt(uid) };
}
