/**
 * Microsoft Graph mail folders as mirror folders. Pure.
 *
 * Keys: a well-known folder is keyed by its well-known name (`inbox`, `sentitems`, `drafts`,
 * `deleteditems`, `junkemail`, `archive`: stable, readable, and accepted by Graph wherever a folder id
 * is), every other folder by its Graph id (stable across renames and moves). The Graph id is the
 * folder's `providerId` either way. Roles come from the well-known names; Graph has no starred folder
 * (flagged messages are the mirror's starred view) and no "all mail" (the mirror's `all` view).
 * Children are read through `childFolders`; a folder whose parent is not listed (the hidden root)
 * is top level.
 */
import type { FolderRole, ProviderFolder } from '../../provider';

export interface GraphFolder {
  id: string;
  displayName?: string;
  parentFolderId?: string;
  childFolderCount?: number;
  totalItemCount?: number;
  isHidden?: boolean;
}

export const wellKnownRoles: Readonly<Record<string, FolderRole>> = {
  inbox: 'inbox',
  sentitems: 'sent',
  drafts: 'drafts',
  deleteditems: 'trash',
  junkemail: 'spam',
  archive: 'archive',
};

export const wellKnownNames = Object.keys(wellKnownRoles);

/** Folders mirrored at most, and the deepest level read. */
export const folderLimits = { maxFolders: 1000, maxDepth: 10 } as const;

/**
 * `folders` in the order read (parents before children, with their depth); `wellKnown` maps a Graph
 * folder id to its well-known name.
 */
export function foldersFromGraph(folders: readonly { folder: GraphFolder; depth: number }[], wellKnown: ReadonlyMap<string, string>): ProviderFolder[] {
  const keyOf = new Map<string, string>();
  for (const { folder } of folders) keyOf.set(folder.id, wellKnown.get(folder.id) ?? folder.id);
  const result: ProviderFolder[] = [];
  const seen = new Set<string>();
  for (const { folder, depth } of folders.slice(0, folderLimits.maxFolders)) {
    const key = keyOf.get(folder.id)!;
    if (seen.has(key) || key.length === 0 || key.length > 256) continue;
    seen.add(key);
    const name = wellKnown.get(folder.id);
    result.push({
      key,
      name: typeof folder.displayName === 'string' ? folder.displayName.slice(0, 256) : null,
      role: name ? wellKnownRoles[name] : null,
      parentKey: folder.parentFolderId ? (keyOf.get(folder.parentFolderId) ?? null) : null,
      depth,
      delimiter: null,
      providerId: folder.id,
      selectable: true,
    });
  }
  return result;
}
