/**
 * A webmail operation as Microsoft Graph calls. Pure.
 *
 * Read/unread and flag are PATCHes (`isRead`, `flag.flagStatus`); every folder action is
 * `POST messages/{id}/move` to a destination: archive → archive, unarchive → inbox, trash →
 * deleteditems, restore and notSpam → `toFolderKey` or inbox, spam → junkemail, move → `toFolderKey`.
 * A destination is the folder's Graph id when the folder is listed, else the key itself (well-known
 * names are valid destinations). Labels are Outlook categories; deletePermanently is DELETE.
 */
import type { ProviderFolder } from '../../provider';

export type GraphPlan =
  | { call: 'patch'; body: Record<string, unknown> }
  | { call: 'move'; destinationKey: string; destinationId: string }
  | { call: 'categories'; add: string[]; remove: string[] }
  | { call: 'delete' }
  | { call: 'unsupported' };

export interface GraphOperation {
  action: string;
  toFolderKey?: string;
  labelsAdd?: string[];
  labelsRemove?: string[];
}

function destination(action: string, toFolderKey: string | undefined): string | null {
  switch (action) {
    case 'archive':
      return 'archive';
    case 'unarchive':
      return 'inbox';
    case 'trash':
      return 'deleteditems';
    case 'spam':
      return 'junkemail';
    case 'restore':
      return toFolderKey && toFolderKey !== 'deleteditems' ? toFolderKey : 'inbox';
    case 'notSpam':
      return toFolderKey && toFolderKey !== 'junkemail' ? toFolderKey : 'inbox';
    case 'move':
      return toFolderKey ?? null;
    default:
      return null;
  }
}

const categoryLength = 255;

export function planGraphOperation(operation: GraphOperation, folders: readonly ProviderFolder[]): GraphPlan {
  switch (operation.action) {
    case 'markRead':
      return { call: 'patch', body: { isRead: true } };
    case 'markUnread':
      return { call: 'patch', body: { isRead: false } };
    case 'flag':
      return { call: 'patch', body: { flag: { flagStatus: 'flagged' } } };
    case 'unflag':
      return { call: 'patch', body: { flag: { flagStatus: 'notFlagged' } } };
    case 'deletePermanently':
      return { call: 'delete' };
    case 'labels': {
      const clean = (values: string[] | undefined) => [...new Set((values ?? []).map((value) => value.trim()).filter((value) => value.length > 0 && value.length <= categoryLength))];
      return { call: 'categories', add: clean(operation.labelsAdd), remove: clean(operation.labelsRemove) };
    }
    default: {
      const key = destination(operation.action, operation.toFolderKey);
      if (!key) return { call: 'unsupported' };
      const folder = folders.find((item) => item.key === key);
      if (folder && !folder.selectable) return { call: 'unsupported' };
      return { call: 'move', destinationKey: key, destinationId: folder?.providerId ?? key };
    }
  }
}

/** The categories after adding and removing (case-insensitive like Outlook), at most 100. */
export function mergeCategories(current: readonly string[], add: readonly string[], remove: readonly string[]): string[] {
  const removing = new Set(remove.map((value) => value.toLowerCase()));
  const result = current.filter((value) => !removing.has(value.toLowerCase()));
  for (const value of add) if (!result.some((item) => item.toLowerCase() === value.toLowerCase())) result.push(value);
  return result.slice(0, 100);
}
