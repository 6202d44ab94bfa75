/**
 * IMAP flags ↔ the mirror's flags and labels.
 *
 * - \Seen, \Flagged, \Draft are the spec's `seen`, `flagged`, `draft`; `sent` is not an IMAP flag: a
 *   message is sent when it sits in the folder with the `sent` role.
 * - Labels are IMAP keywords. A label that is a plain IMAP atom is its own keyword; any other label
 *   (spaces, non-ASCII, IMAP specials) is written as `mf.<base64url of its UTF-8>` and read back. Keywords
 *   with a `$` prefix and the junk/forwarding markers mail clients set are not labels.
 */

export interface ImapMessageFlags {
  seen: boolean;
  flagged: boolean;
  draft: boolean;
  sent: boolean;
}

const encodedPrefix = 'mf.';
const notLabels = new Set(['junk', 'nonjunk', 'notjunk', 'forwarded', 'redirected', 'old', 'mdnsent']);
/** IMAP atom characters (RFC 3501 ATOM-CHAR without list/resp specials), bounded length. */
const plainKeyword = /^[A-Za-z0-9!#&'+,\-./:;<=>?@^_`|~]{1,100}$/;
/** Labels read per message (a message may carry many keywords). */
const maxLabels = 50;

export function flagsOf(flags: Iterable<string> | undefined, folderRole: string | null): ImapMessageFlags {
  const set = new Set([...(flags ?? [])].map((flag) => flag.toLowerCase()));
  return { seen: set.has('\\seen'), flagged: set.has('\\flagged'), draft: set.has('\\draft'), sent: folderRole === 'sent' };
}

export function labelToKeyword(label: string): string {
  if (plainKeyword.test(label) && !label.startsWith(encodedPrefix) && !label.startsWith('$')) return label;
  return `${encodedPrefix}${Buffer.from(label, 'utf8').toString('base64url')}`;
}

export function keywordToLabel(keyword: string): string | null {
  if (keyword.startsWith('\\') || keyword.startsWith('$') || keyword.length === 0 || keyword.length > 400) return null;
  if (notLabels.has(keyword.toLowerCase())) return null;
  if (keyword.startsWith(encodedPrefix)) {
    const text = Buffer.from(keyword.slice(encodedPrefix.length), 'base64url').toString('utf8');
    return text.length >= 1 && text.length <= 200 && text.isWellFormed() && !text.includes('\u0000') ? text : null;
  }
  return keyword;
}

export function labelsOf(flags: Iterable<string> | undefined): string[] {
  const labels: string[] = [];
  for (const flag of flags ?? []) {
    const label = keywordToLabel(flag);
    if (label !== null && !labels.includes(label)) labels.push(label);
    if (labels.length >= maxLabels) break;
  }
  return labels.sort();
}
