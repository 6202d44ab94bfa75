/**
 * IMAP folders → mirror folders: roles from SPECIAL-USE (RFC 6154) flags, or from the common names
 * imapflow recognises when the server announces none; hierarchy from the delimiter.
 *
 * System roles always present: every mailbox gets a folder for inbox, sent, drafts, archive, spam
 * and trash. When the server has no folder for a role, the mirror keeps a placeholder under the usual
 * name ("Archive", "Junk", ...) with `selectable: false`; it holds no messages, and the first action
 * that moves a message there creates the folder on the server (mail.apply-operations). `starred` and
 * `all` are views (flagged messages, every folder) for the read side, never synced as folders, so a
 * server's "\All" / "\Flagged" virtual folders (Gmail's [Gmail]/All Mail) are listed for their role
 * but not mirrored message by message (that would mirror every message twice).
 */
import type { ListResponse } from 'imapflow';
import type { FolderRole, ProviderFolder } from '../../provider';

const specialUseRoles: Record<string, FolderRole> = {
  '\\inbox': 'inbox',
  '\\sent': 'sent',
  '\\drafts': 'drafts',
  '\\archive': 'archive',
  '\\junk': 'spam',
  '\\trash': 'trash',
  '\\all': 'all',
  '\\flagged': 'starred',
};

/** Roles that always have a folder row, and the name a placeholder takes. */
export const systemRoleNames: ReadonlyArray<[FolderRole, string]> = [
  ['inbox', 'INBOX'],
  ['sent', 'Sent'],
  ['drafts', 'Drafts'],
  ['archive', 'Archive'],
  ['spam', 'Junk'],
  ['trash', 'Trash'],
];

/** Roles whose folders are not mirrored message by message. */
export const unsyncedRoles: ReadonlySet<FolderRole> = new Set(['all', 'starred']);

/** Folders listed per mailbox; a server answering more is cut (the rest is not mirrored). */
export const maxFolders = 2000;

function roleOf(entry: Pick<ListResponse, 'path' | 'specialUse'>): FolderRole | null {
  if (entry.path.toUpperCase() === 'INBOX') return 'inbox';
  const role = entry.specialUse ? specialUseRoles[entry.specialUse.toLowerCase()] : undefined;
  return role ?? null;
}

export function folderRows(entries: ReadonlyArray<Pick<ListResponse, 'path' | 'name' | 'delimiter' | 'parentPath' | 'flags' | 'specialUse'>>): ProviderFolder[] {
  const listed = entries.filter((entry) => entry.path.length >= 1 && entry.path.length <= 256 && !entry.path.includes('\n')).slice(0, maxFolders);
  const paths = new Set(listed.map((entry) => entry.path));
  const taken = new Set<FolderRole>();
  const rows: ProviderFolder[] = listed.map((entry) => {
    const flags = new Set([...entry.flags].map((flag) => flag.toLowerCase()));
    let role = roleOf(entry);
    // One folder per role: the first listed keeps it (servers rarely announce two).
    if (role && taken.has(role)) role = null;
    if (role) taken.add(role);
    const parentKey = entry.parentPath && paths.has(entry.parentPath) ? entry.parentPath : null;
    const depth = entry.delimiter ? entry.path.split(entry.delimiter).length - 1 : 0;
    return {
      key: entry.path,
      name: entry.name || entry.path,
      role,
      parentKey,
      depth: Math.min(depth, 50),
      delimiter: entry.delimiter || null,
      providerId: null,
      selectable: !flags.has('\\noselect') && !flags.has('\\nonexistent'),
    };
  });
  for (const [role, name] of systemRoleNames) {
    if (taken.has(role)) continue;
    // The usual name may be a plain folder already listed without a role: give it the role.
    const plain = rows.find((row) => row.role === null && row.key.toLowerCase() === name.toLowerCase());
    if (plain) {
      plain.role = role;
      continue;
    }
    rows.push({ key: name, name, role, parentKey: null, depth: 0, delimiter: null, providerId: null, selectable: false });
  }
  return rows;
}

/** Whether the sync reads this folder's messages. */
export function isSyncedFolder(folder: Pick<ProviderFolder, 'selectable' | 'role'>): boolean {
  return folder.selectable && !(folder.role !== null && unsyncedRoles.has(folder.role));
}
