/**
 * Gmail labels as mirror folders, and a message's label ids as its place in the mirror. Pure.
 *
 * Terminology: a Gmail message exists once, with any number of labels; the mirror gives it one
 * `folderKey` (where the member sees it first) plus extra `labels`.
 *
 * - Folder keys are Gmail's own label ids: the system ones read well (INBOX, SENT, DRAFT, SPAM, TRASH,
 *   STARRED) and user label ids (`Label_12`) stay stable when the member renames a label; the name
 *   is the folder's `name`. A user label `a/b` is the child of the label `a` (the nearest existing
 *   ancestor; a missing middle level stays in the name: `a/b/c` under `a` is named `b/c`).
 * - ARCHIVE is synthesised (role `archive`, no Gmail label): a message with none of INBOX, SPAM,
 *   TRASH, DRAFT, SENT lives there. There is no `all` folder: the mirror's `all` view (every folder
 *   but trash and spam) is exactly Gmail's "All Mail".
 * - STARRED is listed for its role but holds no message (`selectable: false`): starring is the
 *   `flagged` flag, and the mirror's starred view shows flagged messages.
 * - A message's folder is the first of TRASH, SPAM, INBOX, DRAFT, SENT it carries, else ARCHIVE. Its
 *   `labels` are its user labels plus the other places among INBOX, DRAFT, SENT (a message sent to
 *   oneself is in INBOX with the label SENT), none of them when it is in TRASH or SPAM.
 * - UNREAD, STARRED, DRAFT and SENT are also the flags (seen = no UNREAD). IMPORTANT, CHAT and the
 *   CATEGORY_* labels are Gmail's automatic sorting, not the member's: neither folders nor labels.
 */
import type { MessageFlags, ProviderFolder } from '../../provider';

export interface GmailLabel {
  id: string;
  name?: string;
  type?: string;
  color?: { textColor?: string; backgroundColor?: string };
}

export const archiveKey = 'ARCHIVE';

export const systemFolders: readonly ProviderFolder[] = [
  { key: 'INBOX', name: 'Inbox', role: 'inbox', parentKey: null, depth: 0, delimiter: null, providerId: 'INBOX', selectable: true },
  { key: 'STARRED', name: 'Starred', role: 'starred', parentKey: null, depth: 0, delimiter: null, providerId: 'STARRED', selectable: false },
  { key: 'SENT', name: 'Sent', role: 'sent', parentKey: null, depth: 0, delimiter: null, providerId: 'SENT', selectable: true },
  { key: 'DRAFT', name: 'Drafts', role: 'drafts', parentKey: null, depth: 0, delimiter: null, providerId: 'DRAFT', selectable: true },
  { key: archiveKey, name: 'Archive', role: 'archive', parentKey: null, depth: 0, delimiter: null, providerId: null, selectable: true },
  { key: 'SPAM', name: 'Spam', role: 'spam', parentKey: null, depth: 0, delimiter: null, providerId: 'SPAM', selectable: true },
  { key: 'TRASH', name: 'Trash', role: 'trash', parentKey: null, depth: 0, delimiter: null, providerId: 'TRASH', selectable: true },
];

/** Folders a message can live in, in the order they claim it. */
export const locationKeys = ['TRASH', 'SPAM', 'INBOX', 'DRAFT', 'SENT'] as const;
/** Every folder whose messages the sync lists (ARCHIVE by a query, the others by label). */
export const listedFolderKeys = ['INBOX', 'SENT', 'DRAFT', archiveKey, 'SPAM', 'TRASH'] as const;

const systemIds = new Set(['INBOX', 'SENT', 'DRAFT', 'SPAM', 'TRASH', 'STARRED', 'IMPORTANT', 'UNREAD', 'CHAT']);

/** User labels mirrored at most (Gmail allows 10,000; a mailbox with more keeps the first ones). */
export const maxUserLabels = 2000;
const maxLabelsPerMessage = 100;

/** A label id that is the member's own (not a system label, not a category). */
export function isUserLabelId(id: string): boolean {
  return !systemIds.has(id) && id !== archiveKey && !id.startsWith('CATEGORY_') && id.length > 0 && id.length <= 256;
}

/** The mirror folders of a Gmail account: the fixed system ones, then user labels by name. */
export function foldersFromLabels(labels: readonly GmailLabel[]): ProviderFolder[] {
  const users = labels
    .filter((label) => label.type === 'user' && typeof label.id === 'string' && isUserLabelId(label.id))
    .filter((label) => typeof label.name === 'string' && label.name.length > 0 && label.name.length <= 1000)
    .slice(0, maxUserLabels)
    .sort((a, b) => (a.name! < b.name! ? -1 : a.name! > b.name! ? 1 : 0));
  const idByName = new Map(users.map((label) => [label.name!, label.id]));
  const folders: ProviderFolder[] = systemFolders.map((folder) => ({ ...folder }));
  for (const label of users) {
    const name = label.name!;
    const segments = name.split('/');
    let parentKey: string | null = null;
    let parentLength = 0;
    let depth = 0;
    for (let end = 1; end < segments.length; end += 1) {
      const ancestor = segments.slice(0, end).join('/');
      const id = idByName.get(ancestor);
      if (id !== undefined) {
        depth += 1;
        parentKey = id;
        parentLength = ancestor.length + 1;
      }
    }
    const background = label.color?.backgroundColor;
    folders.push({
      key: label.id,
      name: name.slice(parentLength) || name,
      role: null,
      parentKey,
      depth,
      delimiter: '/',
      providerId: label.id,
      selectable: true,
      color: typeof background === 'string' && /^#[0-9a-fA-F]{6}$/.test(background) ? background.toLowerCase() : null,
    });
  }
  return folders;
}

export interface MessagePlacement {
  folderKey: string;
  labels: string[];
  flags: MessageFlags;
}

/** Where the mirror shows a message with these Gmail label ids (see the rules above). */
export function placeMessage(labelIds: readonly string[] | undefined): MessagePlacement {
  const ids = new Set(labelIds ?? []);
  const folderKey = locationKeys.find((key) => ids.has(key)) ?? archiveKey;
  const labels: string[] = [];
  if (folderKey !== 'TRASH' && folderKey !== 'SPAM') {
    for (const key of ['INBOX', 'DRAFT', 'SENT']) if (key !== folderKey && ids.has(key)) labels.push(key);
  }
  for (const id of ids) {
    if (labels.length >= maxLabelsPerMessage) break;
    if (isUserLabelId(id)) labels.push(id);
  }
  return {
    folderKey,
    labels,
    flags: { seen: !ids.has('UNREAD'), flagged: ids.has('STARRED'), draft: ids.has('DRAFT'), sent: ids.has('SENT') },
  };
}
