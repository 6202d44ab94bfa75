/**
 * Which folder keys of each mailbox a folder name stands for, as the threads list and the thread
 * actions take it: a role name (`inbox`, `sent`, … every mailbox's folders of that role; `all`:
 * every folder but trash and spam; `starred`: the same, flagged threads only) or a folder key (the
 * mailboxes that have it). Role names win over a folder key spelled the same. Pure.
 */
import { isFolderRole, type FolderRole } from '../schemas';

export interface FolderLike {
  mailboxId: string;
  key: string;
  role: string | null;
}

export interface ResolvedFolder {
  /** Folder keys per mailbox; a mailbox without such a folder has an empty list. */
  keysByMailbox: Map<string, string[]>;
  role: FolderRole | null;
  flaggedOnly: boolean;
}

const hiddenFromAll: ReadonlySet<string> = new Set(['trash', 'spam']);

/** Null when the name is neither a role nor a key of any of the mailboxes. */
export function resolveFolder(name: string, mailboxIds: string[], folders: FolderLike[]): ResolvedFolder | null {
  const keysByMailbox = new Map<string, string[]>(mailboxIds.map((id) => [id, []]));
  const role = isFolderRole(name) ? name : null;
  const matches = (folder: FolderLike) => {
    if (role === 'all' || role === 'starred') return !hiddenFromAll.has(folder.role ?? '');
    if (role) return folder.role === role;
    return folder.key === name;
  };
  let found = false;
  for (const folder of folders) {
    const keys = keysByMailbox.get(folder.mailboxId);
    if (!keys || !matches(folder)) continue;
    keys.push(folder.key);
    found = true;
  }
  if (!role && !found) return null;
  return { keysByMailbox, role, flaggedOnly: role === 'starred' };
}
